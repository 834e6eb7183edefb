/**
 * Landing a task (docs/ARCHITECTURE.md, "Parallel tasks" and "Your edits while a task runs"): only
 * `passed` and `failed` land; `blocked`, `conflict` and `error` never do. A task in the tree has
 * landed already (each attempt's write was conditional); it notes its landing. A task in a
 * workspace lands under the project lock through `landChanges`: a file it did not change is never
 * written, one the user changed meanwhile gets the task's change merged onto the user's version —
 * and a `passed` task checks the merge again — and one that does not merge makes the task a
 * `conflict` (a `failed` one lands nothing and says so). A task about to answer `passed` whose
 * checks ran before another task landed checks again with it first, together with the other tasks
 * of its server that land at the same time (`rounds.ts`).
 */
import { type ChecksRun, runChecks } from "../checks.ts";
import type { Check } from "../config.ts";
import {
  cancelAsked,
  type Conflict,
  landChanges,
  type Landing,
  landings,
  noteLanded,
  taskPaths,
  withProjectLock,
  writeWork,
} from "../tasks/mod.ts";
import { sameBytes } from "../text.ts";
import { lookAt, snapshot } from "./files.ts";
import { conflictEnd, type RungEnd, type TaskRun } from "./loop.ts";

/** Rounds of checking again outside the lock before a task checks again under it. */
const OUTSIDE_ROUNDS = 3;

/** The shortest and the longest a round's first task waits for the others, in ms. */
const ROUND_MIN_MS = 500;
const ROUND_MAX_MS = 10_000;

/** Lands `task`, which ended as `end`; answers how it ends now. */
export async function landTask(task: TaskRun, end: RungEnd): Promise<RungEnd> {
  try {
    if (end.status !== "passed" && end.status !== "failed") return end;
    await task.place.ready;
    const landed = task.place.kind === "tree"
      ? await _landInTree(task, end)
      : await _landWorkspace(task, end);
    return await _withMates(task, landed);
  } finally {
    task.round?.landed(false); // a task that did not land (or already said so)
    task.ctx.rounds?.idle(task.plan.id);
  }
}

/**
 * A task whose checks ran again in a round with other tasks holds `passed` only when they all
 * landed: it says it landed, waits for the others to say, and checks again alone with what the
 * tree holds when one of them did not (it conflicted, or was cancelled).
 */
async function _withMates(task: TaskRun, end: RungEnd): Promise<RungEnd> {
  const round = task.round;
  if (!round) return end;
  round.landed(end.status === "passed" || (end.status === "failed" && !end.notLanded?.length));
  if (end.status !== "passed" || await round.mates()) return end;
  const missing = round.with.join(", ");
  await task.log(`\n--- checked together with ${missing}, which did not all land: checks again`);
  task.ctx.progress(`checking again: ${missing} did not land`);
  await task.sync();
  const checks = await _run(task, task.plan.checks, task.plan.files, task.place.work);
  return _failedNow(
    end,
    checks,
    `without task ${missing}, whose change it was checked with but did not land`,
  );
}

/** Landings by other tasks after the task's checks ran (before `upto`), not checked with it. */
function _fresh(task: TaskRun, all: Landing[], upto = Infinity): Landing[] {
  return all.filter((l) =>
    l.seq > task.seen && l.seq < upto && l.task_id !== task.plan.id && !task.covered.has(l.task_id)
  );
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
  const mine = (await task.place.unchanged()) ? "" : await noteLanded(root, plan.id, plan.files);
  if (end.status !== "passed") return end;
  const all = await landings(root);
  const upto = all.find((l) => l.note === mine && mine)?.seq ?? all.length + 1;
  const fresh = _fresh(task, all, upto);
  return fresh.length ? await _recheck(task, end, fresh) : end;
}

/** A workspace task's landing under the project lock: what it lands, or why it does not. */
type _Settled =
  | { recheck: Landing[] }
  | { conflicts: Conflict[] }
  | { landed: string[]; merged: string[]; now: Map<string, Uint8Array | null> };

/** Lands a workspace task's files (see the module's doc). */
async function _landWorkspace(task: TaskRun, end: RungEnd): Promise<RungEnd> {
  const { root } = task.ctx;
  const { plan } = task;
  const brief = { timeoutS: task.config.lock_timeout_s, tool: "implement_task", taskId: plan.id };
  for (let round = 0;; round++) {
    // Landings are appended in order: what landed since the checks is seen without the lock.
    if (end.status === "passed" && round < OUTSIDE_ROUNDS) {
      const fresh = _fresh(task, await landings(root));
      if (fresh.length) {
        end = await _recheck(task, end, fresh);
        continue;
      }
    }
    const settled: _Settled = await withProjectLock(root, brief, async () => {
      // A revert asked for by another server stops the task before anything lands.
      if (await cancelAsked(root, plan.id)) throw new DOMException("cancelled", "AbortError");
      const fresh = _fresh(task, await landings(root));
      if (end.status === "passed" && fresh.length && round < OUTSIDE_ROUNDS) {
        return { recheck: fresh };
      }
      if (end.status === "passed" && fresh.length) end = await _recheckAlone(task, end, fresh);
      const out = await landChanges(root, plan.id, await task.place.changes());
      if ("conflicts" in out) return out;
      if (out.landed.length) await noteLanded(root, plan.id, out.landed);
      return out;
    });
    if ("recheck" in settled) {
      end = await _recheck(task, end, settled.recheck);
      continue;
    }
    if ("conflicts" in settled) {
      const ours = await snapshot(task.place.work, plan.files);
      if (end.status === "passed") return conflictEnd(settled.conflicts, ours);
      return { ...end, inTree: false, notLanded: settled.conflicts, ours };
    }
    if (end.status === "failed") end = { ...end, inTree: settled.landed.length > 0 };
    // What the tree holds of the task's files now and the workspace's checks did not see: a merge
    // with someone else's edit, or their edit of a file the task did not change. The workspace
    // takes it, and a passing task checks it.
    const theirs = await _notChecked(task);
    if (!theirs.size) return end;
    await task.place.landed(theirs);
    for (const f of theirs.keys()) task.theirs.add(f);
    return end.status === "passed" ? await _checkMerged(task, end, [...theirs.keys()]) : end;
  }
}

/** The task's files whose tree content differs from its workspace's, with the tree's content. */
async function _notChecked(task: TaskRun): Promise<Map<string, Uint8Array | null>> {
  const { plan, ctx } = task;
  const tree = await lookAt(ctx.root, plan.files);
  const work = await lookAt(task.place.work, plan.files);
  const out = new Map<string, Uint8Array | null>();
  for (const [path, bytes] of tree) {
    if (!sameBytes(bytes, work.get(path) ?? null)) out.set(path, bytes);
  }
  return out;
}

/** Runs a landed task's checks on its change together with someone else's edit of `files`. */
async function _checkMerged(task: TaskRun, end: RungEnd, files: string[]): Promise<RungEnd> {
  const { plan, ctx } = task;
  ctx.progress(`${files.join(", ")} changed while the task ran: checking again with that`);
  await task.log(
    `\n--- landed; ${files.join(", ")} hold edits made meanwhile, which its checks had not seen; ` +
      "checks again",
  );
  const checks = await _run(task, plan.checks, plan.files, task.place.work);
  return _failedNow(
    end,
    checks,
    `with the edit made meanwhile to ${files.join(", ")}`,
  );
}

/** `end`, or `failed` when `checks` failed: "passed alone, but check X fails `how`". */
function _failedNow(end: RungEnd, checks: ChecksRun, how: string): RungEnd {
  if (!checks.failed_check) return end;
  return {
    status: "failed",
    escalate: false,
    failed_check: `${checks.failed_check}: ${checks.failed_output ?? ""}`.trim(),
    why: `passed alone, but check ${checks.failed_check} fails ${how}`,
    inTree: true,
  };
}

/** Runs `checks` over `files` in `work`, logging to the task's log. */
async function _run(
  task: TaskRun,
  checks: readonly Check[],
  files: readonly string[],
  work: string,
) {
  const { ctx, plan } = task;
  return await runChecks(work, checks, {
    files,
    signal: ctx.signal,
    logPath: taskPaths(ctx.root, plan.id).log,
    onProgress: (m) => ctx.progress(m),
  });
}

/**
 * How long the first task of a round waits for the others still busy: about two runs of its own
 * checks (theirs started about when its did; a loaded machine stretches them alike).
 */
function _window(task: TaskRun): number {
  return Math.min(ROUND_MAX_MS, Math.max(ROUND_MIN_MS, task.checkMs * 2));
}

/**
 * Checks a passing task again with what landed since its checks ran: in a round with the other
 * tasks of its server landing now, or alone (without rounds, or when the round's checks failed,
 * to tell which task they fail with).
 */
async function _recheck(task: TaskRun, end: RungEnd, fresh: Landing[]): Promise<RungEnd> {
  if (end.status !== "passed") return end;
  const rounds = task.ctx.rounds;
  if (rounds) {
    const got = await rounds.join(task.plan.id, task, {
      windowMs: _window(task),
      signal: task.ctx.signal,
      lead: (members) => _leadRound(members as TaskRun[]),
    });
    if (got.passed) {
      task.round = got;
      return end;
    }
  }
  return await _recheckAlone(task, end, fresh);
}

/**
 * A round's checks, run once by its first workspace member: everything landed is taken in, the
 * other members' files are written into its workspace, and the members' checks run over all
 * their files. When they pass, every member counts the others as checked with it.
 */
async function _leadRound(all: TaskRun[]): Promise<boolean> {
  // A member cancelled while it waited is no longer landing: its files are left out.
  const members = all.filter((m) => !m.ctx.signal.aborted);
  if (!members.length) return false;
  const leader = members.find((m) => m.place.kind === "workspace") ?? members[0];
  const others = members.filter((m) => m !== leader);
  if (leader.place.kind === "tree" && others.length) return false; // never: one task in the tree
  await leader.sync();
  const extra = new Map<string, Uint8Array | null>();
  for (const m of others) {
    // A task in the tree noted its landing before it joined: the sync took its files in.
    for (const c of await m.place.changes()) extra.set(c.path, c.ours);
  }
  if (extra.size) await writeWork(leader.place.work, extra);
  const checks = new Map<string, Check>();
  const files = new Set<string>();
  for (const m of members) {
    for (const c of m.plan.checks) checks.set(c.name, c);
    for (const f of m.plan.files) files.add(f);
  }
  const ids = members.map((m) => m.plan.id);
  leader.ctx.progress(`checking again with what landed, together with ${ids.join(", ")}`);
  const run = await _run(leader, [...checks.values()], [...files], leader.place.work);
  const verdict = run.failed_check ? `failed (${run.failed_check}): each checks alone` : "passed";
  for (const m of members) {
    await m.log(`\n--- checked again together with ${ids.join(", ")}: ${verdict}`);
  }
  // The others' files have not landed (and some may not): the leader's workspace holds what the
  // tree does again; what they land comes in through the sync, like any landing.
  if (extra.size) {
    await writeWork(leader.place.work, await snapshot(leader.ctx.root, [...extra.keys()]));
  }
  if (run.failed_check) return false;
  for (const m of members) {
    m.seen = Math.max(m.seen, leader.seen);
    for (const id of ids) if (id !== m.plan.id) m.covered.add(id);
  }
  return true;
}

/** Runs a passing task's checks again with what landed since; `failed` when they fail now. */
async function _recheckAlone(task: TaskRun, end: RungEnd, fresh: Landing[]): Promise<RungEnd> {
  if (end.status !== "passed") return end;
  const { plan, ctx } = task;
  await task.sync();
  const others = [...new Set(fresh.map((l) => l.task_id))];
  ctx.progress(`checking again with ${others.join(", ")}, which landed meanwhile`);
  await task.log(`\n--- checks again: ${others.join(", ")} landed since they last ran`);
  const checks = await _run(task, plan.checks, plan.files, task.place.work);
  return _failedNow(end, checks, `together with task ${others.join(", ")}, which landed meanwhile`);
}
