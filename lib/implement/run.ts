/**
 * implement_task (docs/ARCHITECTURE.md, "Delegation"): read the config and its ladder, check the
 * input and the first model, take the project lock, begin the task (record and backups first),
 * then run each rung's attempts (`loop.ts`) until one passes, stops, or the ladder ends. A rung
 * after the first starts from the task's original files, told what the previous rung last tried.
 * A run that an error ends puts the tree back as it was before the call; a cancelled one stays
 * revertable.
 */
import { errorLine, ToolError } from "../errors.ts";
import type { Config } from "../config.ts";
import { LadderError, ModelError, type ModelPool, type Rung, startRung } from "../model/mod.ts";
import {
  appendLog,
  applyFiles,
  type BeginResult,
  beginTask,
  claimFiles,
  landings,
  makeWorkspace,
  noteLanded,
  removeWorkspace,
  storeRel,
  syncLanded,
  taskDiff,
  taskKind,
  taskPaths,
  updateTask,
  withProjectLock,
  workspacePath,
  writePatch,
  writeWork,
} from "../tasks/mod.ts";
import { runChecks } from "../checks.ts";
import { sameBytes } from "../text.ts";
import type { EngineContext } from "./context.ts";
import type { ModelFacts } from "./attempt.ts";
import { earlierNote } from "./earlier.ts";
import { missingDirs, snapshot } from "./files.ts";
import { modelPool } from "./hosts.ts";
import { configRungs } from "./rungs.ts";
import { Loop, restoreStart, type RungEnd, sameAsStart, type TaskRun } from "./loop.ts";
import { planTask, type TaskInput, type TaskPlan } from "./plan.ts";
import { errorVerdict, fitVerdict, type Tried, type Verdict } from "./verdict.ts";

/** How long a quick call to a model host may take, in seconds. */
const CONNECT_TIMEOUT_S = 10;

/**
 * The pool over one rung's hosts; request_timeout_s bounds every call, the quick ones too. Its
 * chats count against the caller's slots (every task of a server shares them).
 */
function _pool(rung: Rung, config: Config, ctx: EngineContext): ModelPool {
  return modelPool(rung, {
    requestTimeoutS: config.request_timeout_s,
    connectTimeoutS: Math.min(CONNECT_TIMEOUT_S, config.request_timeout_s),
  }, ctx.slots);
}

/** A rung's model, ready: its pool and facts. */
interface Ready {
  model: ModelPool;
  facts: ModelFacts;
}

/** Runs implement_task for validated `input`; never throws for expected failures. */
export async function implementTask(input: TaskInput, ctx: EngineContext): Promise<Verdict> {
  const config = await ctx.config();
  const rungs = configRungs(config);
  if (!rungs.length) {
    throw new ToolError(
      config.exists
        ? 'no model configured: add "model" to .localexec.json, e.g. "qwen2.5-coder:7b"'
        : 'no .localexec.json: run `localexec init` (or write one with a "model") first',
    );
  }
  let first: number;
  try {
    first = startRung(rungs, input.model);
  } catch (err) {
    if (err instanceof LadderError) throw new ToolError(err.message);
    throw err;
  }
  let plan = await planTask(ctx.root, input, config);
  const rung = rungs[first];
  const model = _pool(rung, config, ctx);
  ctx.progress(`checking model ${rung.model}`);
  // Which hosts were skipped goes to the task's log, which exists once the task has begun.
  const notices: string[] = [];
  let facts: ModelFacts;
  try {
    facts = await model.prepare(rung.model, {
      signal: ctx.signal,
      notice: (m) => notices.push(m),
    });
  } catch (err) {
    if (err instanceof ModelError) {
      const { status, attempts, escalate, why, error } = errorVerdict(err.message);
      return fitVerdict({ status, attempts, model: rung.model, escalate, why, error });
    }
    throw err;
  }
  let begun: BeginResult | undefined;
  let landedAt = 0;
  const claim = await claimFiles(ctx.root, {
    taskId: plan.id,
    files: plan.files,
    timeoutS: config.lock_timeout_s,
    signal: ctx.signal,
    onWait: (m) => ctx.progress(m),
    workspaceAt: (id) => workspacePath(ctx.root, id),
    // One hold of the project lock claims the files and begins the task.
    whileLocked: async (c, waited) => {
      // A task that waited for another sees its result: its context is read again.
      if (waited) plan = await planTask(ctx.root, input, config);
      // A workspace starts from the landings so far; a task in the tree reads them before checks.
      if (c.mode === "workspace") landedAt = (await landings(ctx.root)).length;
      begun = await beginTask(ctx.root, {
        id: plan.id,
        spec: plan.spec,
        files: plan.files,
        contextFiles: plan.context.map((c) => c.rel),
        checks: plan.checks.map((c) => c.name),
      });
    },
  });
  const ws = claim.claim.workspace;
  // The copy is made while the model writes its first reply; writes and checks wait for it.
  const ready = ws ? makeWorkspace(ctx.root, ws, claim.others, ctx.signal) : Promise.resolve();
  ready.catch(() => {}); // awaited where it matters; a failure ends the run there
  try {
    const l = { rungs, first, ready: { facts, model }, notices };
    return await _claimed(plan, config, l, ctx, {
      ws,
      ready,
      begun: begun!,
      landedAt,
    });
  } finally {
    await ready.catch(() => {});
    if (ws) await removeWorkspace(ws);
    await claim.release();
  }
}

async function _claimed(
  plan: TaskPlan,
  config: Config,
  l: { rungs: Rung[]; first: number; ready: Ready; notices: string[] },
  ctx: EngineContext,
  /** The workspace, if any; the task as begun; the landings the tree it starts from holds. */
  c: { ws?: string; ready: Promise<void>; begun: BeginResult; landedAt: number },
): Promise<Verdict> {
  const { root } = ctx;
  const { ws, begun, landedAt } = c;
  const started = performance.now();
  if (ws) ctx.progress("making a workspace: other tasks are running");
  const work = ws ?? root;
  let wroteWs = false;
  // One append at a time, in order: the prompt is logged without waiting for it.
  let chain = Promise.resolve();
  const log = (text: string) =>
    chain = chain.catch(() => {}).then(() => appendLog(root, plan.id, text));
  // The task's own files are the tree's until it writes: nobody else edits them.
  const files = await snapshot(root, plan.files);
  const task: TaskRun = {
    plan,
    config,
    ctx,
    start: { files, dirs: await missingDirs(root, files) },
    work,
    ready: c.ready,
    read: () => snapshot(ws && wroteWs ? ws : root, plan.files),
    write: ws
      ? async (edits) => {
        await c.ready;
        wroteWs = true;
        await writeWork(ws, edits);
      }
      : async (edits) => {
        if ((await applyFiles(root, plan.id, edits)).length) task.wrote = true;
      },
    wrote: false,
    sync: async () => {
      await c.ready;
      const got = await syncLanded(root, work, task.seen, plan.id);
      task.seen = got.seq;
      for (const t of got.tasks) task.landedWith.add(t);
    },
    seen: landedAt,
    landedWith: new Set(),
    log,
    run: begun.task.runs,
    rungs: l.rungs.length,
    attempts: 0,
    warnings: new Set(plan.warnings),
    truncated: new Set(),
  };
  if (ws) void log(`\n--- a workspace (${ws}): other tasks were running`);
  for (const n of l.notices) void log(`\n--- ${n}`);
  if (begun.continued) {
    task.note = begun.changesInTree
      ? "continued an earlier run of this task: its changes were still in the tree and were kept"
      : "continued an earlier run of this task (its original backups are kept)";
  }
  const tried: Tried[] = [];
  let producer = l.rungs[l.first].model;
  let end: RungEnd | undefined;
  let current: { entry: Tried; loop: Loop } | undefined;
  try {
    let earlier: string | undefined;
    for (let i = l.first; i < l.rungs.length; i++) {
      const rung = l.rungs[i];
      const ready = i === l.first ? l.ready : await _prepare(task, rung, i);
      if (!ready) {
        tried.push({ model: rung.model, attempts: 0, status: "error" });
        continue;
      }
      if (l.rungs.length > 1) {
        await log(
          `\n--- rung ${
            i + 1
          }/${l.rungs.length}: model ${rung.model} at ${ready.model.current.url}${
            earlier ? ", from the task's original files" : ""
          }`,
        );
      }
      const loop = new Loop(task, rung, i, ready.facts, ready.model, earlier);
      const entry: Tried = { model: rung.model, attempts: 0, status: "error" };
      tried.push(entry);
      producer = rung.model;
      current = { entry, loop };
      end = await loop.run();
      entry.attempts = loop.attempt;
      entry.status = end.status;
      const climb = end.status === "failed" || (end.status === "error" && end.escalate);
      if (!climb || i === l.rungs.length - 1) break;
      // The next rung starts from the original files, told what this one last tried.
      const diff = (await taskDiff(root, plan.id, work)).map((d) => d.text).join("");
      earlier = earlierNote(rung.model, loop.attempt, diff, end.failure ?? end.why);
      await log(`\n--- rung ${i + 1} failed (${end.why}); the files are put back for the next`);
      await restoreStart(task);
    }
  } catch (err) {
    if (current) current.entry.attempts = current.loop.attempt;
    return await _stopped(task, err, { producer, tried, started });
  }
  try {
    if (end) end = await _land(task, end);
  } catch (err) {
    return await _stopped(task, err, { producer, tried, started });
  }
  return await _finish(task, end!, { producer, tried, started });
}

/**
 * Lands the task: under the project lock, its final files go into the tree (a workspace's) and
 * the landing is noted. A task that would pass, but whose checks ran before another task landed,
 * first takes that task's change in and runs its checks again; failing then, it is `failed`.
 */
async function _land(task: TaskRun, end: RungEnd): Promise<RungEnd> {
  await task.ready;
  if (task.work === task.ctx.root) return await _landInTree(task, end);
  const { root } = task.ctx;
  const { plan } = task;
  const brief = { timeoutS: task.config.lock_timeout_s, tool: "implement_task", taskId: plan.id };
  for (let round = 0;; round++) {
    const settled = await withProjectLock(root, brief, async () => {
      const fresh = (await landings(root)).filter((l) =>
        l.seq > task.seen && l.task_id !== plan.id
      );
      // Checks ran before others landed: check again first (a few rounds, then under the lock).
      if (end.status === "passed" && fresh.length && round < 3) return false;
      if (end.status === "passed" && fresh.length) end = await _recheck(task, end);
      const now = await snapshot(task.work, plan.files);
      const was = await snapshot(root, plan.files);
      const edits = new Map([...now].filter(([rel, b]) => !sameBytes(was.get(rel) ?? null, b)));
      if (edits.size) await applyFiles(root, plan.id, edits);
      if (!(await sameAsStart(task))) await noteLanded(root, plan.id, plan.files);
      return true;
    });
    if (settled) return end;
    end = await _recheck(task, end);
  }
}

/**
 * A task in the tree has landed already; it takes no lock. It notes its landing first, then
 * checks again when another task landed between its checks and that note. Appends are ordered, so
 * of two tasks the one noted later always sees the other: it checks again (a workspace task
 * landing after this note does, under the lock).
 */
async function _landInTree(task: TaskRun, end: RungEnd): Promise<RungEnd> {
  const { root } = task.ctx;
  const { plan } = task;
  const mine = task.wrote ? await noteLanded(root, plan.id, plan.files) : "";
  const all = await landings(root);
  const upto = all.find((l) => l.note === mine)?.seq ?? all.length + 1;
  const fresh = all.some((l) => l.seq > task.seen && l.seq < upto && l.task_id !== plan.id);
  return fresh ? await _recheck(task, end) : end;
}

/** Runs a passing task's checks again with what landed since; `failed` when they fail now. */
async function _recheck(task: TaskRun, end: RungEnd): Promise<RungEnd> {
  if (end.status !== "passed") return end;
  const { plan, ctx } = task;
  const before = new Set(task.landedWith);
  await task.sync();
  const others = [...task.landedWith].filter((t) => !before.has(t));
  ctx.progress(`checking again with ${others.join(", ")}, which landed meanwhile`);
  await task.log(`\n--- checks again: ${others.join(", ")} landed since they last ran`);
  const checks = await runChecks(task.work, plan.checks, {
    files: plan.files,
    signal: ctx.signal,
    logPath: taskPaths(ctx.root, plan.id).log,
    onProgress: (m) => ctx.progress(m),
  });
  if (!checks.failed_check) return end;
  return {
    status: "failed",
    escalate: false,
    failed_check: `${checks.failed_check}: ${checks.failed_output ?? ""}`.trim(),
    why: `passed alone, but check ${checks.failed_check} fails together with task ${
      others.join(", ")
    }, which landed meanwhile`,
    inTree: true,
  };
}

/** A later rung's pool and facts, or undefined (logged) when its model cannot be used now. */
async function _prepare(task: TaskRun, rung: Rung, i: number): Promise<Ready | undefined> {
  const { ctx, log } = task;
  ctx.progress(`checking model ${rung.model}`);
  const model = _pool(rung, task.config, ctx);
  try {
    const facts = await model.prepare(rung.model, {
      signal: ctx.signal,
      notice: (m) => void log(`\n--- ${m}`),
    });
    return { model, facts };
  } catch (err) {
    if (!(err instanceof ModelError) || err.kind === "cancelled" || ctx.signal.aborted) throw err;
    await log(`\n--- rung ${i + 1}: model ${rung.model} cannot be used: ${err.message}`);
    return undefined;
  }
}

/** Who produced the result, which rungs ran, and when the run began. */
interface Outcome {
  producer: string;
  tried: Tried[];
  started: number;
}

/** What the record keeps of a run's end besides its status. */
function _recordEnd(task: TaskRun, o: Outcome, escalate: boolean) {
  return {
    attempts: task.attempts,
    finished: new Date().toISOString(),
    model: o.producer,
    kind: taskKind(task.plan.files),
    secs: Math.round(performance.now() - o.started) / 1000,
    escalate,
    tried: o.tried.length > 1 ? o.tried : undefined,
  };
}

/** Writes the patch and the record's end, and makes the verdict. */
async function _finish(task: TaskRun, end: RungEnd, o: Outcome): Promise<Verdict> {
  const { root } = task.ctx;
  const { id } = task.plan;
  const summary = await writePatch(root, id);
  const notes = [task.note];
  if (end.status === "failed") {
    notes.push(
      !(await sameAsStart(task))
        ? "the last attempt's edits are still in the tree: fix them, or call revert_task"
        : "no edit was applied; the tree is as it was",
    );
  }
  const why = end.escalate && o.tried.length > 1
    ? `${end.why} (the last model on the ladder)`
    : end.why;
  await updateTask(root, id, {
    status: end.status,
    why,
    ...(end.error !== undefined ? { error: end.error } : {}),
    ..._recordEnd(task, o, end.escalate),
  });
  const changed = summary.files.length > 0;
  const note = notes.filter(Boolean).join("; ");
  // The order of the example in docs/reference/localexec-tool-reference.txt, model and tried after
  // attempts.
  return fitVerdict({
    status: end.status,
    attempts: task.attempts,
    model: o.producer,
    ...(o.tried.length > 1 ? { tried: o.tried } : {}),
    ...(changed ? { files: summary.files, stat: summary.stat, patch: summary.patch } : {}),
    log: storeRel(`${id}.log`),
    escalate: end.escalate,
    why,
    ...(end.question !== undefined ? { question: end.question } : {}),
    ...(end.error !== undefined ? { error: end.error } : {}),
    ...(end.failed_check !== undefined ? { failed_check: end.failed_check } : {}),
    ...(task.warnings.size ? { warnings: [...task.warnings] } : {}),
    ...(task.truncated.size ? { truncated: [...task.truncated] } : {}),
    ...(note ? { note } : {}),
  });
}

/** The verdict for a run that an error or a cancellation ended. */
async function _stopped(task: TaskRun, err: unknown, o: Outcome): Promise<Verdict> {
  const { root, signal } = task.ctx;
  const { id } = task.plan;
  const cancelled = signal.aborted || (err instanceof ModelError && err.kind === "cancelled");
  const message = cancelled ? "cancelled" : errorLine(err);
  await task.log(`\n--- stopped: ${message}`).catch(() => {});
  // "error" leaves the tree as it was before this call; a cancelled run keeps its edits, which
  // revert_task undoes.
  if (!cancelled) await restoreStart(task).catch(() => {});
  const summary = await writePatch(root, id).catch(() => undefined);
  await updateTask(root, id, {
    status: "error",
    error: message,
    ..._recordEnd(task, o, false),
  }).catch((e) => task.ctx.log?.(`task ${id}: the record was not updated: ${errorLine(e)}`));
  const notes = [
    task.note,
    cancelled && summary?.files.length
      ? "cancelled with edits in the tree; revert_task undoes them"
      : undefined,
  ].filter(Boolean);
  const { status, why, error } = errorVerdict(message, { escalate: false });
  return fitVerdict({
    status,
    attempts: task.attempts,
    model: o.producer,
    ...(o.tried.length > 1 ? { tried: o.tried } : {}),
    log: storeRel(`${id}.log`),
    escalate: false,
    why,
    error,
    ...(notes.length ? { note: notes.join("; ") } : {}),
  });
}
