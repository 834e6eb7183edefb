/**
 * Delegation: implement_task's planning, prompt, attempts, checks and verdict. The loop itself is
 * loaded on the first call, so that server start-up does not pay for the Ollama client, the diff
 * library or the grammars.
 */
import type { EngineContext } from "./context.ts";
import type { ModelSettings } from "../config.ts";
import type { ModelPool } from "../model/mod.ts";
import type { PoolTimeouts } from "./hosts.ts";
import type { TaskInput } from "./plan.ts";
import type { Verdict } from "./verdict.ts";

export { errorVerdict, type Tried, type Verdict, VERDICT_SHAPE } from "./verdict.ts";
export { ENGINE_NEEDS, type EngineContext } from "./context.ts";
export type { TaskInput } from "./plan.ts";
export { estimateChatTokens } from "./context_size.ts";
export { configRungs } from "./rungs.ts";
export { LandingRounds } from "./rounds.ts";

/** Runs one implement_task call (see `run.ts`). */
export async function implementTask(input: TaskInput, ctx: EngineContext): Promise<Verdict> {
  const { implementTask: run } = await import("./run.ts");
  return await run(input, ctx);
}

/** The model hosts `config` names, as one pool (see `hosts.ts`); loads the backends on first use. */
export async function openModelPool(
  config: ModelSettings,
  t: PoolTimeouts = {},
): Promise<ModelPool> {
  const { modelPool } = await import("./hosts.ts");
  return modelPool(config, t);
}
