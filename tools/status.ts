/**
 * status: a health check of this project's localexec set-up: config, the model on each model
 * host (Ollama or an OpenAI-compatible server), tasks, which tools are on. The model backends are
 * loaded on first use to keep start-up light.
 */
import { z } from "zod";
import description from "./status.md" with { type: "text" };
import { clip, errorLine, ToolError } from "../lib/errors.ts";
import { type Config, loadToolConfig } from "../lib/config.ts";
import { basename, join } from "../lib/deps.ts";
import { listTasks, recordRows, storeDir, taskTotals } from "../lib/tasks/mod.ts";
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";
import type { HostReport, Rung } from "../lib/model/mod.ts";
import { VERSION } from "../lib/version.ts";

/** The host implement_task would use: model loaded, else installed, else the first that answers. */
function _pick(reports: HostReport[]): HostReport {
  return reports.find((r) => r.model_loaded) ?? reports.find((r) => r.model_installed) ??
    reports.find((r) => r.reachable && !r.error) ?? reports.find((r) => r.reachable) ??
    reports[0];
}

/** One host in a few words, for a set-up with several. */
function _brief(r: HostReport): Record<string, unknown> {
  return {
    url: r.url,
    reachable: r.reachable,
    ...(r.model_installed !== undefined ? { model_installed: r.model_installed } : {}),
    ...(r.model_loaded !== undefined ? { model_loaded: r.model_loaded } : {}),
    ...(r.context ? { context: r.context } : {}),
    ...(r.error ? { error: clip(r.error, 120) } : {}),
  };
}

/** One rung of the ladder: its model, hosts, whether the model is there and loaded, its context. */
function _rung(rung: Rung, reports: HostReport[]): Record<string, unknown> {
  const pick = _pick(reports);
  return {
    model: rung.model,
    provider: rung.provider,
    max_attempts: rung.max_attempts,
    hosts: reports.map(_brief),
    model_installed: reports.some((r) => r.model_installed),
    model_loaded: reports.some((r) => r.model_loaded),
    ...(pick.context ? { context: pick.context } : {}),
  };
}

/** What each rung's hosts say, the first rung's as it is, all at once. */
async function _rungs(
  rungs: Rung[],
  signal: AbortSignal,
): Promise<{ first: HostReport[]; ladder?: Record<string, unknown>[] }> {
  const { openModelPool } = await import("../lib/implement/mod.ts");
  const all = await Promise.all(rungs.map(async (rung) => {
    const pool = await openModelPool(rung, { connectTimeoutS: 5 });
    return await pool.report(rung.model || undefined, { signal });
  }));
  return {
    first: all[0],
    ...(rungs.length > 1 ? { ladder: rungs.map((r, i) => _rung(r, all[i])) } : {}),
  };
}

/** What the model hosts say about the configured model; throws when none can be used. */
async function _model(
  config: Config,
  rungs: Rung[],
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const { first: reports, ladder } = await _rungs(
    rungs.length ? rungs : [{ model: "", ...config }],
    signal,
  );
  config = rungs.length ? { ...config, ...rungs[0] } : { ...config, model: undefined };
  const pick = _pick(reports);
  const hosts = reports.length > 1 ? { host: pick.url, hosts: reports.map(_brief) } : {};
  if (!pick.reachable || (pick.error && pick.model_installed === undefined)) {
    throw new ToolError(pick.error ?? `no model host answered`, hosts);
  }
  const ollama = config.provider === "ollama";
  const about = ollama ? { ollama_version: pick.version } : { server: pick.server };
  if (!config.model) return { ...about, ...hosts, ...(ladder ? { ladder } : {}) };
  const installed = !!pick.model_installed;
  const served = pick.served?.map((m) => JSON.stringify(m)).join(", ");
  return {
    ...about,
    ...(ladder ? { ladder } : {}),
    model_installed: installed,
    model_loaded: !!pick.model_loaded,
    ...(pick.context ? { [ollama ? "loaded_context" : "context"]: pick.context } : {}),
    ...hosts,
    ...(installed ? {} : {
      hint: ollama
        ? `model "${config.model}" is not installed in Ollama: run \`ollama list\` to see what ` +
          `is, and \`ollama pull ${config.model}\` to install it`
        : `model "${config.model}" is not served at ${pick.url}: ${
          served ? `it serves ${served}` : "it serves no model yet"
        }`,
    }),
  };
}

/**
 * `eval_record`: what `localexec eval` measured here, apart from the project's own tasks (rows per
 * model and language, each marked `eval: true`); nothing when eval never ran in this project.
 */
async function _evalRecord(root: string): Promise<{ eval_record?: unknown[] }> {
  if (!(await Deno.stat(join(storeDir(root), "eval")).catch(() => undefined))) return {};
  const rows = await (await import("../lib/eval/mod.ts")).evalRows(root);
  return rows.length ? { eval_record: rows } : {};
}

export default defineTool({
  name: "status",
  title: "Status",
  description: prose(description),
  input: z.object({}),
  output: z.looseObject({ status: z.string() }),
  needs: ["read"],
  annotations: ANNOTATIONS.READS,
  async run(_args, ctx) {
    // Its warnings (unknown keys) are in the answer's `warnings`, as in every tool's that reads it.
    const config = await loadToolConfig(ctx.state.configPath, ctx.root, ctx.warn);
    const { configRungs } = await import("../lib/implement/mod.ts");
    const rungs = configRungs(config);
    const tasks = await listTasks(ctx.root);
    const list = (hosts: string[]) => hosts.length > 1 ? hosts : hosts[0];
    const base = {
      project: basename(ctx.root),
      version: VERSION,
      model: rungs[0]?.model ?? null,
      ...(config.provider === "ollama"
        ? { ollama_host: list(config.hosts) }
        : { provider: config.provider, base_url: list(config.hosts) }),
      checks: config.checks.map((c) => c.name),
      tasks: tasks.length,
      totals: taskTotals(tasks),
      record: recordRows(tasks),
      tools_off: ctx.state.tools.off.map((t) => `${t.name}: ${t.why}`),
      ...(ctx.state.rootWarning ? { root_warning: ctx.state.rootWarning } : {}),
      ...await _evalRecord(ctx.root),
    };
    const hints: string[] = [];
    if (!config.exists) hints.push("no .localexec.json: run `localexec init` to write one");
    else if (!rungs.length) hints.push('add "model" to .localexec.json, e.g. "qwen2.5-coder:7b"');
    let model: Record<string, unknown>;
    try {
      model = await _model(config, rungs, ctx.signal);
    } catch (err) {
      hints.push(
        config.provider === "ollama"
          ? "start Ollama (`ollama serve`), then run `ollama list` to see the installed models"
          : "start the model server (llama-server, LM Studio, vLLM) at base_url, or fix base_url",
      );
      const fields = err instanceof ToolError ? err.fields : {};
      throw new ToolError(errorLine(err), { ...base, ...fields, hint: hints.join("; ") });
    }
    if (typeof model.hint === "string") hints.push(model.hint);
    const { hint: _, ...facts } = model;
    return { status: "ok", ...base, ...facts, ...(hints.length ? { hint: hints.join("; ") } : {}) };
  },
});
