/**
 * implement_task (docs/ARCHITECTURE.md, "Delegation"): read the config, check the input and the model, take the project lock,
 * begin the task (record and backups first), then run its attempts (`loop.ts`). A run that an
 * error ends puts the tree back as it was before the call; a cancelled one stays revertable.
 */
import { errorLine, ToolError } from "../errors.ts";
import type { Config } from "../config.ts";
import { ModelError, type ModelPool } from "../model/mod.ts";
import {
  appendLog,
  beginTask,
  storeRel,
  updateTask,
  withProjectLock,
  writePatch,
} from "../tasks/mod.ts";
import type { EngineContext } from "./context.ts";
import type { ModelFacts } from "./attempt.ts";
import { missingDirs, snapshot } from "./files.ts";
import { modelPool } from "./hosts.ts";
import { Loop } from "./loop.ts";
import { planTask, type TaskInput, type TaskPlan } from "./plan.ts";
import { errorVerdict, fitVerdict, type Verdict } from "./verdict.ts";

/** How long a quick call to a model host may take, in seconds. */
const CONNECT_TIMEOUT_S = 10;

/** Runs implement_task for validated `input`; never throws for expected failures. */
export async function implementTask(input: TaskInput, ctx: EngineContext): Promise<Verdict> {
  const config = await ctx.config();
  if (!config.model) {
    throw new ToolError(
      config.exists
        ? 'no model configured: add "model" to .localexec.json, e.g. "qwen2.5-coder:7b"'
        : 'no .localexec.json: run `localexec init` (or write one with a "model") first',
    );
  }
  const plan = await planTask(ctx.root, input, config);
  // request_timeout_s bounds every call to the model hosts, the quick ones included.
  const model = modelPool(config, {
    requestTimeoutS: config.request_timeout_s,
    connectTimeoutS: Math.min(CONNECT_TIMEOUT_S, config.request_timeout_s),
  });
  ctx.progress(`checking model ${config.model}`);
  // Which hosts were skipped goes to the task's log, which exists once the task has begun.
  const notices: string[] = [];
  let facts: ModelFacts;
  try {
    facts = await model.prepare(config.model, {
      signal: ctx.signal,
      notice: (m) => notices.push(m),
    });
  } catch (err) {
    if (err instanceof ModelError) return fitVerdict(errorVerdict(err.message));
    throw err;
  }
  return await withProjectLock(ctx.root, {
    timeoutS: config.lock_timeout_s,
    signal: ctx.signal,
    onWait: (m) => ctx.progress(m),
    tool: "implement_task",
    taskId: plan.id,
  }, () => _locked(plan, config, { facts, model, notices }, ctx));
}

async function _locked(
  plan: TaskPlan,
  config: Config,
  m: { facts: ModelFacts; model: ModelPool; notices: string[] },
  ctx: EngineContext,
): Promise<Verdict> {
  const { root } = ctx;
  const begun = await beginTask(root, {
    id: plan.id,
    spec: plan.spec,
    files: plan.files,
    contextFiles: plan.context.map((c) => c.rel),
    checks: plan.checks.map((c) => c.name),
  });
  // One append at a time, in order: the prompt is logged without waiting for it.
  let chain = Promise.resolve();
  const log = (text: string) =>
    chain = chain.catch(() => {}).then(() => appendLog(root, plan.id, text));
  const start = await snapshot(root, plan.files);
  const startDirs = await missingDirs(root, start);
  for (const n of m.notices) void log(`\n--- ${n}`);
  const loop = new Loop(
    plan,
    config,
    m.facts,
    m.model,
    ctx,
    { files: start, dirs: startDirs },
    log,
  );
  if (begun.continued) {
    loop.note = begun.changesInTree
      ? "continued an earlier run of this task: its changes were still in the tree and were kept"
      : "continued an earlier run of this task (its original backups are kept)";
  }
  for (const w of plan.warnings) loop.warnings.add(w);
  try {
    return await loop.run();
  } catch (err) {
    return await _stopped(loop, err);
  }
}

/** The verdict for a run that an error or a cancellation ended. */
async function _stopped(loop: Loop, err: unknown): Promise<Verdict> {
  const { root, signal } = loop.ctx;
  const { id } = loop.plan;
  const cancelled = signal.aborted || (err instanceof ModelError && err.kind === "cancelled");
  const message = cancelled ? "cancelled" : errorLine(err);
  await loop.log(`\n--- stopped: ${message}`).catch(() => {});
  // "error" leaves the tree as it was before this call; a cancelled run keeps its edits, which
  // revert_task undoes.
  if (!cancelled) await loop.restoreStart().catch(() => {});
  const summary = await writePatch(root, id).catch(() => undefined);
  await updateTask(root, id, {
    status: "error",
    error: message,
    finished: new Date().toISOString(),
    attempts: loop.attempt,
  }).catch(() => {});
  const notes = [
    loop.note,
    cancelled && summary?.files.length
      ? "cancelled with edits in the tree; revert_task undoes them"
      : undefined,
  ].filter(Boolean);
  const { status, why, error } = errorVerdict(message, { escalate: false });
  return fitVerdict({
    status,
    attempts: loop.attempt,
    log: storeRel(`${id}.log`),
    escalate: false,
    why,
    error,
    ...(notes.length ? { note: notes.join("; ") } : {}),
  });
}
