/**
 * File I/O that cannot be led out of the root: atomic writes, and reads and writes checked against
 * what was actually opened, not only the path resolved before.
 *
 * `lib/paths.ts` proves that a path's real location lies inside the root, but a name can change
 * between that check and the `open` (a folder swapped for a link out of the root). Deno has no
 * `openat` or `O_NOFOLLOW`, so each checked operation first pins the folder it works in: it makes
 * that folder the working folder (`chdir`) and asks the kernel where it really is (`getcwd`),
 * which no later swap of a name can change. Inside the pinned folder only the last name is looked
 * up, and an opened file's device and inode are compared with an `lstat` of that name (which
 * never follows a link). Every pinned step is synchronous, so no other call of this process runs
 * in between, and the previous working folder is restored before it returns. (Nothing else in
 * localexec uses relative paths: every path is absolute, every child process gets its `cwd`.)
 *
 * Checked writes create the temporary file with `createNew` (which refuses anything already there,
 * a link included) in the pinned folder, with the umask cleared so no `chmod` by name follows;
 * write through the open handle; pin the folder again; check that the temporary file is still the
 * one created; and rename it over the target inside that same folder. Any mismatch removes what
 * was created and refuses with a `PathError` whose reason is `changed`.
 *
 * Requires `--allow-read` for the root (and `--allow-write` to write).
 */
import { basename, dirname, join, relative, sep } from "./deps.ts";
import { PATH_REASONS, PathError, PathOutsideRootError } from "./errors.ts";
import { isInside, type SafePath, toRel } from "./paths.ts";

/** Options for {@linkcode writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Permission bits for the file; when absent, an existing file keeps its mode, a new one gets 0o644. */
  mode?: number;
}

/**
 * Writes `data` to `path` atomically and returns the mode the file ends up with. For paths a
 * caller named inside the project use {@linkcode writeChecked}; this is for localexec's own files.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<number> {
  let mode = options.mode;
  if (mode === undefined) {
    try {
      const info = await Deno.lstat(path);
      mode = info.isFile && info.mode !== null ? info.mode & 0o7777 : 0o644;
    } catch {
      mode = 0o644;
    }
  }
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const tmp = join(dirname(path), tempName(basename(path)));
  try {
    // createNew refuses to open anything already there, a planted symlink included.
    using file = await Deno.open(tmp, { write: true, createNew: true, mode });
    let done = 0;
    while (done < bytes.length) done += await file.write(bytes.subarray(done));
    await file.syncData();
    await Deno.chmod(tmp, mode); // the umask may have narrowed it
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
  return mode;
}

function _show(rel: string): string {
  return JSON.stringify(rel.length > 120 ? `${rel.slice(0, 120)}…` : rel);
}

function _changed(root: string, abs: string): PathError {
  return new PathError(
    `${_show(toRel(root, abs))} changed while it was being used (a folder or link was swapped); ` +
      "nothing was read or written outside the project root",
    PATH_REASONS.CHANGED,
  );
}

function _same(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Runs `fn` with the real folder `dir` (inside `root`) as the working folder, after checking with
 * the kernel that the folder entered is `dir` itself. `fn` must be synchronous.
 */
export function inFolder<T>(root: string, dir: string, fn: () => T): T {
  let previous: string | undefined;
  try {
    previous = Deno.cwd();
  } catch {
    previous = undefined; // deleted, or outside what Deno may read: come back to the root
  }
  try {
    Deno.chdir(dir);
    const here = Deno.cwd();
    if (!isInside(root, here)) {
      throw new PathOutsideRootError(
        `${_show(toRel(root, dir))} led outside the project root when it was used (a swapped link)`,
      );
    }
    if (here !== dir) throw _changed(root, dir);
    return fn();
  } finally {
    try {
      Deno.chdir(previous ?? root);
    } catch {
      Deno.chdir(root);
    }
  }
}

/** `lstat` of `name` in the working folder; undefined when nothing is there. */
function _lstatHere(name: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(name);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/**
 * Opens the checked file `safe` for reading and proves that the handle is the file at `safe.abs`
 * inside the root: its folder is pinned, and the handle's device and inode match an `lstat` of the
 * name there. Throws `NotFound` when nothing is there.
 */
export function openChecked(root: string, safe: SafePath): Deno.FsFile {
  const dir = dirname(safe.abs);
  const name = basename(safe.abs);
  if (safe.abs === root) throw new PathError("the project root is a folder, not a file");
  return inFolder(root, dir, () => {
    // Opening a FIFO would block the whole process: only a regular file is opened. (A FIFO
    // swapped in during the few microseconds to the open would still block; see the README.)
    const seen = _lstatHere(name);
    if (!seen) throw new Deno.errors.NotFound(`${_show(safe.rel)} does not exist`);
    if (seen.isSymlink) throw _changed(root, safe.abs);
    if (!seen.isFile) throw new PathError(`${_show(safe.rel)} is not a regular file`);
    const file = Deno.openSync(name, { read: true });
    try {
      const opened = file.statSync();
      const here = _lstatHere(name);
      if (!here || here.isSymlink || !_same(opened, here)) throw _changed(root, safe.abs);
      return file;
    } catch (err) {
      file.close();
      throw err;
    }
  });
}

/** Reads the whole checked file `safe` through a verified handle. */
export async function readChecked(root: string, safe: SafePath): Promise<Uint8Array> {
  using file = openChecked(root, safe);
  return await readAll(file);
}

/** Reads `file` from its start to its end, or its first `max` bytes. */
export async function readAll(file: Deno.FsFile, max = Infinity): Promise<Uint8Array> {
  await file.seek(0, Deno.SeekMode.Start);
  const size = (await file.stat()).size;
  const out = new Uint8Array(Math.min(max, size));
  let got = 0;
  while (got < out.length) {
    const n = await file.read(out.subarray(got));
    if (n === null) break;
    got += n;
  }
  if (got < out.length || max <= size) return out.subarray(0, got);
  // The file grew since its size was taken: read on in chunks.
  const rest: Uint8Array[] = [out];
  let total = got;
  for (;;) {
    const chunk = new Uint8Array(64 * 1024);
    const n = await file.read(chunk);
    if (n === null) break;
    rest.push(chunk.subarray(0, n));
    total += n;
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const part of rest) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/**
 * Creates the missing folders above the checked path `safe`, one at a time, each inside its
 * pinned parent. `onCreate` hears each folder (project-relative) before it is made, so a caller
 * can record it first. Refuses anything on the way that is not a real folder inside the root.
 */
export async function makeParents(
  root: string,
  safe: SafePath,
  onCreate?: (rel: string) => Promise<void> | void,
): Promise<string[]> {
  const rel = relative(root, dirname(safe.abs));
  const made: string[] = [];
  if (rel === "") return made;
  let current = root;
  for (const part of rel.split(sep)) {
    const next = join(current, part);
    const state = inFolder(root, current, () => {
      const info = _lstatHere(part);
      if (!info) return "missing";
      if (info.isDirectory) return "folder";
      if (info.isSymlink) return "link";
      throw new PathError(`${_show(toRel(root, next))} is not a folder`);
    });
    if (state === "link") throw _changed(root, next);
    if (state === "missing") {
      await onCreate?.(toRel(root, next));
      inFolder(root, current, () => {
        try {
          Deno.mkdirSync(part);
        } catch (err) {
          if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
        }
      });
      made.push(toRel(root, next));
    }
    current = next;
  }
  return made;
}

/**
 * A hidden temporary name next to `name`. The name is cut to 40 code points, so the result stays
 * under the 255-byte name limit whatever the script (4 bytes per code point at most).
 */
export function tempName(name: string): string {
  const head = Array.from(name).slice(0, 40).join("");
  return `.${head}.${crypto.randomUUID().slice(0, 8)}.localexec-tmp`;
}

/** Options for {@linkcode writeChecked}. */
export interface CheckedWriteOptions {
  /** Permission bits; when absent, an existing file keeps its mode and a new one gets 0o644. */
  mode?: number;
  /** The temporary file's name (from {@linkcode tempName}), when the caller recorded it first. */
  temp?: string;
}

function _createTemp(name: string, mode: number): Deno.FsFile {
  let mask: number | undefined;
  try {
    mask = Deno.umask(0); // the file gets exactly `mode`, with no chmod by name afterwards
  } catch {
    mask = undefined;
  }
  try {
    return Deno.openSync(name, { write: true, createNew: true, mode });
  } finally {
    if (mask !== undefined) Deno.umask(mask);
  }
}

/** How often a failed write tries to remove its temporary file while its folder is swapped. */
const DROP_ATTEMPTS = 50;

/** Removes `temp` from the working folder if it is still the file `mine`. */
function _dropHere(temp: string, mine: Deno.FileInfo): void {
  const now = _lstatHere(temp);
  if (now && _same(now, mine)) Deno.removeSync(temp);
}

/** Tries and retries for a while to remove the temporary file `temp` of `dir`. */
async function _dropTemp(root: string, dir: string, temp: string, mine: Deno.FileInfo) {
  for (let attempt = 0; attempt < DROP_ATTEMPTS; attempt++) {
    try {
      inFolder(root, dir, () => _dropHere(temp, mine));
      return;
    } catch {
      // The folder is swapped away right now; it may come back.
      await new Promise((r) => setTimeout(r, 2));
    }
  }
  // It stays in its folder, which was inside the root when it was made; a task's record names it.
}

/**
 * Writes `data` to the checked path `safe` (whose folder must exist) atomically and returns the
 * mode the file ends up with. The target name is replaced, never followed.
 */
export async function writeChecked(
  root: string,
  safe: SafePath,
  data: string | Uint8Array,
  options: CheckedWriteOptions = {},
): Promise<number> {
  const dir = dirname(safe.abs);
  const name = basename(safe.abs);
  const temp = options.temp ?? tempName(name);
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const { file, mine, mode } = inFolder(root, dir, () => {
    let mode = options.mode;
    if (mode === undefined) {
      const old = _lstatHere(name);
      mode = old?.isFile && old.mode !== null ? old.mode & 0o7777 : 0o644;
    }
    const file = _createTemp(temp, mode);
    return { file, mine: file.statSync(), mode };
  });
  try {
    let done = 0;
    while (done < bytes.length) done += await file.write(bytes.subarray(done));
    await file.syncData();
    inFolder(root, dir, () => {
      const now = _lstatHere(temp);
      if (!now || !_same(now, mine)) throw _changed(root, join(dir, temp));
      if (mode !== ((now.mode ?? mode) & 0o7777)) Deno.chmodSync(temp, mode);
      Deno.renameSync(temp, name);
    });
  } catch (err) {
    await _dropTemp(root, dir, temp, mine);
    throw err;
  } finally {
    file.close();
  }
  return mode;
}

/**
 * Removes the regular file (or, with `folder`, the empty folder) at `rel` inside its pinned
 * folder. Returns false when nothing is there; a link or other kind of entry is refused.
 */
export function removeChecked(root: string, rel: string, folder = false): boolean {
  const abs = join(root, rel);
  if (abs === root || !isInside(root, abs)) throw _changed(root, abs);
  return inFolder(root, dirname(abs), () => {
    const info = _lstatHere(basename(abs));
    if (!info) return false;
    if (folder ? !info.isDirectory : !info.isFile) {
      throw new PathError(`${_show(rel)} is not a ${folder ? "folder" : "regular file"}`);
    }
    Deno.removeSync(basename(abs));
    return true;
  });
}
