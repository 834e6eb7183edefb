/**
 * The one look at the model servers `localexec eval` makes before any task: when no host of any
 * rung answers, every task would end "could not be reached", so eval says once which servers it
 * tried and how to start one or point the configuration at one, and runs nothing.
 */
import type { Config } from "../config.ts";
import { configRungs, openModelPool } from "../implement/mod.ts";
import { providerNamed } from "../providers/mod.ts";

/** How long each host may take to answer, in seconds. */
const CONNECT_TIMEOUT_S = 5;

/**
 * Undefined when a host of `config`'s rungs answers; else one message naming each host tried, why
 * it did not answer and the fix (`configPath`: the file to fix). `signal` cancels the look.
 */
export async function noServerAnswers(
  config: Config,
  o: { configPath: string; signal?: AbortSignal },
): Promise<string | undefined> {
  const rungs = configRungs(config);
  const tried = new Set<string>();
  for (const rung of rungs.length ? rungs : [config]) {
    const pool = await openModelPool(rung, { connectTimeoutS: CONNECT_TIMEOUT_S });
    const reports = await pool.report(undefined, { signal: o.signal });
    if (reports.some((r) => r.reachable)) return undefined;
    for (const r of reports) tried.add(r.url);
  }
  const at = [...tried].join(", ");
  const model = rungs[0]?.model || config.model || "qwen2.5-coder:7b";
  const provider = providerNamed(config.provider);
  const fix = `${provider.label} is not reachable at ${at}: ${provider.status.down}, and ` +
    `${provider.init.pull(model, provider.label)}; or point ${provider.hostKey} in ` +
    `${o.configPath}${provider.hostEnv ? ` (or ${provider.hostEnv})` : ""} at a running one`;
  return `no model server answered, so no task was run: ${fix}; then run eval again`;
}
