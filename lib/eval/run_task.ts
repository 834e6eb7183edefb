/**
 * One eval task in its temporary project, through the real implement_task path: the tool is
 * called by name through the MCP layer's dispatch (argument validation, the boundary, progress),
 * exactly as a client's `tools/call` reaches it, so eval measures what a frontier model gets.
 * The facts the verdict does not carry (tokens, refused replies) come from the task's record and
 * log in the temporary project.
 */
import { errorLine } from "../errors.ts";
import { hostPort, loadConfig } from "../config.ts";
import { PROVIDERS } from "../providers/mod.ts";
import { availableTools, createState, dispatch, type ToolEntry } from "../mcp/mod.ts";
import { readRecord, taskPaths } from "../tasks/mod.ts";
import { EVAL_ID_PREFIX, type EvalTask } from "./tasks.ts";

/** What one task came to. */
export interface TaskOutcome {
  task: string;
  language: string;
  kind: string;
  /** The model asked (the configured model or ladder, or the `--models` entry). */
  model: string;
  /** The model whose attempt produced the result, when the verdict names it (the ladder's). */
  answered_by?: string;
  /** implement_task's status: passed, failed, blocked or error. */
  status: string;
  passed: boolean;
  /** Model attempts made (all rungs). */
  attempts: number;
  first_try: boolean;
  /** Wall-clock seconds of the implement_task call. */
  seconds: number;
  prompt_tokens: number;
  reply_tokens: number;
  /** Replies the parser could not apply (no edits, a SEARCH that did not match, a bad path…). */
  refused: number;
  /** Passed: the caller's tokens for the call and verdict (docs/EVAL.md, "What delegating saves"). */
  call_tokens?: number;
  /** Passed: the tokens of reading the files and writing the change itself. */
  self_tokens?: number;
  why: string;
  /** The verdict as implement_task answered it. */
  verdict: Record<string, unknown>;
}

/**
 * The replies the parser refused: from the record's per-attempt `history` when it has one (each
 * entry's `decision` starts with "refused"), else from the log's "reply not applied" lines.
 */
export function countRefused(record: Record<string, unknown> | undefined, log: string): number {
  const history = record?.history;
  if (Array.isArray(history)) {
    return history.filter((h) => String(h?.decision ?? "").startsWith("refused")).length;
  }
  return log.match(/^--- attempt \d+: reply not applied:/gm)?.length ?? 0;
}

/**
 * The attempts a verdict reports over every rung: the sum of `tried` when a ladder ran more than
 * one rung, else `attempts`.
 */
export function totalAttempts(verdict: Record<string, unknown>): number | undefined {
  if (Array.isArray(verdict.tried)) {
    return verdict.tried.reduce(
      (n, t) => n + (typeof t?.attempts === "number" ? t.attempts : 0),
      0,
    );
  }
  return typeof verdict.attempts === "number" ? verdict.attempts : undefined;
}

/** A passed task's savings as its record keeps them (none from an older record). */
function _savings(record: Record<string, unknown> | undefined) {
  const { call_tokens, self_tokens } = record ?? {};
  return typeof call_tokens === "number" && typeof self_tokens === "number"
    ? { call_tokens, self_tokens }
    : {};
}

/** Runs `task` in the prepared project `root` as `model`; never throws for the task's failures. */
export async function runTask(
  task: EvalTask,
  root: string,
  model: string,
  env: {
    signal: AbortSignal;
    progress: (message: string) => void;
    /** localexec's tools (tools/names.ts `toolEntries`); implement_task is called from them. */
    tools: readonly ToolEntry[];
  },
): Promise<TaskOutcome> {
  const configPath = `${root}/.localexec.json`;
  const config = await loadConfig(configPath, PROVIDERS);
  const tools = availableTools(env.tools, {
    root,
    modelHosts: config.hosts.map(hostPort),
  }, { only: ["implement_task"] });
  const state = createState(root, configPath, tools);
  const id = `${EVAL_ID_PREFIX}${task.name}`;
  const started = performance.now();
  const result = await dispatch("implement_task", {
    task_id: id,
    spec: task.spec,
    files_to_edit: task.files_to_edit,
    ...(task.context_files ? { context_files: task.context_files } : {}),
    ...(task.symbols ? { symbols: task.symbols } : {}),
  }, { state, signal: env.signal, notify: (message) => env.progress(message) });
  const seconds = (performance.now() - started) / 1000;
  const first = result.content[0];
  let verdict: Record<string, unknown>;
  try {
    verdict = JSON.parse(first.type === "text" ? first.text : "{}");
  } catch (err) {
    verdict = { status: "error", error: `unreadable verdict: ${errorLine(err)}` };
  }
  const record = await readRecord(root, id).catch(() => undefined);
  const log = await Deno.readTextFile(taskPaths(root, id).log).catch(() => "");
  const status = String(verdict.status ?? "error");
  const attempts = totalAttempts(verdict) ?? record?.attempts ?? 0;
  return {
    task: task.name,
    language: task.language,
    kind: task.kind,
    model,
    ...(typeof verdict.model === "string" ? { answered_by: verdict.model } : {}),
    status,
    passed: status === "passed",
    attempts,
    first_try: status === "passed" && attempts === 1,
    seconds: Math.round(seconds * 100) / 100,
    prompt_tokens: record?.prompt_tokens ?? 0,
    reply_tokens: record?.reply_tokens ?? 0,
    refused: countRefused(record, log),
    ...(status === "passed" ? _savings(record) : {}),
    why: String(verdict.why ?? verdict.error ?? ""),
    verdict,
  };
}
