/**
 * Reverting a task from its backups: originals restored byte for byte with their modes, files the
 * task created removed (and the folders it created, when empty), and the temporary files and
 * folders its record names removed (a run killed between creating one and renaming it leaves it
 * behind). A file whose content is neither its original nor one the task wrote was changed by
 * someone else afterwards: it is skipped unless `force`. Only files in the task's manifest and
 * record are ever touched. The answer is `reverted` only when the tree, checked afterwards, is as
 * it was before the task (apart from skipped files); otherwise `partial`, saying what is left.
 */
import { resolveForWrite } from "../paths.ts";
import { makeParents, removeChecked, tempName, writeChecked } from "../fs_atomic.ts";
import { basename, dirname, join } from "../deps.ts";
import { type ManifestEntry, readManifest, readOriginal } from "./backup.ts";
import { sha256Hex } from "../text.ts";
import { removeTemp } from "./stale.ts";
import { liveClaims } from "./claims.ts";
import { appendLog, noteTemps, readRecord, unknownTask, updateTask } from "./store.ts";

/** Options for {@linkcode revertTask}. */
export interface RevertOptions {
  /** Report what would happen without changing anything. */
  dryRun?: boolean;
  /** Also restore files that changed after the task. */
  force?: boolean;
}

/** The result `revert_task` returns. */
export interface RevertResult {
  [key: string]: unknown;
  /**
   * `reverted`, `partial` (something could not be put back: `left` says what), `dry_run` (nothing
   * changed) or `already_reverted`.
   */
  status: "reverted" | "partial" | "dry_run" | "already_reverted";
  /** Files whose original content or mode is (or would be) written back. */
  restore: string[];
  /** Files the task created, (to be) removed. */
  remove: string[];
  /** Files changed after the task, left alone (without `force`). */
  skipped?: string[];
  /** With `partial`: paths still not as they were before the task. */
  left?: string[];
  note?: string;
}

/** `skip`: changed after the task; `blocked`: revert may not write there (a link out, a folder). */
type _Action = "restore" | "remove" | "none" | "skip" | "blocked";

/** What revert would do to one file. */
async function _plan(
  root: string,
  e: ManifestEntry,
  force: boolean,
  written: (string | null)[],
): Promise<_Action> {
  let safe;
  try {
    safe = await resolveForWrite(root, e.path);
  } catch {
    return "blocked"; // the path now leads somewhere revert must not write (a link out, say)
  }
  const info = await Deno.lstat(safe.abs).catch(() => undefined);
  if (info && !info.isFile) return "blocked";
  const now = info ? await sha256Hex(await Deno.readFile(safe.abs)) : null;
  const mode = info ? (info.mode ?? 0) & 0o7777 : undefined;
  const original = e.existed ? e.sha256 : null;
  const ours = now === original || written.includes(now);
  if (!ours && !force) return "skip";
  if (!e.existed) return now === null ? "none" : "remove";
  if (now === original && mode === e.mode) return "none";
  return "restore";
}

function _blocked(plans: { entry: ManifestEntry; action: _Action }[]): string[] {
  return plans.filter((p) => p.action === "blocked").map((p) => p.entry.path);
}

/** The note for skipped files: changed ones need `force`; blocked ones need a person. */
function _skipNote(changed: number, blocked: string[]): string {
  const notes: string[] = [];
  if (changed) {
    notes.push(
      `${changed === 1 ? "1 file was" : `${changed} files were`} changed after the task and ` +
        `left alone; pass force: true to restore ${changed === 1 ? "it" : "them"} too`,
    );
  }
  if (blocked.length) {
    notes.push(
      `${blocked.join(", ")} now ${blocked.length === 1 ? "leads" : "lead"} through a link out ` +
        "of the project or to something that is not a regular file, where revert never writes " +
        "(force does not change that); put the file back and revert again",
    );
  }
  return notes.join("; ");
}

/** Removes the folders in `dirs` (deepest first) that exist and are empty. */
function _removeDirs(root: string, dirs: readonly string[]): void {
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      removeChecked(root, dir, true); // only succeeds when empty
    } catch {
      // not empty, not a folder, or swapped: the check afterwards reports it
    }
  }
}

/**
 * Removes the task's temporary files and folders that exist (the record named them before they
 * did).
 */
function _removeTemps(root: string, temps: readonly string[]): void {
  for (const temp of temps) {
    try {
      removeTemp(root, temp);
    } catch {
      // a link or a folder with files under that name is not ours; the check afterwards reports it
    }
  }
}

/** True when the file of `e` is as it was before the task. */
async function _asBefore(root: string, e: ManifestEntry): Promise<boolean> {
  const info = await Deno.lstat(join(root, e.path)).catch(() => undefined);
  if (!e.existed) return !info;
  if (!info?.isFile || ((info.mode ?? 0) & 0o7777) !== e.mode) return false;
  return await sha256Hex(await Deno.readFile(join(root, e.path))) === e.sha256;
}

/** What is not as before the task: files (not skipped), temporary files and created folders. */
async function _leftovers(
  root: string,
  entries: readonly ManifestEntry[],
  skipped: readonly string[],
  temps: readonly string[],
  dirs: readonly string[],
): Promise<string[]> {
  const left: string[] = [];
  for (const e of entries) {
    if (!skipped.includes(e.path) && !(await _asBefore(root, e))) left.push(e.path);
  }
  for (const p of [...temps, ...dirs]) {
    if (await Deno.lstat(join(root, p)).then(() => true, () => false)) left.push(p);
  }
  return left;
}

/**
 * Reverts task `id` (call it while holding the project lock). Works for a run that was killed.
 * Throws a `ToolError` listing recent ids when `id` is unknown.
 */
export async function revertTask(
  root: string,
  id: string,
  options: RevertOptions = {},
): Promise<RevertResult> {
  // Under the project lock: the claims (and workspaces) of runs that died go now.
  await liveClaims(root).catch(() => {});
  const record = await readRecord(root, id);
  if (!record) throw await unknownTask(root, id);
  if (record.reverted_at) {
    return {
      status: "already_reverted",
      restore: [],
      remove: [],
      note: `task ${id} was reverted at ${record.reverted_at.replace(/\.\d+Z$/, "Z")}`,
    };
  }
  const manifest = await readManifest(root, id);
  const result: RevertResult = {
    status: options.dryRun ? "dry_run" : "reverted",
    restore: [],
    remove: [],
  };
  const plans: { entry: ManifestEntry; action: _Action }[] = [];
  for (const entry of manifest?.files ?? []) {
    const action = await _plan(root, entry, !!options.force, record.written[entry.path] ?? []);
    plans.push({ entry, action });
    if (action === "restore") result.restore.push(entry.path);
    if (action === "remove") result.remove.push(entry.path);
    if (action === "skip" || action === "blocked") (result.skipped ??= []).push(entry.path);
  }
  if (result.skipped) {
    result.note = _skipNote(plans.filter((p) => p.action === "skip").length, _blocked(plans));
  } else if (!manifest) {
    result.note = "the run stopped before it backed up or changed any file; nothing to restore";
  }
  if (options.dryRun) return result;
  const temps = record.temps ?? [];
  _removeTemps(root, temps);
  for (const { entry, action } of plans) {
    if (action === "restore") {
      const safe = await resolveForWrite(root, entry.path);
      // Write-ahead as in applyFiles: a revert killed midway leaves nothing the next one misses.
      await makeParents(root, safe, (_dir, temp) => noteTemps(root, id, [temp]));
      const original = (await readOriginal(root, id, entry))!;
      const temp = tempName(basename(safe.abs));
      await noteTemps(root, id, [join(dirname(safe.rel), temp)]);
      await writeChecked(root, safe, original, { mode: entry.mode, temp });
    } else if (action === "remove") {
      removeChecked(root, (await resolveForWrite(root, entry.path)).rel);
    }
  }
  const skipped = result.skipped ?? [];
  const entries = manifest?.files ?? [];
  const dirs = [
    ...entries.filter((e) => !skipped.includes(e.path)).flatMap((e) => e.new_dirs ?? []),
    ...(record.made_dirs ?? []),
  ];
  _removeDirs(root, dirs);
  const left = await _leftovers(root, entries, skipped, temps, dirs);
  if (left.length) {
    result.status = "partial";
    result.left = left;
    result.note = `${left.length === 1 ? "1 path is" : `${left.length} paths are`} still not as ` +
      `before the task (${left.slice(0, 5).join(", ")}${left.length > 5 ? ", …" : ""}): a ` +
      "folder the task made holds new files, or something changed during the revert; revert " +
      "again after looking";
  }
  await appendLog(
    root,
    id,
    `===== reverted at ${new Date().toISOString()}: restore ${result.restore.join(", ") || "-"}; ` +
      `remove ${result.remove.join(", ") || "-"}; skipped ${result.skipped?.join(", ") || "-"}${
        result.left ? `; left ${result.left.join(", ")}` : ""
      } =====`,
  );
  if (!result.skipped && !result.left) {
    await updateTask(root, id, (r) => ({
      temps: [],
      reverted_at: new Date().toISOString(),
      status: r.status === "running" ? "interrupted" : r.status,
    }));
  }
  return result;
}
