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
import { claimOf, TaskRunningError } from "./requests.ts";
import { holdsNow } from "./apply.ts";
import { hashOf, keepBlob, readBlob, withoutWrites } from "./history.ts";
import { sameBytes } from "../text.ts";
import {
  appendLog,
  noteTemps,
  readRecord,
  type TaskRecord,
  unknownTask,
  updateTask,
} from "./store.ts";

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
  /**
   * Of `restore`, the files put back with the edits someone else made while the task ran kept in
   * them (the task's lines taken out, theirs left).
   */
  kept?: string[];
  /** With `partial`: paths still not as they were before the task. */
  left?: string[];
  note?: string;
}

/**
 * `skip`: changed after the task; `blocked`: revert may not write there (a link out, a folder);
 * `keep`: put back with the edits someone else made while the task ran kept in it.
 */
type _Action = "restore" | "remove" | "none" | "skip" | "blocked" | "keep";

/** What revert would do to one file, and for `keep` what it writes; `why` says why a skip. */
interface _Plan {
  action: _Action;
  /** What the file held when planned (a write happens only while it still does). */
  now?: Uint8Array | null;
  target?: Uint8Array | null;
  why?: string;
}

/** What revert would do to one file. */
async function _plan(
  root: string,
  id: string,
  e: ManifestEntry,
  force: boolean,
  record: TaskRecord,
): Promise<_Plan> {
  let safe;
  try {
    safe = await resolveForWrite(root, e.path);
  } catch {
    return { action: "blocked" }; // the path now leads somewhere revert must not write (a link out)
  }
  const info = await Deno.lstat(safe.abs).catch(() => undefined);
  if (info && !info.isFile) return { action: "blocked" };
  const bytes = info ? await Deno.readFile(safe.abs) : null;
  const now = bytes ? await sha256Hex(bytes) : null;
  const mode = info ? (info.mode ?? 0) & 0o7777 : undefined;
  const original = e.existed ? e.sha256 : null;
  const back = (): _Plan => {
    if (!e.existed) return { action: now === null ? "none" : "remove", now: bytes };
    return { action: now === original && mode === e.mode ? "none" : "restore", now: bytes };
  };
  if (now === original) return back();
  if (!record.writes) {
    // A record from before writes were noted one by one: the task's own contents by hash.
    const ours = (record.written[e.path] ?? []).includes(now);
    return ours || force ? back() : { action: "skip" };
  }
  const writes = record.writes.filter((x) => x.path === e.path);
  // A file the task never wrote holds nobody's change but someone else's: nothing to undo.
  if (!writes.some((x) => !x.seen)) {
    // (A content recorded as written all the same is the task's: a record written by hand.)
    if ((record.written[e.path] ?? []).includes(now)) return back();
    return { action: "none", target: bytes };
  }
  const start = await readOriginal(root, id, e);
  const w = await withoutWrites({
    start,
    writes,
    now: bytes,
    blob: (hash) =>
      hash === original ? Promise.resolve(start ?? undefined) : readBlob(root, id, hash),
  });
  if ("leave" in w) {
    // A content recorded as written but never noted as a write (a record written by hand, or
    // before writes were noted one by one) is still the task's; `force` restores the original
    // only where revert would otherwise leave the file.
    const ours = (record.written[e.path] ?? []).includes(now) &&
      w.leave === "changed after the task";
    return ours || force ? back() : { action: "skip", why: w.leave };
  }
  if (sameBytes(w.target, start)) return back();
  if (sameBytes(w.target, bytes)) return { action: "none", target: w.target };
  return { action: "keep", target: w.target, now: bytes };
}

function _blocked(plans: { entry: ManifestEntry; action: _Action }[]): string[] {
  return plans.filter((p) => p.action === "blocked").map((p) => p.entry.path);
}

/**
 * The note for skipped files: changed ones need `force` (which loses the change), with the reason
 * when it is not simply a later change; blocked ones need a person.
 */
function _skipNote(changed: { path: string; why?: string }[], blocked: string[]): string {
  const notes: string[] = [];
  const plain = changed.filter((c) => !c.why || c.why === "changed after the task");
  if (plain.length) {
    const n = plain.length;
    notes.push(
      `${n === 1 ? "1 file was" : `${n} files were`} changed after the task and left alone; ` +
        `pass force: true to restore the original${n === 1 ? "" : "s"} (that loses the change)`,
    );
  }
  for (const c of changed.filter((c) => !plain.includes(c))) {
    notes.push(
      `${c.path} was ${c.why} and is left as it is; pass force: true to restore the original ` +
        "(that loses the edit), or undo the task's lines by hand (show_patch shows them)",
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

/**
 * What is not as before the task: files (not skipped; a kept file must hold its target), temporary
 * files and created folders.
 */
async function _leftovers(
  root: string,
  entries: readonly ManifestEntry[],
  o: {
    skipped: readonly string[];
    targets: ReadonlyMap<string, Uint8Array | null>;
    temps: readonly string[];
    dirs: readonly string[];
  },
): Promise<string[]> {
  const left: string[] = [];
  for (const e of entries) {
    if (o.skipped.includes(e.path)) continue;
    const target = o.targets.get(e.path);
    const ok = target === undefined
      ? await _asBefore(root, e)
      : sameBytes(await Deno.readFile(join(root, e.path)).catch(() => null), target);
    if (!ok) left.push(e.path);
  }
  for (const p of [...o.temps, ...o.dirs]) {
    if (await Deno.lstat(join(root, p)).then(() => true, () => false)) left.push(p);
  }
  return left;
}

/** `result` with its note: what was kept, what was skipped and why. */
function _noted(
  result: RevertResult,
  plans: { entry: ManifestEntry; action: _Action; plan: _Plan }[],
): RevertResult {
  const notes: string[] = [];
  if (result.kept?.length) {
    notes.push(
      `kept the edits made by someone else while the task ran in ${result.kept.join(", ")}`,
    );
  }
  if (result.skipped) {
    const changed = plans.filter((p) => p.action === "skip");
    notes.push(_skipNote(
      changed.map((p) => ({ path: p.entry.path, why: p.plan.why })),
      _blocked(plans),
    ));
  }
  if (notes.length) result.note = notes.join("; ");
  return result;
}

/** Notes a write of revert's in the record's `writes`, ahead of it, with both contents kept. */
async function _noteRevertWrite(
  root: string,
  id: string,
  path: string,
  o: { pre: Uint8Array | null | undefined; post: Uint8Array | null },
): Promise<void> {
  if (o.pre === undefined) return; // forced over a file revert did not look at: nothing to chain
  if (o.pre !== null) await keepBlob(root, id, o.pre);
  if (o.post !== null) await keepBlob(root, id, o.post);
  const pre = await hashOf(o.pre);
  const post = await hashOf(o.post);
  await updateTask(root, id, (r) => ({
    writes: r.writes ? [...r.writes, { path, run: r.runs, pre, post }] : undefined,
  }));
}

/** The file changed between revert's look at it and its write. */
class _ChangedMeanwhile extends Error {}

/** Throws {@linkcode _ChangedMeanwhile} unless `abs` holds `want` (null: no file). */
function _stillHolds(abs: string, want: Uint8Array | null | undefined): void {
  if (want !== undefined && !holdsNow(abs, want)) throw new _ChangedMeanwhile();
}

/** Restores, rewrites (`keep`) or removes one file as planned; only while it holds what was seen. */
async function _carryOut(
  root: string,
  id: string,
  entry: ManifestEntry,
  plan: _Plan,
  force: boolean,
): Promise<void> {
  const { action } = plan;
  if (action !== "restore" && action !== "keep" && action !== "remove") return;
  const safe = await resolveForWrite(root, entry.path);
  // With force the original goes back whatever is there; otherwise only over what was seen.
  const check = () => _stillHolds(safe.abs, force ? undefined : plan.now);
  const bytes = action === "keep"
    ? plan.target ?? null
    : action === "remove"
    ? null
    : await readOriginal(root, id, entry);
  // Noted like the task's own writes, so a later revert (after a skip) knows this content.
  await _noteRevertWrite(root, id, entry.path, { pre: plan.now, post: bytes });
  if (bytes === null) {
    check();
    removeChecked(root, safe.rel);
    return;
  }
  // Write-ahead as in applyFiles: a revert killed midway leaves nothing the next one misses.
  await makeParents(root, safe, (_dir, temp) => noteTemps(root, id, [temp]));
  const temp = tempName(basename(safe.abs));
  await noteTemps(root, id, [join(dirname(safe.rel), temp)]);
  const mode = action === "keep" ? undefined : entry.mode;
  await writeChecked(root, safe, bytes, { mode, temp, precondition: check });
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
  const running = await claimOf(root, id);
  if (running) {
    throw new TaskRunningError(
      `task ${id} is running in another localexec server (pid ${running.pid}); it was not ` +
        "reverted: stop it there (or wait for its verdict), then revert",
      running.pid,
    );
  }
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
  const plans: { entry: ManifestEntry; action: _Action; plan: _Plan }[] = [];
  for (const entry of manifest?.files ?? []) {
    const plan = await _plan(root, id, entry, !!options.force, record);
    const action = plan.action;
    plans.push({ entry, action, plan });
    if (action === "restore" || action === "keep") result.restore.push(entry.path);
    if (action === "keep") (result.kept ??= []).push(entry.path);
    if (action === "remove") result.remove.push(entry.path);
    if (action === "skip" || action === "blocked") (result.skipped ??= []).push(entry.path);
  }
  if (!manifest) {
    result.note = "the run stopped before it backed up or changed any file; nothing to restore";
  }
  if (options.dryRun) return _noted(result, plans);
  const temps = record.temps ?? [];
  _removeTemps(root, temps);
  for (const p of plans) {
    try {
      await _carryOut(root, id, p.entry, p.plan, !!options.force);
    } catch (err) {
      if (!(err instanceof _ChangedMeanwhile)) throw err;
      // Changed between the look and the write: someone else's now, left as it is.
      p.action = "skip";
      p.plan.why = "changed during the revert";
      result.restore = result.restore.filter((r) => r !== p.entry.path);
      result.remove = result.remove.filter((r) => r !== p.entry.path);
      (result.skipped ??= []).push(p.entry.path);
    }
  }
  _noted(result, plans);
  const skipped = result.skipped ?? [];
  const entries = manifest?.files ?? [];
  const dirs = [
    ...entries.filter((e) => !skipped.includes(e.path)).flatMap((e) => e.new_dirs ?? []),
    ...(record.made_dirs ?? []),
  ];
  _removeDirs(root, dirs);
  const targets = new Map(
    plans.filter((p) => p.plan.target !== undefined).map((p) => [
      p.entry.path,
      p.plan.target ?? null,
    ]),
  );
  const left = await _leftovers(root, entries, { skipped, targets, temps, dirs });
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
