/**
 * status: a health check of this project's localexec set-up: config, the model on each model
 * host (Ollama or an OpenAI-compatible server), tasks, which tools are on. The model backends are
 * loaded on first use to keep start-up light.
 */
import { z } from "zod";
import description from "./status.md" with { type: "text" };
import { clip, errorLine, ToolError } from "../lib/errors.ts";
import { type Config, loadToolConfig } from "../lib/config.ts";
import { providerNamed, PROVIDERS } from "../lib/providers/mod.ts";
import { basename, join } from "../lib/deps.ts";
import {
  listTasks,
  RECORD_ROW_OUTPUT,
  recordRows,
  SAVINGS_SHAPE,
  storeDir,
  taskTotals,
  TOTALS_OUTPUT,
} from "../lib/tasks/mod.ts";
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
  const { status: words } = providerNamed(config.provider);
  const about = words.about(pick);
  if (!config.model) return { ...about, ...hosts, ...(ladder ? { ladder } : {}) };
  const installed = !!pick.model_installed;
  return {
    ...about,
    ...(ladder ? { ladder } : {}),
    model_installed: installed,
    model_loaded: !!pick.model_loaded,
    ...(pick.context ? { [words.contextKey]: pick.context } : {}),
    ...hosts,
    ...(installed ? {} : { hint: words.missing(config.model, pick) }),
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

const HOSTS = z.union([z.string(), z.array(z.string())]);

/** One model host in a few words ({@linkcode _brief}). */
const HOST_OUTPUT = z.object({
  url: z.string(),
  reachable: z.boolean(),
  model_installed: z.boolean().optional(),
  model_loaded: z.boolean().optional(),
  context: z.number().optional(),
  error: z.string().optional(),
});

/** One row of `eval_record` (`EvalRow` in lib/eval/record.ts). */
const EVAL_ROW_OUTPUT = z.object({
  model: z.string(),
  kind: z.string(),
  tasks: z.number(),
  passed: z.number(),
  first_try: z.number(),
  median_attempts: z.number().nullable(),
  median_seconds: z.number().nullable(),
  ...SAVINGS_SHAPE,
  eval: z.boolean(),
  last: z.string().describe("When the latest run that counts here finished"),
});

/** Every field status answers, `ok` or `error` (which keeps what it knew). */
const OUTPUT = z.looseObject({
  status: z.string(),
  project: z.string().optional().describe("The project folder's name"),
  version: z.string().optional().describe("localexec's version"),
  model: z.string().nullable().optional().describe("The model of the ladder's first rung"),
  ollama_host: HOSTS.optional().describe("Ollama's URL (a list when several)"),
  provider: z.string().optional().describe("An OpenAI-compatible server's provider"),
  base_url: HOSTS.optional().describe("An OpenAI-compatible server's URL (a list when several)"),
  checks: z.array(z.string()).optional().describe("The configured checks"),
  tasks: z.number().optional().describe("Tasks recorded in this project"),
  totals: TOTALS_OUTPUT.optional().describe("The model's tokens and seconds over every task"),
  record: z.array(RECORD_ROW_OUTPUT).optional().describe(
    "Per model and kind of file: how the project's tasks went, and what the passed ones saved",
  ),
  tools_off: z.array(z.string()).optional().describe("Tools that are off, and why"),
  root_warning: z.string().optional(),
  warnings: z.array(z.string()).optional().describe("Configuration warnings"),
  eval_record: z.array(EVAL_ROW_OUTPUT).optional().describe("What localexec eval measured here"),
  ollama_version: z.string().optional(),
  server: z.string().optional().describe("Which OpenAI-compatible server answers"),
  ladder: z.array(z.object({
    model: z.string(),
    provider: z.string(),
    max_attempts: z.number(),
    hosts: z.array(HOST_OUTPUT),
    model_installed: z.boolean(),
    model_loaded: z.boolean(),
    context: z.number().optional(),
  })).optional().describe("Each rung, when the ladder has more than one"),
  model_installed: z.boolean().optional(),
  model_loaded: z.boolean().optional(),
  loaded_context: z.number().optional().describe("Ollama: the loaded model's context"),
  context: z.number().optional().describe("An OpenAI-compatible server's context"),
  host: z.string().optional().describe("With several hosts: the one a task would use"),
  hosts: z.array(HOST_OUTPUT).optional().describe("With several hosts: each one"),
  hint: z.string().optional().describe("What to do next"),
});

export default defineTool({
  name: "status",
  title: "Status",
  description: prose(description),
  input: z.object({}),
  output: OUTPUT,
  needs: ["read"],
  annotations: ANNOTATIONS.READS,
  async run(_args, ctx) {
    // Its warnings (unknown keys) are in the answer's `warnings`, as in every tool's that reads it.
    const config = await loadToolConfig(ctx.state.configPath, ctx.root, PROVIDERS, ctx.warn);
    const provider = providerNamed(config.provider);
    const { configRungs } = await import("../lib/implement/mod.ts");
    const rungs = configRungs(config);
    const tasks = await listTasks(ctx.root);
    const list = (hosts: string[]) => hosts.length > 1 ? hosts : hosts[0];
    const base = {
      project: basename(ctx.root),
      version: VERSION,
      model: rungs[0]?.model ?? null,
      // The default provider (the table's first) goes without saying.
      ...(provider === PROVIDERS[0] ? {} : { provider: provider.name }),
      [provider.hostKey]: list(config.hosts),
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
      hints.push(provider.status.down);
      const fields = err instanceof ToolError ? err.fields : {};
      throw new ToolError(errorLine(err), { ...base, ...fields, hint: hints.join("; ") });
    }
    if (typeof model.hint === "string") hints.push(model.hint);
    const { hint: _, ...facts } = model;
    return { status: "ok", ...base, ...facts, ...(hints.length ? { hint: hints.join("; ") } : {}) };
  },
});
