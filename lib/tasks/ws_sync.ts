/**
 * Copies of a tree kept in step with it (docs/DECISIONS.md, "Cheap workspaces"): a copy made once
 * (`copyTree`) and then brought up to date (`syncCopy`) the way git's index and rsync do it. The
 * copy's record holds the listing of the tree's last walk (`ws_walk.ts`: one line of stat per
 * entry — size, mtime, ctime, inode, mode); the next walk's lines that differ (`diff`) are what
 * changed: those files are copied, new ones added, and what the tree no longer has removed, so a
 * sync costs a walk of the tree and the copying of what changed.
 *
 * The copy is trusted to be as its record says while nobody used it. A used one (`dirty`: a
 * task's workspace given back) is walked too and compared with the tree as rsync does (kind,
 * size, mtime, mode: `cp -a` keeps them), anything changed in it after it was handed to the task
 * counting as changed, so the task's edits and whatever its checks wrote are undone.
 *
 * Racily clean entries (git's term) are copied again at the next sync: a tree file changed within
 * `SLACK_MS` before the walk that listed it may change again within the same timestamp tick after
 * the walk looked, and nothing in its stat would tell. Its line carries the walk's nonce, so it
 * matches no later walk's.
 *
 * The top-level `node_modules`, `.venv` and `venv` are links to the user's (`linkDeps`); `.git`
 * and `.localexec` are left out.
 */
import { dirname, join } from "../deps.ts";
import { runProcess } from "../process/mod.ts";
import { STORE_NAME } from "./dir.ts";
import {
  diffListings,
  type Line,
  type Listings,
  parseLine,
  UnlistableError,
  walkFolder,
} from "./ws_walk.ts";

/** Top-level folders linked into a copy, not copied: dependencies checks read. */
export const LINKED: readonly string[] = ["node_modules", ".venv", "venv"];
/** Top-level entries a copy leaves out. */
export const SKIPPED: readonly string[] = [".git", STORE_NAME];
/**
 * How close to a walk a change must be to count as racily clean: above the coarsest timestamp
 * granularity in use (FAT's 2 s; ext4 and APFS are finer, but their clock ticks every few ms).
 */
export const SLACK_MS = 2500;

/**
 * What a copy holds, against the tree it copies: kept in a record folder, as `record.json` and the
 * listing of the tree's walk (`listing`) the copy is in step with.
 */
export interface CopyRecord {
  root: string;
  /** When the walk of the tree in the listing began (ms since the epoch). */
  at: number;
  /** When the copy was last written by a sync, or handed to a task (ms since the epoch). */
  done: number;
  /** Whether a task got the copy at `done` (what changed there since is its doing). */
  handed: boolean;
}

/** Options for the copy and sync. */
export interface CopyOptions {
  signal?: AbortSignal;
  /** Walk and compare without `find` and `diff` (tests of the portable way). */
  portable?: boolean;
  /** How close to a walk a change counts as racily clean; `SLACK_MS` unless a test says. */
  slackMs?: number;
}

/** What a sync did. */
export interface Synced {
  record: CopyRecord;
  /** Files and links copied, folders made, entries removed. */
  copied: number;
  made: number;
  removed: number;
}

/** The record's header and listing in a record folder. */
export const RECORD = "record.json";
const LISTING = "listing";

/**
 * Whether every complaint in cp's output `output` is about a file that vanished while it copied
 * (an editor's or a build's temporary file, another task's atomic write renamed away): such a
 * file was there when cp read its folder and gone when it came to copy it, so the copy is the
 * tree as it was a moment later, which is what a workspace wants. Anything else (no space, no
 * permission) is a failure.
 */
export function vanishedOnly(output: string): boolean {
  const lines = output.split("\n").filter((l) => l.trim());
  return lines.length > 0 &&
    lines.every((l) => /^(\S*\/)?cp: .*: No such file or directory$/.test(l));
}

/** Reads the record in the folder `meta`; undefined when missing, unreadable or not `root`'s. */
export async function readRecord(meta: string, root: string): Promise<CopyRecord | undefined> {
  try {
    const h = JSON.parse(await Deno.readTextFile(join(meta, RECORD)));
    if (h?.v !== 2 || h.root !== root || typeof h.at !== "number") return undefined;
    if (!(await Deno.lstat(join(meta, LISTING))).isFile) return undefined;
    return { root, at: h.at, done: h.done, handed: h.handed === true };
  } catch {
    return undefined;
  }
}

/** Writes `record` into the folder `meta` (a temporary name, then a rename). */
export async function writeRecord(meta: string, record: CopyRecord): Promise<void> {
  const tmp = join(meta, `.${RECORD}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  await Deno.writeTextFile(tmp, JSON.stringify({ v: 2, ...record }) + "\n", { mode: 0o600 });
  await Deno.rename(tmp, join(meta, RECORD));
}

/** Makes each top-level `LINKED` folder of `root` a link in `dir`, and removes those it lost. */
export async function linkDeps(root: string, dir: string): Promise<void> {
  for (const name of LINKED) {
    const t = await Deno.lstat(join(root, name)).catch(() => undefined);
    const want = t && (t.isDirectory || t.isSymlink);
    const at = join(dir, name);
    const w = await Deno.lstat(at).catch(() => undefined);
    const linked = w?.isSymlink && (await Deno.readLink(at).catch(() => "")) === join(root, name);
    if (want && linked) continue;
    // A folder here is one a task's write made real (`writeWork`): its entries are links, and
    // removing it removes them, never what they point to.
    if (w && (want || !w.isFile)) await Deno.remove(at, { recursive: true });
    if (want) await Deno.symlink(join(root, name), at);
  }
}

/** The top-level names `cp` copies from `root`. */
function _copiedNames(root: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(root)) {
    if (SKIPPED.includes(e.name)) continue;
    if (LINKED.includes(e.name) && (e.isDirectory || e.isSymlink)) continue;
    out.push(e.name);
  }
  return out;
}

/** Runs cp in `root`; throws unless it copied everything that did not vanish meanwhile. */
async function _cp(root: string, args: string[], signal?: AbortSignal): Promise<void> {
  // cp's messages in English, whatever the user's locale: `vanishedOnly` reads them.
  const env = { LC_ALL: "C" };
  const r = await runProcess(["cp", ...args], { cwd: root, timeoutS: 3600, signal, env });
  signal?.throwIfAborted();
  if (r.code !== 0 && (r.signal || r.cancelled || r.timedOut || !vanishedOnly(r.output))) {
    throw new Error(`copying the project for a workspace failed: ${r.output}`);
  }
}

/** Copies the files and links `rels` of `root` over (or into) the copy `dir`. */
async function _copyFiles(root: string, dir: string, rels: string[], o: CopyOptions) {
  if (Deno.build.os === "linux") {
    // One cp per 64 KiB of names; --remove-destination never writes through what is there.
    const flags = ["-a", "--reflink=auto", "--remove-destination", "--parents", "-t", dir, "--"];
    for (let i = 0; i < rels.length;) {
      const batch: string[] = [];
      for (let size = 0; i < rels.length && size < 65536; size += rels[i++].length + 1) {
        batch.push(rels[i]);
      }
      await _cp(root, [...flags, ...batch], o.signal);
    }
    return;
  }
  for (const rel of rels) {
    o.signal?.throwIfAborted();
    const src = join(root, rel), dst = join(dir, rel);
    const info = await Deno.lstat(src).catch(() => undefined);
    if (!info) continue; // vanished
    await Deno.remove(dst).catch(() => {});
    if (info.isSymlink) {
      await Deno.symlink(await Deno.readLink(src), dst);
    } else {
      await Deno.copyFile(src, dst);
      if (info.mode !== null) await Deno.chmod(dst, info.mode & 0o7777);
      if (info.mtime) await Deno.utime(dst, info.atime ?? info.mtime, info.mtime);
    }
  }
}

/** Throws unless the folder holding each of `rels` in `dir` is a real folder (never a link). */
async function _realParents(dir: string, rels: Iterable<string>): Promise<void> {
  const parents = new Set<string>();
  for (const rel of rels) {
    const p = dirname(rel);
    if (p !== ".") parents.add(p);
  }
  for (const p of parents) {
    const info = await Deno.lstat(join(dir, p)).catch(() => undefined);
    if (info && !info.isDirectory) {
      throw new Deno.errors.NotADirectory(`"${p}" in the copy "${dir}" is not a real folder`);
    }
  }
}

/** Walks the tree `root` into `to` (racily clean entries marked); when the walk began. */
async function _walkTree(root: string, to: Listings, o: CopyOptions): Promise<number> {
  const at = Date.now();
  const racyAfter = at - (o.slackMs ?? SLACK_MS);
  await walkFolder(root, to, { skip: SKIPPED, linked: LINKED, racyAfter, ...o });
  return at;
}

/**
 * Copies `root` into the empty folder `dir` (`cp -a`, reflinked where the file system can), with
 * its record in the folder `meta`: the tree is walked just before, so a file that changes
 * meanwhile is copied again by the next sync. The record knows nothing of files added meanwhile:
 * sync it as dirty before trusting it. Undefined (the copy made, no record) for a tree that
 * cannot be listed (`UnlistableError`). `o.signal` stops it.
 */
export async function copyTree(
  root: string,
  dir: string,
  meta: string,
  o: CopyOptions = {},
): Promise<CopyRecord | undefined> {
  const at = await _walkTree(root, { full: join(meta, LISTING) }, o).catch((err) => {
    if (err instanceof UnlistableError) return undefined;
    throw err;
  });
  await linkDeps(root, dir);
  const names = _copiedNames(root);
  if (names.length) {
    const linux = Deno.build.os === "linux";
    await _cp(
      root,
      linux ? ["-a", "--reflink=auto", "-t", dir, "--", ...names] : ["-pPR", ...names, dir],
      o.signal,
    );
  }
  if (at === undefined) return undefined;
  const record = { root, at, done: Date.now(), handed: false };
  await writeRecord(meta, record);
  return record;
}

/** Sorts `paths` and drops those under another of them. */
function _outermost(paths: string[]): string[] {
  const all = new Set(paths);
  return paths.sort().filter((p) => {
    for (let q = dirname(p); q !== "."; q = dirname(q)) if (all.has(q)) return false;
    return true;
  });
}

/** The same entry, as far as a copy can tell: `cp -a` keeps kind, size, mtime and mode. */
function _same(t: Line, w: Line): boolean {
  return t.kind === w.kind && t.size === w.size && t.mtime === w.mtime && t.mode === w.mode;
}

/** Parsed lines (of a full listing, or a `quick` one) by path. */
function _byPath(lines: Iterable<string>, quick = false): Map<string, Line> {
  const out = new Map<string, Line>();
  for (const line of lines) {
    const l = parseLine(line, quick);
    if (l) out.set(l.path, l);
  }
  return out;
}

/**
 * Brings the copy `dir` of `root` in step with the tree, from its record in the folder `meta`: a
 * walk of the tree, compared line by line with the record's listing, finds what changed (and
 * what is racily clean); those files and links are copied, folders made, and what the tree no
 * longer has removed. With `dirty` the copy is walked too, and whatever else changed there (a
 * task's edits, whatever its checks wrote or removed) is undone: rsync's test (kind, size, mtime,
 * mode), and anything changed after the copy was handed to a task. Writes and returns the new
 * record. `o.signal` stops it; a copy stopped half-way must be synced again as dirty.
 */
export async function syncCopy(
  root: string,
  dir: string,
  meta: string,
  record: CopyRecord,
  o: CopyOptions & { dirty: boolean },
): Promise<Synced> {
  const listing = join(meta, LISTING), fresh = join(meta, `${LISTING}.new`);
  const treeQuick = join(meta, `${LISTING}.quick`), copyQuick = join(meta, `${LISTING}.copy`);
  const [at] = await Promise.all([
    _walkTree(root, { full: fresh, quick: o.dirty ? treeQuick : undefined }, o),
    o.dirty &&
    walkFolder(dir, { quick: copyQuick }, {
      skip: [],
      linked: LINKED,
      racyAfter: record.handed ? record.done - (o.slackMs ?? SLACK_MS) : undefined,
      ...o,
    }),
  ]);
  await linkDeps(root, dir);
  // The tree's changes since the record: lines not in its listing (racily clean ones never are).
  const since = await diffListings(listing, fresh, o);
  const changed = _byPath(since.came);
  // Where the copy may need work: clean, where the record's lines went unmatched (the copy is as
  // the record says); dirty, where the copy's quick lines and the tree's differ. Both sides.
  let all: Map<string, Line> | undefined, copy: Map<string, Line>;
  if (o.dirty) {
    const apart = await diffListings(treeQuick, copyQuick, o);
    all = _byPath(apart.gone, true);
    for (const [p, t] of changed) all.set(p, t);
    copy = _byPath(apart.came, true);
  } else {
    copy = _byPath(since.gone);
  }
  const treeAt = (p: string) => all ? all.get(p) : changed.get(p);
  const remove: string[] = [];
  for (const [p, w] of copy) if (treeAt(p)?.kind !== w.kind) remove.push(p);
  const removed = new Set(remove);
  const outer = _outermost(remove);
  await _realParents(dir, outer);
  for (const p of outer) {
    o.signal?.throwIfAborted();
    await Deno.remove(join(dir, p), { recursive: true }).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    });
  }
  const made: string[] = [];
  const copies: string[] = [];
  for (const [p, t] of all ?? changed) {
    const w = copy.get(p);
    const there = w?.kind === t.kind && !removed.has(p);
    if (t.kind === "d") {
      if (!there) made.push(p);
    } else if (changed.has(p) || !there || w!.racy || !_same(t, w!)) copies.push(p);
  }
  made.sort();
  for (const p of made) {
    await Deno.mkdir(join(dir, p), { mode: parseInt(treeAt(p)!.mode, 8) | 0o700 }).catch((err) => {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    });
  }
  await _realParents(dir, copies);
  if (copies.length) await _copyFiles(root, dir, copies, o);
  await Deno.rename(fresh, listing);
  for (const tmp of [treeQuick, copyQuick]) await Deno.remove(tmp).catch(() => {});
  const next = { root, at, done: Date.now(), handed: false };
  await writeRecord(meta, next);
  return { record: next, copied: copies.length, made: made.length, removed: outer.length };
}
