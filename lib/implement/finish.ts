/**
 * The end of an implement_task run: its patch, the record's end and the verdict, for a run that
 * ended (`finishTask`) or that an error or a cancel stopped (`stoppedTask`).
 */
import { errorLine } from "../errors.ts";
import { ModelError } from "../model/mod.ts";
import { storeRel, taskKind, taskPaths, updateTask, writePatch } from "../tasks/mod.ts";
import { texts } from "./files.ts";
import type { RungEnd, TaskRun } from "./loop.ts";
import { type Savings, savings } from "./savings.ts";
import { errorVerdict, fitVerdict, type Tried, type Verdict } from "./verdict.ts";

/** Who produced the result, which rungs ran, and when the run began. */
export interface Outcome {
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

/** The `note` parts that say what became of edits made while the task ran. */
function _theirs(task: TaskRun): string | undefined {
  if (!task.theirs.size) return undefined;
  return `${[...task.theirs].join(", ")} changed while the task ran: its edits were merged with ` +
    "that version and checked on it, nothing of it was lost";
}

/** The note of a `failed` end: what of the last attempt is in the tree. */
async function _failedNote(task: TaskRun, end: RungEnd): Promise<string> {
  if (end.notLanded?.length) {
    return `its last attempt did not land: ${
      end.notLanded.map((c) => c.path).join(", ")
    } changed meanwhile and does not merge with it (your version is kept; show_patch has the ` +
      "task's)";
  }
  const inTree = end.inTree ?? !(await task.place.unchanged());
  return inTree
    ? "the last attempt's edits are still in the tree: fix them, or call revert_task"
    : "no edit was applied; the tree is as it was";
}

/** The note of a `conflict` end: where the task's change is, and what is in the tree. */
async function _conflictNote(task: TaskRun): Promise<string> {
  const earlier = task.place.kind === "tree" && !(await task.place.unchanged());
  return "show_patch has the task's change (against the files as they were before it began: " +
    "`git apply -3` merges it by hand)" +
    (earlier
      ? "; the task's earlier attempts are still in the tree under your edit (revert_task takes " +
        "them out and keeps your edit)"
      : "");
}

/** Writes the patch and the record's end, and makes the verdict. */
export async function finishTask(task: TaskRun, end: RungEnd, o: Outcome): Promise<Verdict> {
  const { root } = task.ctx;
  const { id } = task.plan;
  // An edit made since the task's last look, before its verdict, was made while it ran.
  await task.place.changedMeanwhile();
  // A change that did not land is kept as the patch: the task's own version.
  const summary = await writePatch(root, id, end.ours);
  const notes = [task.note, _theirs(task)];
  if (end.status === "failed") notes.push(await _failedNote(task, end));
  if (end.status === "conflict") notes.push(await _conflictNote(task));
  const why = end.escalate && o.tried.length > 1
    ? `${end.why} (the last model on the ladder)`
    : end.why;
  const conflicted = end.conflicts?.map((c) => c.path);
  const files = conflicted ?? summary.files;
  const note = notes.filter(Boolean).join("; ");
  // The order of the example in docs/reference/localexec-tool-reference.txt, model and tried after
  // attempts.
  const verdict = fitVerdict({
    status: end.status,
    attempts: task.attempts,
    model: o.producer,
    ...(o.tried.length > 1 ? { tried: o.tried } : {}),
    ...(files.length ? { files, stat: summary.stat, patch: summary.patch } : {}),
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
  await updateTask(root, id, {
    status: end.status,
    why,
    ...(end.error !== undefined ? { error: end.error } : {}),
    ..._recordEnd(task, o, end.escalate),
    ...(end.status === "passed" ? await _savings(task, verdict) : {}),
  });
  return verdict;
}

/** What the passed task saved its caller (`savings.ts`), from its call, verdict, files and patch. */
async function _savings(task: TaskRun, verdict: Verdict): Promise<Savings> {
  const { plan } = task;
  const patch = await Deno.readTextFile(taskPaths(task.ctx.root, plan.id).patch).catch(() => "");
  const files = [...texts(task.place.o.start.files).values()].filter((t) => t !== null);
  return savings({
    call: {
      task_id: plan.id,
      spec: plan.spec,
      files_to_edit: plan.files,
      ...(plan.context.length ? { context_files: plan.context.map((c) => c.rel) } : {}),
    },
    verdict,
    read: [...files, ...plan.context.map((c) => c.content)],
    patch,
  });
}

/** The verdict for a run that an error or a cancellation ended. */
export async function stoppedTask(task: TaskRun, err: unknown, o: Outcome): Promise<Verdict> {
  const { root, signal } = task.ctx;
  const { id } = task.plan;
  const cancelled = signal.aborted || (err instanceof ModelError && err.kind === "cancelled");
  const message = cancelled ? "cancelled" : errorLine(err);
  await task.log(`\n--- stopped: ${message}`).catch(() => {});
  // "error" leaves the tree as it was before this call (what others changed meanwhile kept); a
  // cancelled run keeps its edits, which revert_task undoes (keeping edits noted as made meanwhile).
  if (cancelled) await task.place.changedMeanwhile().catch(() => []);
  const undo = cancelled ? undefined : await task.place.undo().catch(() => undefined);
  const summary = await writePatch(root, id).catch(() => undefined);
  await updateTask(root, id, {
    status: "error",
    error: message,
    ..._recordEnd(task, o, false),
  }).catch((e) => task.ctx.log?.(`task ${id}: the record was not updated: ${errorLine(e)}`));
  const left = undo?.left.map((l) => l.path) ?? [];
  const notes = [
    task.note,
    cancelled && summary?.files.length
      ? "cancelled with edits in the tree; revert_task undoes them"
      : undefined,
    left.length
      ? `${left.join(", ")} changed meanwhile and keep${
        left.length === 1 ? "s" : ""
      } the task's edits (revert_task takes them out)`
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
