/**
 * Path safety: the inner wall behind Deno's permissions. Every tool resolves every path here.
 *
 * Rules (SPEC §4): paths resolve against the root; absolute paths only inside it; no `..` escape,
 * no sibling-prefix trick, no NUL byte; no symlink (the file or any parent) whose real path leaves
 * the root; writing tools never touch `.git/` or `.localexec/`. Names are compared byte for byte:
 * no Unicode normalisation, so an NFD look-alike of the root is a different folder.
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from "./deps.ts";

/** Base class of every refusal from this module; its message is safe to show the caller. */
export class PathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PathError";
  }
}

/** The path (or the real path behind a symlink) lies outside the project root. */
export class PathOutsideRootError extends PathError {
  constructor(message: string) {
    super(message);
    this.name = "PathOutsideRootError";
  }
}

/** Writing tools may not touch this path (`.git/`, `.localexec/`). */
export class ProtectedPathError extends PathError {
  constructor(message: string) {
    super(message);
    this.name = "ProtectedPathError";
  }
}

/** A path checked against the root. */
export interface SafePath {
  /** Absolute path to use for I/O: the real path when the target exists, else real parent + name. */
  abs: string;
  /** The same path relative to the root, with `/` separators; `.` for the root itself. */
  rel: string;
  /** Whether something exists at `abs` (for a dangling link: false). */
  exists: boolean;
}

/** Folder names that writing tools never enter, at any depth. */
const PROTECTED = new Set([".git", ".localexec"]);

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
  if (!isInside(root, abs)) {
    throw new PathOutsideRootError(
      isAbsolute(input)
        ? `path ${_show(input)} is outside the project root`
        : `path ${_show(input)} escapes the project root`,
    );
  }
  return abs;
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

/** Follows a chain of symlinks by hand, so a dangling one still tells where it points. */
async function _linkTarget(link: string): Promise<string> {
  let current = link;
  for (let hops = 0; hops < 40; hops++) {
    const target = resolve(dirname(current), await Deno.readLink(current));
    const info = await _lstat(target);
    if (!info?.isSymlink) return target;
    current = target;
  }
  throw new PathError(`too many levels of symbolic links at ${_show(link)}`);
}

/**
 * Checks `input` for reading: it must resolve inside the root, and so must the real path of the
 * file and of every parent folder. A missing path is allowed (the caller reports not found).
 */
export function resolveForRead(root: string, input: string): Promise<SafePath> {
  return _resolve(root, input);
}

/**
 * Checks `input` for writing: as for reading, and the path must not lie under `.git/` or
 * `.localexec/` (by name or by where a link points). A dangling link at the target is refused
 * when it points outside; otherwise the write replaces the link itself.
 */
export async function resolveForWrite(root: string, input: string): Promise<SafePath> {
  const lexical = resolveLexically(root, input);
  _refuseProtected(toRel(root, lexical), input);
  const safe = await _resolve(root, input);
  _refuseProtected(safe.rel, input);
  if (safe.rel === ".") throw new PathError("cannot write to the project root itself");
  return safe;
}

function _refuseProtected(rel: string, input: string): void {
  for (const part of rel.split("/")) {
    if (PROTECTED.has(part.toLowerCase())) {
      throw new ProtectedPathError(
        `path ${_show(input)} is under ${part}/, which tools may not change`,
      );
    }
  }
}

async function _resolve(root: string, input: string): Promise<SafePath> {
  const abs = resolveLexically(root, input);
  // Find the deepest part of the path that exists; its real path decides.
  let existing = abs;
  const missing: string[] = [];
  let info = await _lstat(existing);
  while (!info && existing !== root) {
    missing.unshift(existing.slice(dirname(existing).length).replace(/^[/\\]/, ""));
    existing = dirname(existing);
    info = await _lstat(existing);
  }
  let real: string;
  if (info?.isSymlink) {
    try {
      real = await Deno.realPath(existing);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
      // A dangling link: judge it by where it points.
      const target = await _linkTarget(existing);
      const targetParent = await Deno.realPath(dirname(target)).catch(() => dirname(target));
      const pointsTo = join(targetParent, target.slice(dirname(target).length + 1));
      if (!isInside(root, pointsTo)) {
        throw new PathOutsideRootError(
          `path ${_show(input)} is a link that points outside the project root`,
        );
      }
      if (missing.length) throw new PathError(`path ${_show(input)} goes through a dangling link`);
      return { abs: existing, rel: toRel(root, existing), exists: false };
    }
  } else {
    real = await Deno.realPath(existing);
  }
  if (!isInside(root, real)) {
    throw new PathOutsideRootError(
      `path ${_show(input)} leads outside the project root through a link`,
    );
  }
  const full = missing.length ? join(real, ...missing) : real;
  return { abs: full, rel: toRel(root, full), exists: missing.length === 0 };
}

/**
 * Creates the missing parent folders of a checked path, one at a time, refusing to pass through
 * anything that is not a real folder inside the root.
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
