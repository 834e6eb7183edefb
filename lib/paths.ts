/**
 * Path safety: the inner wall behind Deno's permissions. Every tool resolves every path here.
 *
 * Rules (docs/ARCHITECTURE.md, "Paths"): paths resolve against the root; absolute paths only inside it; no `..` escape,
 * no sibling-prefix trick, no NUL byte; no symlink (the file or any parent) whose real path leaves
 * the root; writing tools never touch `.git/` or `.localexec/`. Names are compared byte for byte:
 * no Unicode normalisation, so an NFD look-alike of the root is a different folder.
 *
 * The input is normalised lexically first (`a/../b` is `b`), then walked one name at a time from
 * the root with the kernel's rules for symlinks: each link's text is expanded where it stands, so
 * `..` inside a link's text climbs from the link's real folder. Every prefix the caller named must
 * have its real path inside the root. A dangling link is judged by where it points: a write
 * through it creates its target, which must lie inside the root.
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from "./deps.ts";
import {
  isPermissionError,
  PathError,
  PathOutsideRootError,
  ProtectedPathError,
} from "./errors.ts";

export { PathError, PathOutsideRootError, ProtectedPathError };

/** A path checked against the root. */
export interface SafePath {
  /**
   * Absolute path to use for I/O: the real path when the target exists; else the real path of
   * its deepest existing folder plus the missing names (for a dangling link: where it points).
   */
  abs: string;
  /** The same path relative to the root, with `/` separators; `.` for the root itself. */
  rel: string;
  /** Whether something exists at `abs`. */
  exists: boolean;
}

/** The folder at the root where localexec keeps task records, backups, patches and logs. */
export const STORE_NAME = ".localexec";

/**
 * Folder names that writing tools never enter, at any depth (compared case-insensitively), and
 * that `find` never searches.
 */
export const PROTECTED_NAMES: ReadonlySet<string> = new Set([".git", STORE_NAME]);

/** Symlinks followed in one path before giving up, as the kernel does. */
const MAX_HOPS = 40;

function _show(p: string): string {
  return JSON.stringify(p.length > 120 ? `${p.slice(0, 120)}…` : p);
}

/** True when `abs` is `root` or lies below it (a real prefix, not a sibling such as `root2`). */
export function isInside(root: string, abs: string): boolean {
  if (abs === root) return true;
  const base = root.endsWith(sep) ? root : root + sep;
  return abs.startsWith(base);
}

/** `abs` relative to `root` with `/` separators, `.` for the root itself. */
export function toRel(root: string, abs: string): string {
  const r = relative(root, abs);
  return r === "" ? "." : r.split(sep).join("/");
}

/**
 * Resolves `input` against `root` without touching the disk, refusing NUL bytes, escapes by `..`
 * and absolute paths outside the root. Returns the absolute, normalised path.
 */
export function resolveLexically(root: string, input: string): string {
  if (typeof input !== "string") throw new PathError("path must be a string");
  if (input.includes("\0")) throw new PathError("path contains a NUL byte");
  const abs = resolve(root, input === "" ? "." : input);
  _refuseTooLong(abs, input);
  if (!isInside(root, abs)) {
    throw new PathOutsideRootError(
      isAbsolute(input)
        ? `path ${_show(input)} is outside the project root`
        : `path ${_show(input)} escapes the project root`,
    );
  }
  return abs;
}

/** Longest file name and longest path the OS accepts (Linux and macOS limits, in bytes). */
const NAME_MAX = 255;
const PATH_MAX = 4095;

function _refuseTooLong(abs: string, input: string): void {
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  if (_parts(abs).some((name) => bytes(name) > NAME_MAX)) {
    throw new PathError(`path ${_show(input)} has a name longer than ${NAME_MAX} bytes`);
  }
  if (bytes(abs) > PATH_MAX) {
    throw new PathError(`path ${_show(input)} is longer than ${PATH_MAX} bytes in all`);
  }
}

async function _lstat(p: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(p);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    throw err;
  }
}

function _parts(p: string): string[] {
  return p.split(sep).filter((s) => s !== "");
}

function _join(parts: string[]): string {
  return sep + parts.join(sep);
}

/** Where a walk got to: the real folders so far, and the names that do not exist (if any). */
interface Walk {
  real: string[];
  missing: string[];
  hops: number;
}

/** What a walk checks against: the root (when strict) and the caller's input for messages. */
interface Guard {
  root?: string;
  input: string;
}

/**
 * `lstat` for the walk. Under Deno permissions scoped to the root, a link that leads outside
 * fails with NotCapable (or the OS with PermissionDenied); when strict, that is the refusal.
 */
async function _look(here: string, guard: Guard): Promise<Deno.FileInfo | undefined> {
  try {
    return await _lstat(here);
  } catch (err) {
    if (isPermissionError(err) && guard.root && !isInside(guard.root, here)) {
      throw _leaves(guard.input);
    }
    throw err;
  }
}

/**
 * Walks `names` from the real folder `real` as the kernel would, expanding symlinks in place.
 * Stops at the first name that does not exist and returns it with everything after it.
 */
async function _walk(real: string[], names: string[], hops: number, guard: Guard): Promise<Walk> {
  const stack = [...real];
  const queue = [...names];
  while (queue.length) {
    const name = queue.shift()!;
    if (name === "." || name === "") continue;
    if (name === "..") {
      stack.pop();
      continue;
    }
    const here = _join([...stack, name]);
    const info = await _look(here, guard);
    if (!info) return { real: stack, missing: [name, ...queue], hops };
    if (info.isSymlink) {
      if (++hops > MAX_HOPS) throw _tooManyLinks(guard.input);
      const text = await Deno.readLink(here);
      if (isAbsolute(text)) stack.length = 0;
      queue.unshift(..._parts(text));
      continue;
    }
    stack.push(name);
  }
  return { real: stack, missing: [], hops };
}

/**
 * Finds the real path behind `abs` (a normalised absolute path), checking after each name that
 * the real path so far lies inside `root` when `strict`.
 */
async function _trace(root: string, abs: string, strict: boolean, input: string) {
  const names = strict ? _parts(relative(root, abs)) : _parts(abs);
  let walk: Walk = { real: strict ? _parts(root) : [], missing: [], hops: 0 };
  const guard = { root: strict ? root : undefined, input };
  for (let i = 0; i < names.length; i++) {
    walk = await _walk(walk.real, [names[i]], walk.hops, guard);
    if (walk.missing.length) {
      const full = resolve(_join(walk.real), ...walk.missing, ...names.slice(i + 1));
      if (strict && !isInside(root, full)) throw _leaves(input);
      return { abs: full, exists: false };
    }
    if (strict && !isInside(root, _join(walk.real))) throw _leaves(input);
  }
  return { abs: _join(walk.real), exists: true };
}

function _leaves(input: string): PathOutsideRootError {
  return new PathOutsideRootError(
    `path ${_show(input)} leads outside the project root through a link`,
  );
}

/**
 * The lexical absolute path of `input`. An absolute path that names the root through a link
 * (for example `/tmp/x` when the root is `/private/tmp/x`) is accepted when its real path lies
 * inside the root; every other path outside is refused.
 */
async function _anchor(root: string, input: string): Promise<string> {
  try {
    return resolveLexically(root, input);
  } catch (err) {
    if (!(err instanceof PathOutsideRootError) || !isAbsolute(input)) throw err;
    const real = await _trace(root, resolve(input), false, input).catch(() => undefined);
    if (real && isInside(root, real.abs)) return real.abs;
    throw err;
  }
}

async function _resolve(root: string, input: string, write: boolean): Promise<SafePath> {
  try {
    const lexical = await _anchor(root, input);
    if (write) _refuseProtected(toRel(root, lexical), input);
    const found = await _trace(root, lexical, true, input);
    return { abs: found.abs, rel: toRel(root, found.abs), exists: found.exists };
  } catch (err) {
    throw err instanceof Deno.errors.FilesystemLoop ? _tooManyLinks(input) : err;
  }
}

/**
 * Checks `input` for reading: it must resolve inside the root, and so must the real path of the
 * file and of every parent folder. A missing path is allowed (the caller reports not found).
 */
export function resolveForRead(root: string, input: string): Promise<SafePath> {
  return _resolve(root, input, false);
}

/**
 * Checks `input` for writing: as for reading, and the path must not lie under `.git/` or
 * `.localexec/`, neither as named nor where its links lead. A link at the target is written
 * through to its real target (which must lie inside the root, and may not exist yet).
 */
export async function resolveForWrite(root: string, input: string): Promise<SafePath> {
  const safe = await _resolve(root, input, true);
  _refuseProtected(safe.rel, input);
  if (safe.rel === ".") throw new PathError("cannot write to the project root itself");
  return safe;
}

function _tooManyLinks(input: string): PathError {
  return new PathError(`path ${_show(input)} has too many levels of symbolic links`);
}

function _refuseProtected(rel: string, input: string): void {
  for (const part of rel.split("/")) {
    if (PROTECTED_NAMES.has(part.toLowerCase())) {
      throw new ProtectedPathError(
        `path ${_show(input)} is under ${part}/, which tools may not change`,
      );
    }
  }
}

/**
 * Creates the missing parent folders of a checked path, one at a time, refusing to pass through
 * anything that is not a real folder inside the root (a link planted after the check included).
 */
export async function ensureParent(root: string, safe: SafePath): Promise<void> {
  const parent = dirname(safe.abs);
  const rel = relative(root, parent);
  if (rel === "") return;
  let current = root;
  for (const part of rel.split(sep)) {
    current = join(current, part);
    const info = await _lstat(current);
    if (!info) {
      await Deno.mkdir(current);
    } else if (info.isSymlink) {
      const real = await Deno.realPath(current);
      if (!isInside(root, real)) {
        throw new PathOutsideRootError(
          `folder ${_show(toRel(root, current))} leads outside the project root`,
        );
      }
      if (!(await Deno.stat(real)).isDirectory) {
        throw new PathError(`${_show(toRel(root, current))} is not a folder`);
      }
    } else if (!info.isDirectory) {
      throw new PathError(`${_show(toRel(root, current))} is not a folder`);
    }
  }
}
