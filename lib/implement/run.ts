/**
 * implement_task (docs/ARCHITECTURE.md, "Delegation"): read the config and its ladder, check the
 * input and that its checks can start (`checkCannotStart`), give the task a record, check the first model, claim the task's files and begin the task
 * (record and backups first) where it will work — the tree, or a workspace beside other tasks
 * (`place.ts`) — then run each rung's attempts (`loop.ts`) until one passes, stops, or the ladder
 * ends, land it (`landing.ts`) and answer (`finish.ts`). A rung after the first starts from the
 * task's original files, told what the previous rung last tried. A run that an error ends puts the
 * files back as they were before the call (keeping what others changed meanwhile); a cancelled one
 * stays revertable. Another server's revert_task stops a running task through a request
 * (`lib/tasks/requests.ts`) that it looks for while it runs and before it lands.
 */
import { errorLine, ToolError } from "../errors.ts";
import { checkCannotStart } from "../checks.ts";
import { basename } from "../deps.ts";
import type { Config } from "../config.ts";
import { LadderError, ModelError, type ModelPool, type Rung, startRung } from "../model/mod.ts";
import {
  appendLog,
  type BeginResult,
  beginTask,
  cancelAsked,
  claimFiles,
  type HeldClaim,
  holdPending,
  landings,
  makeWorkspace,
  prepareStandby,
  provisionalRecord,
  readRecord,
  releaseWorkspace,
  syncLanded,
  taskDiff,
  updateTask,
  workspacePath,
} from "../tasks/mod.ts";
import type { EngineContext } from "./context.ts";
import type { ModelFacts } from "./attempt.ts";
import { earlierNote } from "./earlier.ts";
import { missingDirs, snapshot } from "./files.ts";
import { finishTask, type Outcome, stoppedTask } from "./finish.ts";
import { modelPool } from "./hosts.ts";
import { landTask } from "./landing.ts";
import { configRungs } from "./rungs.ts";
import { Loop, type RungEnd, type TaskRun } from "./loop.ts";
import { type Place, TreePlace, WorkspacePlace } from "./place.ts";
import { planTask, type TaskInput, type TaskPlan } from "./plan.ts";
import { errorVerdict, fitVerdict, type Tried, type Verdict } from "./verdict.ts";

/** How long a quick call to a model host may take, in seconds. */
const CONNECT_TIMEOUT_S = 10;

/** How often a running task looks for another server's request to stop it, in ms. */
const CANCEL_LOOK_MS = 250;

/**
 * The pool over one rung's hosts; request_timeout_s bounds every call, the quick ones too, and
 * first_token_timeout_s the wait for a chat's first chunk. Its chats count against the caller's
 * slots (every task of a server shares them).
 */
function _pool(rung: Rung, config: Config, ctx: EngineContext): ModelPool {
  return modelPool(rung, {
    requestTimeoutS: config.request_timeout_s,
    firstChunkTimeoutS: config.first_token_timeout_s,
    connectTimeoutS: Math.min(CONNECT_TIMEOUT_S, config.request_timeout_s),
  }, ctx.slots);
}

/** A rung's model, ready: its pool and facts. */
interface Ready {
  model: ModelPool;
  facts: ModelFacts;
}

/** The rungs of a call: all of them, the one it starts at, its model ready, the hosts skipped. */
interface Ladder {
  rungs: Rung[];
  first: number;
  ready: Ready;
  notices: string[];
}

/** Runs implement_task for validated `input`; never throws for expected failures. */
export async function implementTask(input: TaskInput, ctx: EngineContext): Promise<Verdict> {
  let plan: TaskPlan;
  try {
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
    plan = await planTask(ctx.root, input, config);
    // A check that cannot start is the setup's problem, not the model's: no record, no attempt.
    ctx.progress("checking that the checks can start");
    const setup = await checkCannotStart(ctx.root, plan.checks, {
      files: plan.files,
      configName: basename(config.path),
    });
    if (setup) throw new ToolError(setup.message);
    return await _accepted(input, plan, config, { rungs, first }, ctx);
  } finally {
    ctx.recorded?.(); // a run that ended before it had a record answers at once
  }
}

/**
 * The task is the server's from here: it has a record before anything slow (a model to check,
 * another task's files to wait for), held as running by its pending file (`requests.ts`).
 */
async function _accepted(
  input: TaskInput,
  plan: TaskPlan,
  config: Config,
  l: { rungs: Rung[]; first: number },
  outer: EngineContext,
): Promise<Verdict> {
  const { root } = outer;
  const { id } = plan;
  const pending = await holdPending(root, id);
  const fresh = await provisionalRecord(root, { id, spec: plan.spec, files: plan.files });
  outer.recorded?.();
  const stop = new AbortController();
  const ctx: EngineContext = { ...outer, signal: AbortSignal.any([outer.signal, stop.signal]) };
  const watch = setInterval(() => {
    cancelAsked(root, id).then((asked) => asked && stop.abort(), () => {});
  }, CANCEL_LOOK_MS);
  let begun = false;
  try {
    const verdict = await _prepared(input, plan, config, l, ctx, {
      pending,
      begin: () => begun = true,
    });
    if (fresh && !begun) await _unbegun(root, id, verdict.error ?? verdict.why);
    return verdict;
  } catch (err) {
    if (fresh && !begun) await _unbegun(root, id, errorLine(err));
    throw err;
  } finally {
    clearInterval(watch);
    ctx.rounds?.idle(id);
    await pending.release();
  }
}

/** Ends the record of a task that never began (no model, no claim): `error`, nothing changed. */
async function _unbegun(root: string, id: string, error: string): Promise<void> {
  const r = await readRecord(root, id).catch(() => undefined);
  if (!r?.provisional) return;
  await updateTask(root, id, {
    status: "error",
    error,
    finished: new Date().toISOString(),
  }).catch(() => {});
}

/** Checks the first rung's model, then claims the task's files and begins it. */
async function _prepared(
  input: TaskInput,
  planned: TaskPlan,
  config: Config,
  l: { rungs: Rung[]; first: number },
  ctx: EngineContext,
  o: { pending: { release(): Promise<void> }; begin: () => void },
): Promise<Verdict> {
  let plan = planned;
  const rung = l.rungs[l.first];
  // Which hosts were skipped goes to the task's log, which exists once the task has begun.
  const notices: string[] = [];
  let prepared: Ready;
  try {
    prepared = await _ready(rung, config, ctx, (m) => notices.push(m));
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
      if (await cancelAsked(ctx.root, plan.id)) throw new DOMException("cancelled", "AbortError");
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
      o.begin();
    },
  });
  await o.pending.release(); // the claim holds the task from here
  const ws = claim.claim.workspace;
  const standby = config.workspace_standby;
  // The copy is made while the model writes its first reply; writes and checks wait for it.
  const ready = ws
    ? makeWorkspace(ctx.root, { ws, running: claim.others, files: plan.files, signal: ctx.signal })
    : Promise.resolve();
  ready.catch(() => {}); // awaited where it matters; a failure ends the run there
  // A task alone in the tree: a standby copy is made meanwhile, so that a task started beside it
  // gets its workspace at once.
  if (!ws && standby) void prepareStandby(ctx.root);
  try {
    const ladder = { ...l, ready: prepared, notices };
    return await _claimed(plan, config, ladder, ctx, { claim, ready, begun: begun!, landedAt });
  } finally {
    await ready.catch(() => {});
    if (ws) await releaseWorkspace(ctx.root, ws, { keep: standby });
    await claim.release();
  }
}

/** Where the task works: the tree, or the workspace its claim names. */
async function _place(
  plan: TaskPlan,
  ctx: EngineContext,
  c: { claim: HeldClaim; ready: Promise<void>; begun: BeginResult },
): Promise<Place> {
  // The task's own files are the tree's until it writes: nobody else edits them.
  const files = await snapshot(ctx.root, plan.files);
  const o = {
    root: ctx.root,
    id: plan.id,
    files: plan.files,
    start: { files, dirs: await missingDirs(ctx.root, files) },
    run: c.begun.task.runs,
  };
  const ws = c.claim.claim.workspace;
  return ws ? new WorkspacePlace(o, ws, c.ready) : new TreePlace(o);
}

/** Runs the ladder in the claimed place, lands the end and answers. */
async function _claimed(
  plan: TaskPlan,
  config: Config,
  l: Ladder,
  ctx: EngineContext,
  c: { claim: HeldClaim; ready: Promise<void>; begun: BeginResult; landedAt: number },
): Promise<Verdict> {
  const started = performance.now();
  const place = await _place(plan, ctx, c);
  if (place.kind === "workspace") ctx.progress("making a workspace: other tasks are running");
  const task = _taskRun(plan, config, ctx, place, { ...c, rungs: l.rungs.length });
  if (place.kind === "workspace") {
    void task.log(`\n--- a workspace (${place.work}): other tasks were running`);
  }
  for (const n of l.notices) void task.log(`\n--- ${n}`);
  if (c.begun.continued) {
    task.note = c.begun.changesInTree
      ? "continued an earlier run of this task: its changes were still in the tree and were kept"
      : "continued an earlier run of this task (its original backups are kept)";
  }
  const climb: Climb = { tried: [], producer: l.rungs[l.first].model };
  const outcome = (): Outcome => ({ producer: climb.producer, tried: climb.tried, started });
  let end: RungEnd | undefined;
  try {
    end = await _climb(task, l, climb);
  } catch (err) {
    return await stoppedTask(task, err, outcome());
  }
  try {
    if (end) end = await landTask(task, end);
  } catch (err) {
    return await stoppedTask(task, err, outcome());
  }
  return await finishTask(task, end!, outcome());
}

/** What one call shares across its rungs, in `place`; its log appends in order. */
function _taskRun(
  plan: TaskPlan,
  config: Config,
  ctx: EngineContext,
  place: Place,
  c: { begun: BeginResult; landedAt: number; rungs: number },
): TaskRun {
  const { root } = ctx;
  // One append at a time, in order: the prompt is logged without waiting for it.
  let chain = Promise.resolve();
  const log = (text: string) =>
    chain = chain.catch(() => {}).then(() => appendLog(root, plan.id, text));
  const task: TaskRun = {
    plan,
    config,
    ctx,
    place,
    sync: async () => {
      await place.ready;
      const got = await syncLanded(root, place.work, task.seen, plan.id);
      task.seen = got.seq;
      for (const t of got.tasks) task.landedWith.add(t);
    },
    seen: c.landedAt,
    landedWith: new Set(),
    covered: new Set(),
    checkMs: 0,
    theirs: new Set(),
    log,
    run: c.begun.task.runs,
    rungs: c.rungs,
    attempts: 0,
    warnings: new Set(plan.warnings),
    truncated: new Set(),
  };
  return task;
}

/** The rungs tried so far, and the model whose edits the task holds. */
interface Climb {
  tried: Tried[];
  producer: string;
}

/**
 * Runs the rungs from the first until one does not fail (or ends in an error that does not
 * climb), or the ladder ends; how the last one ended (undefined when none could run).
 */
async function _climb(task: TaskRun, l: Ladder, climb: Climb): Promise<RungEnd | undefined> {
  const { log } = task;
  let end: RungEnd | undefined;
  let current: { entry: Tried; loop: Loop } | undefined;
  try {
    let earlier: string | undefined;
    for (let i = l.first; i < l.rungs.length; i++) {
      const rung = l.rungs[i];
      const ready = i === l.first ? l.ready : await _prepare(task, rung, i);
      if (!ready) {
        climb.tried.push({ model: rung.model, attempts: 0, status: "error" });
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
      climb.tried.push(entry);
      climb.producer = rung.model;
      current = { entry, loop };
      end = await loop.run();
      entry.attempts = loop.attempt;
      entry.status = end.status;
      const climbs = end.status === "failed" || (end.status === "error" && end.escalate);
      if (!climbs || i === l.rungs.length - 1) break;
      earlier = await _putBack(task, loop, end, i);
    }
  } catch (err) {
    if (current) current.entry.attempts = current.loop.attempt;
    throw err;
  }
  return end;
}

/**
 * Puts the files back after rung `i` failed, so the next starts from the original files; the
 * note that tells the next rung what this one last tried.
 */
async function _putBack(task: TaskRun, loop: Loop, end: RungEnd, i: number): Promise<string> {
  const { plan, place, log } = task;
  const diff = (await taskDiff(task.ctx.root, plan.id, place.work)).map((d) => d.text).join("");
  const earlier = earlierNote(loop.rung.model, loop.attempt, diff, end.failure ?? end.why);
  await log(`\n--- rung ${i + 1} failed (${end.why}); the files are put back for the next`);
  const undo = await place.undo();
  if (undo.left.length) {
    await log(
      `\n--- left as they are (changed meanwhile): ${
        undo.left.map((x) => `${x.path} (${x.reason})`).join(", ")
      }`,
    );
  }
  return earlier;
}

/** A rung's model made ready: its pool over the rung's hosts, and the model checked on them. */
async function _ready(
  rung: Rung,
  config: Config,
  ctx: EngineContext,
  notice: (message: string) => void,
): Promise<Ready> {
  ctx.progress(`checking model ${rung.model}`);
  const model = _pool(rung, config, ctx);
  const facts = await model.prepare(rung.model, { signal: ctx.signal, notice });
  return { model, facts };
}

/** A later rung's pool and facts, or undefined (logged) when its model cannot be used now. */
async function _prepare(task: TaskRun, rung: Rung, i: number): Promise<Ready | undefined> {
  const { ctx, log } = task;
  try {
    return await _ready(rung, task.config, ctx, (m) => void log(`\n--- ${m}`));
  } catch (err) {
    if (!(err instanceof ModelError) || err.kind === "cancelled" || ctx.signal.aborted) throw err;
    await log(`\n--- rung ${i + 1}: model ${rung.model} cannot be used: ${err.message}`);
    return undefined;
  }
}
