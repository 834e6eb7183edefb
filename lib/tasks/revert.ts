/**
 * Reverting a task from its backups: originals restored byte for byte with their modes, files the
 * task created removed (and the folders it created, when empty). A file whose content is neither
 * its original nor one the task wrote was changed by someone else afterwards: it is skipped unless
 * `force`. Only files in the task's manifest are ever touched.
 */
import { writeFileAtomic } from "../fs_atomic.ts";
import { join } from "../deps.ts";
import { ensureParent, resolveForWrite } from "../paths.ts";
import { type ManifestEntry, readManifest, readOriginal } from "./backup.ts";
import { sha256Hex } from "../text.ts";
import { appendLog, readRecord, unknownTask, updateTask } from "./store.ts";

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
  /** `reverted`, `dry_run` (nothing changed) or `already_reverted`. */
  status: "reverted" | "dry_run" | "already_reverted";
  /** Files whose original content or mode is (or would be) written back. */
  restore: string[];
  /** Files the task created, (to be) removed. */
  remove: string[];
  /** Files changed after the task, left alone (without `force`). */
  skipped?: string[];
  note?: string;
}

type _Action = "restore" | "remove" | "none" | "skip";

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
    return "skip"; // the path now leads somewhere revert must not write (a link out, say)
  }
  const info = await Deno.lstat(safe.abs).catch(() => undefined);
  if (info && !info.isFile) return "skip";
  const now = info ? await sha256Hex(await Deno.readFile(safe.abs)) : null;
  const mode = info ? (info.mode ?? 0) & 0o7777 : undefined;
  const original = e.existed ? e.sha256 : null;
  const ours = now === original || written.includes(now);
  if (!ours && !force) return "skip";
  if (!e.existed) return now === null ? "none" : "remove";
  if (now === original && mode === e.mode) return "none";
  return "restore";
}

async function _removeNewDirs(root: string, e: ManifestEntry): Promise<void> {
  for (const dir of [...(e.new_dirs ?? [])].reverse()) {
    const abs = join(root, dir);
    const info = await Deno.lstat(abs).catch(() => undefined);
    if (!info?.isDirectory) break;
    try {
      await Deno.remove(abs); // only succeeds when empty
    } catch {
      break;
    }
  }
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
    if (action === "skip") (result.skipped ??= []).push(entry.path);
  }
  if (result.skipped) {
    result.note =
      `${result.skipped.length === 1 ? "1 file was" : `${result.skipped.length} files were`} ` +
      `changed after the task and left alone; pass force: true to restore ${
        result.skipped.length === 1 ? "it" : "them"
      } too`;
  } else if (!manifest) {
    result.note = "the run stopped before it backed up or changed any file; nothing to restore";
  }
  if (options.dryRun) return result;
  for (const { entry, action } of plans) {
    if (action === "restore") {
      const safe = await resolveForWrite(root, entry.path);
      await ensureParent(root, safe);
      await writeFileAtomic(safe.abs, (await readOriginal(root, id, entry))!, { mode: entry.mode });
    } else if (action === "remove") {
      const safe = await resolveForWrite(root, entry.path);
      await Deno.remove(safe.abs).catch(() => {});
      await _removeNewDirs(root, entry);
    } else if (action === "none" && !entry.existed) {
      await _removeNewDirs(root, entry); // the created file is gone already; its folders may not be
    }
  }
  await appendLog(
    root,
    id,
    `===== reverted at ${new Date().toISOString()}: restore ${result.restore.join(", ") || "-"}; ` +
      `remove ${result.remove.join(", ") || "-"}; skipped ${
        result.skipped?.join(", ") || "-"
      } =====`,
  );
  if (!result.skipped) {
    await updateTask(root, id, (r) => ({
      reverted_at: new Date().toISOString(),
      status: r.status === "running" ? "interrupted" : r.status,
    }));
  }
  return result;
}
