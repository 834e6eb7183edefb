/**
 * Workspaces (docs/ARCHITECTURE.md, "Parallel tasks"): a task that starts while another runs edits
 * and checks a copy of the project in the user's cache folder (`workspaceBase`), so it never sees
 * another running task's unfinished edits and they never see its own. The copy is the tree as it
 * is now, with the files of a task running in the tree put back as they were before it (from its
 * backups), dependency folders (`node_modules`, `.venv`, `venv`) linked rather than copied, and
 * `.git` and `.localexec` left out. Build output such as `target/` and caches are copied, so a
 * check in the workspace never writes into the user's tree.
 *
 * The copy is the project's standby when there is one (`standby.ts`: a rename and a sync of what
 * changed, `ws_sync.ts`), else a fresh `cp -a`; a workspace whose task ended becomes the standby
 * when there is none. Links in a workspace are read-only for the task: {@linkcode writeWork} never
 * writes through one. What other tasks land comes in through `landed.ts` (`syncLanded`), which
 * writes with it.
 */
import { basename, dirname, join } from "../deps.ts";
import { readManifest, readOriginal } from "./backup.ts";
import type { Claim } from "./claims.ts";
import { giveBack, markDirty, prepareStandby, takeStandby } from "./standby.ts";
import { ensureWorkspaceBase, metaPath, workspaceBase } from "./ws_dir.ts";
import {
  type CopyRecord,
  copyTree,
  LINKED,
  syncCopy,
  vanishedOnly,
  writeRecord,
} from "./ws_sync.ts";

export { LINKED, prepareStandby, vanishedOnly, workspaceBase };

/** Where the workspace of task `id` goes (a fresh name each time). */
export function workspacePath(root: string, id: string): string {
  const hex = crypto.randomUUID().replaceAll("-", "").slice(0, 8);
  return join(workspaceBase(root), `${id}.${hex}`);
}

/** What {@linkcode makeWorkspace} needs besides the root. */
export interface WorkspaceOptions {
  /** The workspace's path ({@linkcode workspacePath}); it must not exist yet. */
  ws: string;
  /** The tasks running now: the files of those in the tree are put back as before them. */
  running: readonly Claim[];
  /** The task's own files (project-relative): writable in the workspace without passing a link. */
  files: readonly string[];
  /** Stops the copy or the sync (the workspace is then half-made: release it). */
  signal?: AbortSignal;
}

/**
 * Makes the workspace `o.ws` of a task of `root`: from the standby when there is one (a rename and
 * a sync), else a copy of the tree; the files of tasks running in the tree are put back as before
 * them; `o.files` are writable without passing through a link. Requires `--allow-read`,
 * `--allow-write` and `--allow-run` (cp, find).
 */
export async function makeWorkspace(root: string, o: WorkspaceOptions): Promise<void> {
  const base = await ensureWorkspaceBase(root);
  const meta = metaPath(o.ws);
  const took = dirname(o.ws) === base ? await takeStandby(root, o.ws, o.signal) : undefined;
  let record: CopyRecord | undefined;
  try {
    if (took) {
      const opts = { dirty: took.dirty, signal: o.signal };
      record = (await syncCopy(root, o.ws, meta, took.record, opts)).record;
    }
  } catch (err) {
    o.signal?.throwIfAborted();
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    await removeWorkspace(o.ws); // a copy that cannot be synced: a fresh one instead
  }
  if (!record) {
    await Deno.mkdir(o.ws, { mode: 0o700 });
    await Deno.chmod(o.ws, 0o700);
    await Deno.mkdir(meta, { mode: 0o700 });
    await markDirty(meta);
    record = await copyTree(root, o.ws, meta, { signal: o.signal });
  }
  // The manifest is read after the copy: a task with no backups then had edited nothing.
  await _putBack(root, o.ws, o.running);
  for (const rel of o.files) await _ownFile(o.ws, rel);
  // From now on the copy is the task's: the sync that recycles it walks it (marked dirty above).
  // A tree that cannot be listed has no record: its copies serve once.
  if (record) await writeRecord(meta, { ...record, done: Date.now(), handed: true });
}

/** Writes into `ws` the originals of the files of the tasks `running` in the tree. */
async function _putBack(root: string, ws: string, running: readonly Claim[]): Promise<void> {
  for (const c of running) {
    if (c.mode !== "tree") continue;
    const manifest = await readManifest(root, c.task_id).catch(() => undefined);
    if (!manifest) continue;
    const edits = new Map<string, Uint8Array | null>();
    for (const entry of manifest.files) {
      edits.set(entry.path, await readOriginal(root, c.task_id, entry));
    }
    await writeWork(ws, edits);
  }
}

/**
 * A task's workspace `ws` is done: kept as the project's standby when `o.keep` and there is none
 * (brought back in step with the tree in the background: `prepareStandby` waits for it), else
 * removed. Never throws.
 */
export async function releaseWorkspace(
  root: string,
  ws: string,
  o: { keep: boolean },
): Promise<void> {
  try {
    if (o.keep && await giveBack(root, ws)) return;
  } catch {
    // not kept: removed below
  }
  await removeWorkspace(ws);
}

/** Removes the workspace `ws` and its record; never throws. */
export async function removeWorkspace(ws: string): Promise<void> {
  await Deno.remove(ws, { recursive: true }).catch(() => {});
  await Deno.remove(metaPath(ws), { recursive: true }).catch(() => {});
}

function _tempName(path: string): string {
  const hex = crypto.randomUUID().replaceAll("-", "").slice(0, 8);
  return join(dirname(path), `.${basename(path)}.${hex}.localexec-tmp`);
}

/**
 * Replaces the link `at` (to a folder) by a real folder whose entries are links to that folder's
 * entries: what `at/x` showed it still shows, and a write to `at/x` no longer reaches the target.
 * A dangling link becomes an empty folder.
 */
async function _materialise(at: string): Promise<void> {
  const target = await Deno.realPath(at).catch(() => undefined);
  const info = target ? await Deno.stat(target) : undefined;
  if (info && !info.isDirectory) {
    throw new Deno.errors.NotADirectory(`"${at}" is a link to a file, not to a folder`);
  }
  const tmp = _tempName(at);
  await Deno.mkdir(tmp, { mode: ((info?.mode ?? 0o755) & 0o777) | 0o700 });
  if (target) {
    for await (const e of Deno.readDir(target)) {
      await Deno.symlink(join(target, e.name), join(tmp, e.name));
    }
  }
  await Deno.remove(at); // the link, not what it points to
  await Deno.rename(tmp, at);
}

/**
 * The path of `rel` in `ws` with every folder on the way a real folder: links materialised
 * ({@linkcode _materialise}), missing folders made when `create`, else undefined for a missing one.
 */
async function _realPath(ws: string, rel: string, create: boolean): Promise<string | undefined> {
  const parts = rel.split("/");
  let at = ws;
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    const info = await Deno.lstat(at).catch(() => undefined);
    if (info?.isSymlink) await _materialise(at);
    else if (!info && create) await Deno.mkdir(at, { recursive: true });
    else if (!info) return undefined;
    else if (!info.isDirectory) throw new Deno.errors.NotADirectory(`"${at}" is not a folder`);
  }
  return join(ws, rel);
}

/** Writes `bytes` at `abs` (a temporary name, then a rename over whatever is there). */
async function _write(abs: string, bytes: Uint8Array, mode?: number): Promise<void> {
  const tmp = _tempName(abs);
  await Deno.writeFile(tmp, bytes, { createNew: true, mode: 0o666 });
  try {
    if (mode !== undefined) await Deno.chmod(tmp, mode);
    await Deno.rename(tmp, abs); // over a link: the link goes, its target stays as it was
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/** Makes the task's file `rel` in `ws` reachable without a link: a linked file becomes a copy. */
async function _ownFile(ws: string, rel: string): Promise<void> {
  const abs = await _realPath(ws, rel, false);
  if (!abs || !(await Deno.lstat(abs).catch(() => undefined))?.isSymlink) return;
  const target = await Deno.stat(abs).catch(() => undefined);
  if (target?.isFile) await _write(abs, await Deno.readFile(abs), (target.mode ?? 0o644) & 0o7777);
}

/**
 * Writes `edits` into the workspace `ws` (null removes the file); plain writes, no records. Never
 * through a link: a link on the way is replaced by a real folder of links first (its other
 * entries stay reachable), and a link at the file itself is replaced by the file.
 */
export async function writeWork(
  ws: string,
  edits: ReadonlyMap<string, string | Uint8Array | null>,
): Promise<void> {
  for (const [rel, content] of edits) {
    const abs = await _realPath(ws, rel, content !== null);
    if (!abs) continue; // nothing to remove
    const info = await Deno.lstat(abs).catch(() => undefined);
    if (content === null) {
      if (info) await Deno.remove(abs).catch(() => {});
      continue;
    }
    if (info?.isDirectory) await Deno.remove(abs, { recursive: true });
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    await _write(abs, bytes, info?.isFile && info.mode !== null ? info.mode & 0o7777 : undefined);
  }
}
