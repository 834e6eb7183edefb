/**
 * Changing a task's files, and writing its patch.
 *
 * Before a file is written, the hash of its new content is added to the task record, so revert can
 * tell the task's own writes from later edits by someone else even when the run dies between the
 * record update and the write. The record also names, before they exist, the temporary file of
 * each write, the temporary name of each folder made, and any folder made that the manifest does
 * not list (write-ahead), so a revert after a kill at any instant leaves no trace. Each file is
 * written atomically through a checked handle (`lib/fs_atomic.ts`).
 */
import { ToolError } from "../errors.ts";
import { basename, dirname } from "../deps.ts";
import {
  makeParents,
  removeChecked,
  tempName,
  writeChecked,
  writeFileAtomic,
} from "../fs_atomic.ts";
import { diffFile, type FileDiff, formatStat } from "./patch.ts";
import { resolveForWrite, type SafePath, toRel } from "../paths.ts";
import { readCurrent, readManifest, readOriginal } from "./backup.ts";
import { sha256Hex } from "../text.ts";
import { storeRel, taskPaths } from "./dir.ts";
import { readRecord, updateTask } from "./store.ts";

/** New content per project-relative path; null deletes the file. */
export type FileEdits = ReadonlyMap<string, string | Uint8Array | null>;

/**
 * Writes `edits` into the tree for task `id` (call it while holding the project lock). Every path
 * must be one of the task's backed-up files. Unchanged contents are not rewritten. Returns the
 * paths that changed.
 */
export async function applyFiles(root: string, id: string, edits: FileEdits): Promise<string[]> {
  const record = await readRecord(root, id);
  const manifest = await readManifest(root, id);
  if (!record || !manifest) throw new ToolError(`task "${id}" has not been begun`);
  const enc = new TextEncoder();
  const plan: {
    safe: SafePath;
    rel: string;
    bytes: Uint8Array | null;
    hash: string | null;
    temp: string;
  }[] = [];
  for (const [path, content] of edits) {
    const safe = await resolveForWrite(root, path);
    if (!manifest.files.some((e) => e.path === safe.rel)) {
      throw new ToolError(
        `"${safe.rel}" is not one of the task's files (${
          manifest.files.map((e) => e.path).join(", ")
        })`,
      );
    }
    const bytes = content === null
      ? null
      : typeof content === "string"
      ? enc.encode(content)
      : content;
    const now = await readCurrent(root, safe.rel);
    const hash = bytes === null ? null : await sha256Hex(bytes);
    if ((now === null ? null : await sha256Hex(now)) === hash) continue;
    const folder = toRel(root, dirname(safe.abs));
    const temp = tempName(basename(safe.abs));
    plan.push({
      safe,
      rel: safe.rel,
      bytes,
      hash,
      temp: folder === "." ? temp : `${folder}/${temp}`,
    });
  }
  if (!plan.length) return [];
  await updateTask(root, id, (r) => {
    const written = { ...r.written };
    for (const p of plan) {
      const seen = written[p.rel] ?? [];
      written[p.rel] = seen.includes(p.hash) ? seen : [...seen, p.hash];
    }
    const temps = plan.filter((p) => p.bytes !== null).map((p) => p.temp);
    return { written, temps: [...new Set([...(r.temps ?? []), ...temps])] };
  });
  const listed = new Set(manifest.files.flatMap((e) => e.new_dirs ?? []));
  const folderTemps: string[] = [];
  // Before each folder exists, even under its temporary name, the record names both.
  const made = async (dir: string, temp: string) => {
    folderTemps.push(temp);
    await updateTask(root, id, (r) => ({
      temps: [...new Set([...(r.temps ?? []), temp])],
      ...(listed.has(dir) ? {} : { made_dirs: [...new Set([...(r.made_dirs ?? []), dir])] }),
    }));
  };
  for (const p of plan) {
    if (p.bytes === null) {
      removeChecked(root, p.rel);
      continue;
    }
    await makeParents(root, p.safe, made);
    await writeChecked(root, p.safe, p.bytes, { temp: basename(p.temp) });
  }
  // Every temporary file and folder is renamed into place (or removed): the record need not name
  // them now.
  const done = new Set([...plan.map((p) => p.temp), ...folderTemps]);
  await updateTask(root, id, (r) => ({ temps: (r.temps ?? []).filter((t) => !done.has(t)) }));
  return plan.map((p) => p.rel);
}

/** The task's diff against its backups, computed from the tree as it is now. */
export async function taskDiff(root: string, id: string, work = root): Promise<FileDiff[]> {
  const manifest = await readManifest(root, id);
  if (!manifest) return [];
  const out: FileDiff[] = [];
  for (const entry of manifest.files) {
    const before = await readOriginal(root, id, entry);
    const after = await readCurrent(work, entry.path).catch(() => null);
    const d = await diffFile(entry.path, before, after);
    if (d) out.push(d);
  }
  return out;
}

/** What {@linkcode writePatch} wrote. */
export interface PatchSummary {
  /** `+1 -1 in 1 file`. */
  stat: string;
  /** Files the patch changes. */
  files: string[];
  /** `.localexec/<id>.patch`. */
  patch: string;
}

/**
 * Writes `.localexec/<id>.patch`: the task's whole diff against its backups (unified, `a/` and `b/`
 * paths, new files against `/dev/null`), records its stat on the task, and summarises it.
 */
export async function writePatch(root: string, id: string): Promise<PatchSummary> {
  if (!(await readRecord(root, id))) throw new ToolError(`no task "${id}"`);
  const diffs = await taskDiff(root, id);
  await writeFileAtomic(taskPaths(root, id).patch, diffs.map((d) => d.text).join(""));
  const stat = formatStat(diffs);
  await updateTask(root, id, { stat });
  return { stat, files: diffs.map((d) => d.path), patch: storeRel(`${id}.patch`) };
}
