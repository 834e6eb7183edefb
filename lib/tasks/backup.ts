/**
 * Beginning a task: its record first, then backups of every file it may edit, before any change.
 *
 * Backups live in `.localexec/<id>.orig/`: `files/<path>` holds each original byte for byte, and
 * `manifest.json` lists every file with whether it existed, its mode and its SHA-256 (and, for a
 * file that did not exist, the folders its creation adds). The folder is built under a temporary
 * name and renamed into place, so it is either complete or absent.
 */
import { PATH_REASONS, PathError, ToolError } from "../errors.ts";
import { dirname, join } from "../deps.ts";
import { readChecked } from "../fs_atomic.ts";
import { resolveForWrite } from "../paths.ts";
import { sha256Hex } from "../text.ts";
import { ensureStore, taskPaths } from "./dir.ts";
import { appendLog, freshRecord, readRecord, type TaskRecord, writeRecord } from "./store.ts";

/** One backed-up file. */
export interface ManifestEntry {
  /** Project-relative path with `/`. */
  path: string;
  existed: boolean;
  /** Permission bits of the original (0o644 for a file that did not exist). */
  mode: number;
  /** SHA-256 of the original, hex; null when it did not exist. */
  sha256: string | null;
  size: number;
  /** Folders (project-relative, outermost first) that did not exist before the task. */
  new_dirs?: string[];
}

/** `.localexec/<id>.orig/manifest.json`. */
export interface Manifest {
  task_id: string;
  created: string;
  files: ManifestEntry[];
}

/** Options for {@linkcode beginTask}. */
export interface BeginOptions {
  id: string;
  spec: string;
  /** Files the task may edit, as the caller gave them (checked with the write path rules). */
  files: readonly string[];
  contextFiles?: readonly string[];
  checks?: readonly string[];
}

/** What {@linkcode beginTask} did. */
export interface BeginResult {
  task: TaskRecord;
  manifest: Manifest;
  /** True when an earlier, not reverted run of this id was continued (its backups kept). */
  continued: boolean;
  /** When continued: whether that earlier run's changes are still in the tree. */
  changesInTree: boolean;
}

/**
 * Reads the regular file at the project-relative real path `rel` through a checked handle (see
 * `lib/fs_atomic.ts`); null when nothing is there. Throws for folders and the like.
 */
export async function readCurrent(root: string, rel: string): Promise<Uint8Array | null> {
  const abs = join(root, rel);
  for (let attempt = 1;; attempt++) {
    const info = await Deno.lstat(abs).catch(() => undefined);
    if (!info) return null;
    if (!info.isFile) throw new ToolError(`"${rel}" is not a regular file`);
    try {
      return await readChecked(root, { abs, rel, exists: true });
    } catch (err) {
      // Race handled: an editor saving by a rename (or a delete and a write) replaced the file
      // between the look and the read; read it again. A swapper keeps failing and is refused.
      const replaced = err instanceof Deno.errors.NotFound ||
        (err instanceof PathError && err.reason === PATH_REASONS.CHANGED);
      if (!replaced || attempt >= READ_TRIES) throw err;
    }
  }
}

/** How often a file replaced while it is read is read again. */
const READ_TRIES = 3;

/** Checks `files` with the write path rules; returns unique project-relative paths. */
export async function resolveTaskFiles(root: string, files: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const f of files) {
    const safe = await resolveForWrite(root, f);
    if (safe.exists && !(await Deno.stat(safe.abs)).isFile) {
      throw new ToolError(`"${safe.rel}" is not a regular file`);
    }
    if (!out.includes(safe.rel)) out.push(safe.rel);
  }
  return out;
}

/** Reads the manifest of task `id`; undefined when its backups were never completed. */
export async function readManifest(root: string, id: string): Promise<Manifest | undefined> {
  const paths = taskPaths(root, id);
  const info = await Deno.lstat(paths.orig).catch(() => undefined);
  if (!info?.isDirectory) return undefined;
  try {
    return JSON.parse(await Deno.readTextFile(paths.manifest)) as Manifest;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw new ToolError(`the backups of task "${id}" are damaged (${paths.manifest})`);
  }
}

/** The original bytes of `entry` from the backups; null when the file did not exist. */
export async function readOriginal(
  root: string,
  id: string,
  entry: ManifestEntry,
): Promise<Uint8Array | null> {
  if (!entry.existed) return null;
  return await Deno.readFile(join(taskPaths(root, id).originals, entry.path));
}

/** Folders above `rel` (project-relative, outermost first) that do not exist yet. */
export async function newDirs(root: string, rel: string): Promise<string[]> {
  const out: string[] = [];
  for (let d = dirname(rel); d !== "." && d !== "/" && d !== ""; d = dirname(d)) {
    if (await Deno.lstat(join(root, d)).then(() => true, () => false)) break;
    out.unshift(d);
  }
  return out;
}

/** Copies the current state of `rels` into `dir` (`files/` + entries); returns the entries. */
async function _backUp(root: string, dir: string, rels: string[]): Promise<ManifestEntry[]> {
  const entries: ManifestEntry[] = [];
  for (const rel of rels) {
    const abs = join(root, rel);
    const bytes = await readCurrent(root, rel);
    if (bytes === null) {
      const created = await newDirs(root, rel);
      entries.push({
        path: rel,
        existed: false,
        mode: 0o644,
        sha256: null,
        size: 0,
        ...(created.length ? { new_dirs: created } : {}),
      });
      continue;
    }
    const mode = ((await Deno.lstat(abs)).mode ?? 0o644) & 0o7777;
    const copy = join(dir, "files", rel);
    await Deno.mkdir(dirname(copy), { recursive: true });
    await Deno.writeFile(copy, bytes, { mode: 0o600 });
    entries.push({
      path: rel,
      existed: true,
      mode,
      sha256: await sha256Hex(bytes),
      size: bytes.length,
    });
  }
  return entries;
}

/** Writes a complete backup folder for `rels` under a temporary name, then renames it in place. */
async function _freshBackups(root: string, id: string, rels: string[]): Promise<Manifest> {
  const paths = taskPaths(root, id);
  const tmp = `${paths.orig}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.mkdir(tmp);
    const manifest: Manifest = {
      task_id: id,
      created: new Date().toISOString(),
      files: await _backUp(root, tmp, rels),
    };
    await Deno.writeTextFile(join(tmp, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n");
    await Deno.remove(paths.orig, { recursive: true }).catch(() => {});
    await Deno.rename(tmp, paths.orig);
    return manifest;
  } catch (err) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    throw err;
  }
}

/** Backs up files a continued task adds, keeping the original entries as they are. */
async function _extendBackups(root: string, manifest: Manifest, rels: string[]): Promise<Manifest> {
  const missing = rels.filter((r) => !manifest.files.some((e) => e.path === r));
  if (!missing.length) return manifest;
  const paths = taskPaths(root, manifest.task_id);
  const next = {
    ...manifest,
    files: [...manifest.files, ...await _backUp(root, paths.orig, missing)],
  };
  const tmp = `${paths.manifest}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  await Deno.writeTextFile(tmp, JSON.stringify(next, null, 1) + "\n");
  await Deno.rename(tmp, paths.manifest);
  return next;
}

/** True when a file of `manifest` differs from its original now. */
async function _changed(root: string, manifest: Manifest): Promise<boolean> {
  for (const e of manifest.files) {
    const now = await readCurrent(root, e.path).catch(() => undefined);
    if (now === undefined) return true;
    if ((now === null ? null : await sha256Hex(now)) !== e.sha256) return true;
  }
  return false;
}

/**
 * Begins task `id` (call it while holding the project lock): writes its record (`running`, this
 * pid, 0 attempts) before anything else, then backs up every file in `files`. An id whose earlier
 * run was not reverted is continued: its original backups are kept (new files are added to them)
 * and the result says whether that run's changes are still in the tree. A reverted id starts over.
 */
export async function beginTask(root: string, options: BeginOptions): Promise<BeginResult> {
  const paths = taskPaths(root, options.id);
  const files = await resolveTaskFiles(root, options.files);
  if (!files.length) throw new ToolError("a task needs at least one file to edit");
  await ensureStore(root);
  const now = new Date().toISOString();
  const old = await readRecord(root, options.id);
  const continued = !!old && !old.reverted_at && !old.provisional;
  const base: TaskRecord = continued ? old! : freshRecord({ id: options.id, spec: options.spec });
  const { finished: _f, error: _e, why: _w, reverted_at: _r, stat: _s, provisional: _p, ...kept } =
    base;
  let task: TaskRecord = {
    ...kept,
    status: "running",
    spec: options.spec,
    files: continued ? [...new Set([...old!.files, ...files])] : files,
    context_files: options.contextFiles ? [...options.contextFiles] : undefined,
    checks: options.checks ? [...options.checks] : undefined,
    pid: Deno.pid,
    started: now,
    updated: now,
    runs: base.runs + 1,
    attempts: 0,
  };
  if (!continued) {
    if (old && !old.provisional) {
      await Deno.remove(paths.patch).catch(() => {});
      await appendLog(root, options.id, `\n===== started over after revert at ${now} =====`);
    }
    await Deno.remove(paths.orig, { recursive: true }).catch(() => {});
  }
  await writeRecord(root, task);
  const existing = continued ? await readManifest(root, options.id) : undefined;
  const manifest = existing
    ? await _extendBackups(root, existing, task.files)
    : await _freshBackups(root, options.id, task.files);
  task = { ...task, files: manifest.files.map((e) => e.path) };
  await writeRecord(root, task);
  await appendLog(
    root,
    options.id,
    `\n===== run ${task.runs} of task ${options.id} begun at ${now} by pid ${Deno.pid}` +
      `${continued ? " (continued)" : ""}: ${task.files.join(", ")} =====`,
  );
  const changesInTree = continued && await _changed(root, manifest);
  return { task, manifest, continued, changesInTree };
}
