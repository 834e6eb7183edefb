/**
 * File I/O that cannot be led out of the root: atomic writes, and reads and writes checked against
 * what was actually opened, not only the path resolved before.
 *
 * `lib/paths.ts` proves that a path's real location lies inside the root, but a name can change
 * between that check and its use (a folder swapped for a link out of the root). Deno has no
 * `openat` or `O_NOFOLLOW`, and it turns every relative path into an absolute one before the
 * system call, so a folder cannot be pinned by `chdir` either. What cannot be swapped is an open
 * handle: after each open, the kernel is asked where the handle really is (`/proc/self/fd`, whose
 * link text is the path the kernel used), and anything but the checked path is refused. Where
 * `/proc` cannot be read (macOS, or anything short of `-A`: Deno reads `/proc/self` only with every
 * permission, so the read and edit presets and scoped flags), the check falls back to
 * comparing the handle's device and inode with an `lstat` of the path and re-checking the real
 * path of its folder, which a swap timed twice in a few microseconds can still defeat.
 *
 * Checked writes create the temporary file with `createNew` (which refuses anything already there,
 * a link included) and the umask cleared (so no `chmod` by name follows), check where it was made,
 * write through the handle, rename it over the target, and check that the handle now sits at the
 * target. A mismatch removes what was created (after checking it is still ours) and refuses with a
 * `PathError` whose reason is `changed`.
 *
 * Requires `--allow-read` for the root (and `--allow-write` to write); `-A` (the full preset)
 * gives the exact check through `/proc/self/fd`.
 */
import { basename, dirname, join, relative, sep } from "./deps.ts";
import { PATH_REASONS, PathError } from "./errors.ts";
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

function _lstat(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    throw err;
  }
}

/** Whether `/proc/self/fd` can be read (Linux under `-A`); found out once. */
let _procReadable: boolean | undefined;

/**
 * Where the kernel says the open file `info` (its handle's `stat`) is: the link text of every
 * `/proc/self/fd` entry open on the same device and inode. Undefined where `/proc` cannot be read:
 * Deno refuses it unless every permission is granted.
 */
function _kernelPaths(info: Deno.FileInfo): string[] | undefined {
  if (_procReadable === false) return undefined;
  let names: string[];
  try {
    names = [...Deno.readDirSync("/proc/self/fd")].map((e) => e.name);
    _procReadable = true;
  } catch {
    _procReadable = false;
    return undefined;
  }
  const out: string[] = [];
  for (const name of names.sort((a, b) => Number(b) - Number(a))) {
    const fd = `/proc/self/fd/${name}`;
    try {
      if (_same(Deno.statSync(fd), info)) out.push(Deno.readLinkSync(fd));
    } catch {
      // closed meanwhile, or not a file
    }
  }
  return out;
}

/**
 * How often the fallback check looks again: each round must see every folder on the way as the
 * same real folder and the name as the opened file, so a swapper must alternate in step with
 * every one of these lookups to pass.
 */
const ROUNDS = 12;

/** Looks of one kind in a row within a round: 1 to this many, drawn at random. */
const MAX_LOOKS = 3;

/** The real folders from `root` (exclusive) down to `dir`, as `lstat` sees them now. */
function _chain(root: string, dir: string): Deno.FileInfo[] | undefined {
  const out: Deno.FileInfo[] = [];
  const rel = relative(root, dir);
  let current = root;
  for (const part of rel === "" ? [] : rel.split(sep)) {
    current = join(current, part);
    const info = _lstat(current);
    if (!info?.isDirectory) return undefined; // a link (or nothing) where a folder was
    out.push(info);
  }
  return out;
}

/**
 * Throws unless the open handle with `info` is the file at `abs`: by the kernel's own record when
 * it can be read; else by {@linkcode ROUNDS} rounds of `lstat` of `abs` (the same device and inode,
 * not a link) and of every folder above it up to the root (the same real folders each round).
 */
function _proveAt(root: string, abs: string, info: Deno.FileInfo): void {
  const paths = _kernelPaths(info);
  if (paths) {
    if (!paths.includes(abs)) throw _changed(root, abs);
    return;
  }
  const first = _chain(root, dirname(abs));
  if (!first) throw _changed(root, abs);
  const leaf = () => {
    const here = _lstat(abs);
    if (!here || here.isSymlink || !_same(here, info)) throw _changed(root, abs);
  };
  const folders = () => {
    const now = _chain(root, dirname(abs));
    if (!now || now.some((d, i) => !_same(d, first[i]))) throw _changed(root, abs);
  };
  // Race handled: a swapper flipping a folder between a real one and a link in a tight loop can
  // fall in step with lookups that simply alternate (seen: 1 read in 200 passed). Each round looks
  // at the name and at the folders a random number of times in a row, in a random order, so no
  // rhythm of swaps can make every look see what it must.
  for (let round = 0; round < ROUNDS; round++) {
    const looks = [leaf, folders];
    if (Math.random() < 0.5) looks.reverse();
    for (const look of looks) {
      for (let n = 1 + Math.floor(Math.random() * MAX_LOOKS); n > 0; n--) look();
    }
  }
}

/**
 * Test-only: `false` makes every check take the `lstat` fallback, as where `/proc` cannot be read
 * (macOS, every preset short of `--allow-all`); `undefined` finds out again at the next check.
 */
export function setProcCheckForTests(readable: false | undefined): void {
  _procReadable = readable;
}

/**
 * Throws a `changed` {@linkcode PathError} unless the open handle whose `stat` is `info` is the
 * entry at `abs` inside `root` (what every checked read and write proves after its open).
 */
export function proveHandleAt(root: string, abs: string, info: Deno.FileInfo): void {
  _proveAt(root, abs, info);
}

/**
 * Opens the checked file `safe` for reading and proves that the handle is the file at `safe.abs`
 * inside the root. Only a regular file is opened (a FIFO would block the process).
 */
export function openChecked(root: string, safe: SafePath): Deno.FsFile {
  const seen = _lstat(safe.abs);
  if (!seen) throw new Deno.errors.NotFound(`${_show(safe.rel)} does not exist`);
  if (seen.isSymlink) throw _changed(root, safe.abs);
  if (!seen.isFile) throw new PathError(`${_show(safe.rel)} is not a regular file`);
  const file = Deno.openSync(safe.abs, { read: true });
  try {
    const info = file.statSync();
    if (!info.isFile) throw _changed(root, safe.abs);
    _proveAt(root, safe.abs, info);
    return file;
  } catch (err) {
    file.close();
    throw err;
  }
}

/** Reads the whole checked file `safe` through a proven handle. */
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
 * Creates the missing folders above the checked path `safe`, one at a time, each proven (through
 * an open handle) to be where it was meant to be. `onCreate` hears each folder and the unique
 * temporary name it is first made under (both project-relative) before either exists, so a caller
 * can record them first. Refuses anything on the way that is not a real folder inside the root; a
 * folder made elsewhere by a lost race is removed again.
 */
export async function makeParents(
  root: string,
  safe: SafePath,
  onCreate?: (rel: string, temp: string) => Promise<void> | void,
): Promise<string[]> {
  const rel = relative(root, dirname(safe.abs));
  const made: string[] = [];
  if (rel === "") return made;
  let current = root;
  for (const part of rel.split(sep)) {
    current = join(current, part);
    const info = _lstat(current);
    if (info?.isDirectory) continue;
    if (info?.isSymlink) throw _changed(root, current);
    if (info) throw new PathError(`${_show(toRel(root, current))} is not a folder`);
    const temp = join(dirname(current), tempName(basename(current)));
    await onCreate?.(toRel(root, current), toRel(root, temp));
    await _makeFolder(root, current, temp);
    made.push(toRel(root, current));
  }
  return made;
}

/**
 * Makes the folder `abs`: first under the unique temporary name `temp` (next to it), proven
 * through an open handle to be where it was meant to be, then renamed into place and proven again.
 * What a lost race made elsewhere is found by its unique name and removed.
 */
async function _makeFolder(root: string, abs: string, temp: string): Promise<void> {
  try {
    Deno.mkdirSync(temp);
    pauseForTest("folder-temp-made");
    _proveOpen(root, temp);
    try {
      Deno.renameSync(temp, abs);
    } catch (err) {
      // Made meanwhile by someone else (not empty, or not a folder): use theirs if it is a folder.
      if (!(err instanceof Deno.errors.AlreadyExists) && !_isNotEmpty(err)) throw err;
      await _dropUnique(temp);
    }
    _proveOpen(root, abs);
  } catch (err) {
    await _dropUnique(temp);
    throw err;
  }
}

function _isNotEmpty(err: unknown): boolean {
  return err instanceof Error && /not empty|directory not empty/i.test(err.message);
}

/** Opens `abs` (a file or a folder) and proves the handle is the entry there. */
function _proveOpen(root: string, abs: string): void {
  const handle = Deno.openSync(abs, { read: true });
  try {
    _proveAt(root, abs, handle.statSync());
  } finally {
    handle.close();
  }
}

/** How long a failed write keeps looking for its temporary entry while names are swapped. */
const DROP_ATTEMPTS = 100;

/**
 * Removes the entry at `path`, whose name is unique to this call (from {@linkcode tempName}),
 * wherever a swapped folder makes that name lead: it is looked for again and again for a while,
 * since the swapper may move the folder that holds it back and forth.
 */
async function _dropUnique(path: string): Promise<void> {
  for (let attempt = 0; attempt < DROP_ATTEMPTS; attempt++) {
    try {
      Deno.removeSync(path);
      // Gone from where the name leads now; look once more in case a swap shows another place.
      if (!_lstat(path)) return;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) return; // not ours to force (say, not empty)
    }
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** The environment variable that names a step to stop at (fault tests only). */
export const PAUSE_VAR = "LOCALEXEC_TEST_PAUSE_AT";
let _pauseAt: string | undefined | null = null;
const _pauseSeen = new Map<string, number>();

/**
 * A hook for the fault tests: when {@linkcode PAUSE_VAR} is `step` (or `step:n`, its n-th time),
 * the process stops itself (SIGSTOP) right there, so a test can SIGKILL it at exactly that step.
 * Does nothing otherwise, or where the variable cannot be read or the process cannot signal itself.
 */
export function pauseForTest(step: string): void {
  if (_pauseAt === null) {
    try {
      const granted = Deno.permissions.querySync({ name: "env", variable: PAUSE_VAR });
      _pauseAt = granted.state === "granted" ? Deno.env.get(PAUSE_VAR) : undefined;
    } catch {
      _pauseAt = undefined;
    }
  }
  if (!_pauseAt) return;
  const [name, nth] = _pauseAt.split(":");
  if (name !== step) return;
  const seen = (_pauseSeen.get(step) ?? 0) + 1;
  _pauseSeen.set(step, seen);
  if (seen !== Number(nth ?? 1)) return;
  try {
    Deno.kill(Deno.pid, "SIGSTOP");
  } catch {
    // no run permission: no pause
  }
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
  /**
   * Runs right before the rename that puts the file in place, with nothing slow after it; throws
   * to give up the write (the temporary file is removed and the error passed on). A conditional
   * write checks here that the target still holds what it expects.
   */
  precondition?: () => void;
}

function _createTemp(path: string, mode: number): Deno.FsFile {
  let mask: number | undefined;
  try {
    mask = Deno.umask(0); // the file gets exactly `mode`, with no chmod by name afterwards
  } catch {
    mask = undefined;
  }
  try {
    return Deno.openSync(path, { write: true, createNew: true, mode });
  } finally {
    if (mask !== undefined) Deno.umask(mask);
  }
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
  const temp = join(dir, options.temp ?? tempName(basename(safe.abs)));
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  let mode = options.mode;
  if (mode === undefined) {
    const old = _lstat(safe.abs);
    mode = old?.isFile && old.mode !== null ? old.mode & 0o7777 : 0o644;
  }
  const file = _createTemp(temp, mode);
  const mine = file.statSync();
  try {
    _proveAt(root, temp, mine);
    let done = 0;
    while (done < bytes.length) done += await file.write(bytes.subarray(done));
    await file.syncData();
    pauseForTest("file-temp-made");
    _proveAt(root, temp, mine);
    if (mode !== ((file.statSync().mode ?? mode) & 0o7777)) Deno.chmodSync(temp, mode);
    options.precondition?.();
    Deno.renameSync(temp, safe.abs);
    try {
      _proveAt(root, safe.abs, file.statSync());
    } catch (err) {
      // The kernel looks up the two folders of a rename one after the other, and a swap in
      // between moves the file to the other folder (Deno offers no renameat). Wherever it went,
      // empty it through the handle so its content is nowhere but in the caller's hands.
      await file.truncate(0).catch(() => {});
      throw err;
    }
  } catch (err) {
    file.close();
    await _dropUnique(temp);
    throw err;
  }
  file.close();
  return mode;
}

/**
 * Removes the regular file (or, with `folder`, the empty folder) at `rel`, after proving through
 * an open handle that the name still leads to it inside the root. Returns false when nothing is
 * there; a link or other kind of entry is refused.
 */
export function removeChecked(root: string, rel: string, folder = false): boolean {
  const abs = join(root, rel);
  if (abs === root || !isInside(root, abs)) throw _changed(root, abs);
  const seen = _lstat(abs);
  if (!seen) return false;
  if (folder ? !seen.isDirectory : !seen.isFile) {
    throw new PathError(`${_show(rel)} is not a ${folder ? "folder" : "regular file"}`);
  }
  _proveOpen(root, abs);
  Deno.removeSync(abs);
  return true;
}
