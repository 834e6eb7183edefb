/**
 * Which files find searches: git's own listing when the root is a git work tree and this process
 * may run `git`, otherwise find's `.gitignore`-aware walk. Either way `.git/` and `.localexec/` are
 * left out, symbolic links are not followed, and every list comes back sorted (a stable order).
 *
 * With git, the tracked files come from the index at once (tens of milliseconds even on huge
 * trees), while the untracked, not ignored files, which need a walk of the work tree, are listed
 * in the background: the search can start on the tracked files meanwhile.
 */
import { PROTECTED_NAMES } from "../paths.ts";
import { gitEntries, mayRun } from "../process.ts";
import { walkProject } from "./walk.ts";

/** The listing and where it came from. */
export interface Listing {
  /** The files to search first, sorted. */
  files: string[];
  /** With git: the untracked files, sorted, still being listed. */
  untracked?: Promise<string[]>;
  /** Stops listing the untracked files (their promise then resolves empty). */
  cancel(): void;
  source: "git" | "walk";
}

/** Modes of index entries that are not regular files: symbolic links and submodules. */
const NOT_FILES = new Set(["120000", "160000"]);

function _skipped(path: string): boolean {
  const slash = path.indexOf("/");
  if (PROTECTED_NAMES.has(slash < 0 ? path : path.slice(0, slash))) return true;
  for (const name of PROTECTED_NAMES) if (path.includes(`/${name}/`)) return true;
  return false;
}

function _isRegularFile(path: string): boolean {
  try {
    return Deno.lstatSync(path).isFile;
  } catch {
    return false;
  }
}

/** Runs `git ls-files ARGS -z` in `root`: the NUL-separated entries, or undefined on failure. */
function _git(root: string, args: string[], signal: AbortSignal): Promise<string[] | undefined> {
  return gitEntries(root, ["ls-files", ...args, "-z"], signal);
}

/** The tracked regular files, from `git ls-files -s` entries (`mode object stage<TAB>path`). */
function _tracked(entries: string[]): string[] {
  const files: string[] = [];
  let last = "";
  for (const entry of entries) {
    const tab = entry.indexOf("\t");
    if (tab < 0 || NOT_FILES.has(entry.slice(0, 6))) continue;
    const path = entry.slice(tab + 1);
    if (path === last || _skipped(path)) continue; // a conflicted file has one entry per stage
    files.push(path);
    last = path;
  }
  return files;
}

/** The untracked files worth searching: regular files (not links), outside skipped folders. */
function _untracked(root: string, entries: string[]): string[] {
  return entries.filter((path) =>
    !path.endsWith("/") && !_skipped(path) && _isRegularFile(`${root}/${path}`)
  ).sort();
}

/**
 * Lists the files find should search under `root`. `useGit: false` forces the walk (as when git
 * may not be run).
 */
export async function listProject(
  root: string,
  signal?: AbortSignal,
  useGit = true,
): Promise<Listing> {
  if (useGit && mayRun("git")) {
    const stop = new AbortController();
    const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    const others = _git(root, ["-o", "--exclude-standard"], both);
    const index = await _git(root, ["-s", "-c"], both);
    if (index) {
      const files = _tracked(index).sort();
      const untracked = others.then((entries) => _untracked(root, entries ?? []));
      if (files.length) {
        return { files, untracked, cancel: () => stop.abort(), source: "git" };
      }
      // No tracked file: the untracked ones, or (if git ignores the root itself) the walk.
      const rest = await untracked;
      if (rest.length) return { files: rest, cancel: () => {}, source: "git" };
    } else {
      stop.abort();
      await others;
    }
  }
  return { files: (await walkProject(root, signal)).sort(), cancel: () => {}, source: "walk" };
}
