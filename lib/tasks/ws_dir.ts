/**
 * Where a project's workspaces go (`workspace.ts`) and the names in that folder: a module of its
 * own, with no imports from the store, so the claims can find a dead run's workspace without an
 * import cycle.
 *
 * `<cache>/localexec/ws/<name>-<hash>/` holds, for one project:
 * - `owner`: the project's root (so a sweep from another project can find its claims); its mtime
 *   is when a workspace of the project was last made, taken or given back;
 * - `<id>.<hex>/`: a task's workspace, and `<id>.<hex>.meta/` its record (`ws_sync.ts`);
 * - `standby/` (`tree/` and its record), the copy the next task takes (`standby.ts`);
 * - `standby.making/`: a standby being made or recycled, by the holder of `standby.lock`'s `flock`.
 *
 * Every folder from `<cache>/localexec` down is private (0700): a copy holds the project's `.env`.
 */
import { basename, dirname, join } from "../deps.ts";
import { storeDir } from "./dir.ts";

/** The project's root, and when it was last used. */
export const OWNER = "owner";
/** The ready standby: `tree/` and `record.json`. */
export const STANDBY = "standby";
/** A standby being made or recycled (never taken). */
export const MAKING = "standby.making";
/** `flock`ed by whoever makes or recycles the standby. */
export const MAKER_LOCK = "standby.lock";

/** The record folder of workspace `ws`: `<ws>.meta`. */
export function metaPath(ws: string): string {
  return `${ws}.meta`;
}

/** The user's cache folder (`$XDG_CACHE_HOME`, `~/.cache`, `~/Library/Caches`), if it may be used. */
function _cacheDir(): string | undefined {
  try {
    const env = (name: string) =>
      Deno.permissions.querySync({ name: "env", variable: name }).state === "granted"
        ? Deno.env.get(name)
        : undefined;
    const home = env("HOME");
    const dir = env("XDG_CACHE_HOME") ||
      (home ? join(home, Deno.build.os === "darwin" ? "Library/Caches" : ".cache") : undefined);
    if (!dir) return undefined;
    const write = Deno.permissions.querySync({ name: "write", path: dir }).state === "granted";
    return write ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** A short stable name for `root`: its folder name and a hash of its path. */
function _rootName(root: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(root)) {
    h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return `${basename(root).replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 40)}-${h.toString(16)}`;
}

/** `<cache>/localexec/ws`, which holds every project's folder; undefined without a cache folder. */
export function workspacesRoot(): string | undefined {
  const cache = _cacheDir();
  return cache ? join(cache, "localexec", "ws") : undefined;
}

/**
 * The folder that holds the workspaces of `root`: outside the tree, in the user's cache folder
 * (`localexec/ws/<name>-<hash>/`), because a project's own tools may walk hidden folders (`deno
 * test` runs every `*_test.ts` under `.localexec/`); the store's `ws/` when no cache folder may be
 * written.
 */
export function workspaceBase(root: string): string {
  const all = workspacesRoot();
  return all ? join(all, _rootName(root)) : join(storeDir(root), "ws");
}

/** Makes `dir` (its parents too) if missing, and private (0700) whether new or not. */
async function _private(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  // The folder may be a link the user made (a cache on another disk): its target is made private.
  const info = await Deno.stat(dir);
  if (!info.isDirectory) throw new Deno.errors.NotADirectory(`"${dir}" is not a folder`);
  if (info.mode !== null && (info.mode & 0o777) !== 0o700) await Deno.chmod(dir, 0o700);
}

/**
 * Makes `root`'s workspace folder (and `<cache>/localexec`, `…/ws` above it) private, notes the
 * project's root in its `owner` file and that it is in use now; returns the folder. Requires
 * `--allow-read` and `--allow-write` there.
 */
export async function ensureWorkspaceBase(root: string): Promise<string> {
  const base = workspaceBase(root);
  const all = workspacesRoot();
  const chain = all && dirname(base) === all ? [dirname(all), all, base] : [base];
  for (const dir of chain) await _private(dir);
  const owner = join(base, OWNER);
  const text = await Deno.readTextFile(owner).catch(() => undefined);
  if (text !== `${root}\n`) {
    await Deno.writeTextFile(owner, `${root}\n`, { mode: 0o600 });
  } else {
    const now = new Date();
    await Deno.utime(owner, now, now);
  }
  return base;
}

/** The root named by the `owner` file of a project's workspace folder `base`, if any. */
export async function readOwner(base: string): Promise<string | undefined> {
  const text = await Deno.readTextFile(join(base, OWNER)).catch(() => undefined);
  const root = text?.trim();
  return root && root.startsWith("/") ? root : undefined;
}

/**
 * Opens `base`'s maker lock and takes its `flock` if nobody holds it: the caller then alone may
 * make, recycle or remove the standby being made (`MAKING`). Undefined when another holds it (a
 * maker at work, in this process or another) or `base` is missing. Close the file to let go.
 */
export async function tryMakerLock(base: string): Promise<Deno.FsFile | undefined> {
  const file = await Deno.open(join(base, MAKER_LOCK), {
    read: true,
    write: true,
    create: true,
    mode: 0o600,
  }).catch(() => undefined);
  if (!file) return undefined;
  try {
    if (await file.tryLock(true)) return file;
  } catch {
    // no lock on this file system: as good as busy
  }
  file.close();
  return undefined;
}

/**
 * Removes what no live run of `root` uses from its workspace folder `base`: workspaces (and their
 * records) no live claim names, and a standby a dead maker left half-made. Keeps `owner`, the
 * maker lock, the ready standby and a live maker's work. Call it under the project lock (claims
 * are made under it). Never removes outside `base`; never throws.
 */
export async function tidyWorkspaces(base: string, live: ReadonlySet<string>): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(base)];
  } catch {
    return;
  }
  const keep = new Set([OWNER, MAKER_LOCK, STANDBY]);
  for (const ws of live) {
    if (dirname(ws) !== base) continue;
    keep.add(basename(ws));
    keep.add(basename(metaPath(ws)));
  }
  for (const e of entries) {
    if (keep.has(e.name)) continue;
    if (e.name === MAKING) {
      const lock = await tryMakerLock(base);
      if (!lock) continue; // a live maker's
      try {
        await Deno.remove(join(base, MAKING), { recursive: true }).catch(() => {});
      } finally {
        lock.close();
      }
      continue;
    }
    // A workspace is named in its claim before it is made: one no live claim names is dead.
    await Deno.remove(join(base, e.name), { recursive: true }).catch(() => {});
  }
}
