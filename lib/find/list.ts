/**
 * Which files find searches: git's own listing when the root is a git work tree and this process
 * may run `git`, otherwise find's `.gitignore`-aware walk. Either way `.git/` and `.localexec/` are
 * left out, symbolic links are not followed, and every list comes back sorted (a stable order).
 *
 * With git, the tracked files come from the index at once (tens of milliseconds even on huge
 * trees), while the untracked, not ignored files, which need a walk of the work tree, are listed
 * in the background: the search can start on the tracked files meanwhile.
 *
 * A listing also says what vouches for it, so a warm server can reuse it (`cache.ts`): git's index
 * (its size, time and inode), the ignore files, and every folder that holds a listed file (or an
 * untracked, empty one, or only ignored files): a file created, removed or renamed changes its
 * folder's modification time.
 */
import { PROTECTED_NAMES } from "../paths.ts";
import { gitChunks, gitEntries, gitOutput, gitStream, mayRun } from "../process/mod.ts";
import { sortYielding, walkProject, yielding } from "./walk.ts";

/** The listing and where it came from. */
export interface Listing {
  /** The files to search first, sorted. */
  files: string[];
  /** With git: the untracked files, sorted, still being listed. */
  untracked?: Promise<string[]>;
  /** Stops listing the untracked files (their promise then resolves empty). */
  cancel(): void;
  source: "git" | "walk";
  /** Absolute paths whose modification times vouch for the listing (folders, ignore files). */
  checks: Promise<string[]>;
  /** The git index file, whose identity vouches for the tracked files; with git only. */
  index?: Promise<string | undefined>;
  /** `Date.now()` just before listing started. */
  startedAt: number;
}

/** Modes of index entries that are not regular files: symbolic links and submodules. */
export const NOT_FILES = new Set(["120000", "160000"]);

/** A path inside a folder find never searches (`.git/`, `.localexec/`). */
export function skippedPath(path: string): boolean {
  const slash = path.indexOf("/");
  if (PROTECTED_NAMES.has(slash < 0 ? path : path.slice(0, slash))) return true;
  for (const name of PROTECTED_NAMES) if (path.includes(`/${name}/`)) return true;
  return false;
}

/** `path` is a regular file (not a link, not gone). */
export function isRegularFile(path: string): boolean {
  try {
    return Deno.lstatSync(path).isFile;
  } catch {
    return false;
  }
}

/** Runs `git ARGS` in `root` with literal pathspecs: the NUL-separated entries, or undefined. */
function _git(root: string, args: string[], signal: AbortSignal): Promise<string[] | undefined> {
  return gitEntries(root, ["--literal-pathspecs", ...args], { signal });
}

const _decoder = new TextDecoder();

/** Bytes `from`..`to` of `bytes` as a string of its own (not a slice of a larger one). */
function _text(bytes: Uint8Array, from: number, to: number): string {
  for (let k = from; k < to; k++) {
    if (bytes[k] > 127) return _decoder.decode(bytes.subarray(from, to));
  }
  return String.fromCharCode.apply(null, bytes.subarray(from, to) as unknown as number[]);
}

/**
 * The tracked regular files, from `git ls-files` entries (`mode<TAB>path` or, from `-s`,
 * `mode object stage<TAB>path`, each ending in NUL), read from the bytes as git writes them: each
 * path is a string of its own, and no buffer holds the whole output (a 4.6 MB allocation, freed,
 * made glibc keep the next ones, and 13 MB, in the server). Undefined when git fails. The
 * submodules (gitlinks) go to `modules`, as folders ending in "/".
 */
async function _tracked(
  chunks: AsyncGenerator<Uint8Array, boolean>,
  modules: string[],
): Promise<string[] | undefined> {
  const files: string[] = [];
  let last = "";
  let rest = new Uint8Array(0);
  const entry = (out: Uint8Array, start: number, end: number) => {
    const tab = out.indexOf(9, start);
    if (tab <= start || tab >= end) return;
    const mode = String.fromCharCode(...out.subarray(start, start + 6));
    if (NOT_FILES.has(mode)) {
      if (mode === "160000") modules.push(`${_text(out, tab + 1, end)}/`);
      return;
    }
    const path = _text(out, tab + 1, end);
    // A conflicted file has one entry per stage.
    if (path !== last && !skippedPath(path)) files.push(path);
    last = path;
  };
  let step: IteratorResult<Uint8Array, boolean>;
  while (!(step = await chunks.next()).done) {
    let out = step.value;
    if (rest.length) {
      out = new Uint8Array(rest.length + step.value.length);
      out.set(rest);
      out.set(step.value, rest.length);
    }
    let start = 0;
    for (let end = out.indexOf(0); end >= 0; end = out.indexOf(0, start)) {
      entry(out, start, end);
      start = end + 1;
    }
    rest = out.slice(start);
  }
  if (!step.value) return undefined;
  if (rest.length) entry(rest, 0, rest.length);
  return files;
}

/** Whether this git knows `ls-files --format` (2.38 and later); found out on first use. */
let _formatWorks: boolean | undefined;

/**
 * The tracked files, from the index's entries (mode and path; no object names, which double it);
 * the submodules go to `modules`.
 */
async function _index(
  root: string,
  signal: AbortSignal,
  modules: string[],
): Promise<string[] | undefined> {
  const base = ["--literal-pathspecs", "ls-files", "-c", "-z"];
  if (_formatWorks !== false) {
    const format = "--format=%(objectmode)%x09%(path)";
    const files = await _tracked(gitChunks(root, [...base, format], { signal }), modules);
    if (files || signal.aborted) {
      if (files) _formatWorks = true;
      return files;
    }
  }
  modules.length = 0;
  const files = await _tracked(gitChunks(root, [...base, "-s"], { signal }), modules);
  if (files && _formatWorks === undefined) _formatWorks = false;
  return files;
}

/** The untracked files worth searching: regular files (not links), outside skipped folders. */
function _untracked(root: string, entries: string[]): string[] {
  return entries.filter((path) =>
    !path.endsWith("/") && !skippedPath(path) && isRegularFile(`${root}/${path}`)
  ).sort();
}

/** Files looked at between two chances for the event loop to run (a few milliseconds). */
const VOUCH_SLICE = 4096;

/**
 * Every folder holding one of `files`, with its parents, and the ignore files among them; yields
 * every {@linkcode VOUCH_SLICE} files (run it with `yielding`).
 */
function* _vouchers(root: string, files: string[], more: string[]): Generator<void, string[]> {
  const dirs = new Set<string>([""]);
  const out: string[] = [];
  let last = ""; // the folder of the previous file, with its "/": most files share it
  for (let k = 0; k < files.length; k++) {
    if (k % VOUCH_SLICE === VOUCH_SLICE - 1) yield;
    const file = files[k];
    let slash = file.lastIndexOf("/");
    if (file.endsWith(".gitignore") && (slash < 0 || file.slice(slash + 1) === ".gitignore")) {
      out.push(`${root}/${file}`);
    }
    if (slash + 1 === last.length && file.startsWith(last)) continue; // (no string made)
    last = file.slice(0, slash + 1);
    while (slash > 0) {
      const dir = file.slice(0, slash);
      if (dirs.has(dir)) break;
      dirs.add(dir);
      slash = dir.lastIndexOf("/");
    }
  }
  for (const dir of more) dirs.add(dir);
  for (const dir of dirs) out.push(dir ? `${root}/${dir}` : root);
  return out;
}

/** Folders looked at between two chances for the event loop to run. */
const HOLDER_SLICE = 1024;
/** At most this many folders that no listed file vouches for are watched. */
const MAX_HOLDERS = 4096;

/**
 * Of the folders in `checks` (absolute, from {@linkcode _vouchers}), those holding a folder that is
 * not among them: on Linux a folder's link count is 2 and one per folder inside it (ext4, XFS,
 * tmpfs; btrfs says 1, and macOS counts files too), so only a folder holding more folders than the
 * listing names is read. Returns those unnamed folders (relative). Yields every
 * {@linkcode HOLDER_SLICE}.
 */
function* _unnamed(root: string, checks: string[]): Generator<void, string[]> {
  if (Deno.build.os !== "linux") return [];
  const dirs = new Set<string>();
  for (const check of checks) {
    if (check === root) dirs.add("");
    else if (!check.endsWith("/.gitignore")) dirs.add(check.slice(root.length + 1));
  }
  const inside = new Map<string, number>();
  for (const dir of dirs) {
    if (dir) {
      const parent = dir.slice(0, Math.max(0, dir.lastIndexOf("/")));
      inside.set(parent, (inside.get(parent) ?? 0) + 1);
    }
  }
  const found: string[] = [];
  let k = 0;
  for (const dir of dirs) {
    if (++k % HOLDER_SLICE === 0) yield;
    const abs = dir ? `${root}/${dir}` : root;
    try {
      const links = Deno.lstatSync(abs).nlink ?? 0;
      if (links < 2 || links - 2 <= (inside.get(dir) ?? 0)) continue;
      for (const entry of Deno.readDirSync(abs)) {
        const path = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory && !dirs.has(path) && !skippedPath(path)) found.push(path);
      }
    } catch {
      // gone, or not readable: nothing to watch
    }
  }
  return found;
}

/** `dirs` (relative) and every folder inside them, absolute, up to {@linkcode MAX_HOLDERS}. */
function* _within(root: string, dirs: string[]): Generator<void, string[]> {
  const out: string[] = [];
  const queue = [...dirs];
  for (let k = 0; k < queue.length && out.length < MAX_HOLDERS; k++) {
    if (k % HOLDER_SLICE === HOLDER_SLICE - 1) yield;
    const abs = `${root}/${queue[k]}`;
    out.push(abs);
    try {
      for (const entry of Deno.readDirSync(abs)) {
        if (entry.isDirectory && !PROTECTED_NAMES.has(entry.name)) {
          queue.push(`${queue[k]}/${entry.name}`);
        }
      }
    } catch {
      // gone, or not readable
    }
  }
  return out;
}

/**
 * The folders that no listed file vouches for and that are not ignored whole, with every folder
 * inside them (a folder holding only ignored files, `logs/` for `*.log`, and its `logs/deep/er/`):
 * a file created there is listed, so their modification times vouch too. `git check-ignore` tells
 * the folders ignored whole (`node_modules/`), where what is created is ignored too.
 */
async function _holders(root: string, checks: string[], signal: AbortSignal): Promise<string[]> {
  const unnamed = (await yielding(_unnamed(root, checks))).slice(0, MAX_HOLDERS);
  if (!unnamed.length || signal.aborted) return [];
  const ignored = await ignoredFolders(root, unnamed, signal);
  if (!ignored) return []; // stopped, or git failed: watched as before
  return await yielding(_within(root, unnamed.filter((dir) => !ignored.has(dir))));
}

/**
 * Of the folders `dirs` (relative to `root`), those git ignores whole (`node_modules`), by `git
 * check-ignore`; undefined when git fails or is stopped. (`-z` needs `--stdin`; a path git would
 * quote is not matched, and so is taken as not ignored.)
 */
export async function ignoredFolders(
  root: string,
  dirs: string[],
  signal?: AbortSignal,
): Promise<Set<string> | undefined> {
  const args = ["-c", "core.quotepath=off", "check-ignore", "--", ...dirs.map((d) => `${d}/`)];
  const out = await gitOutput(root, args, { signal, emptyOnExit1: true });
  if (!out) return undefined;
  const lines = new TextDecoder().decode(out).split("\n").filter((line) => line.endsWith("/"));
  return new Set(lines.map((line) => line.slice(0, -1)));
}

/**
 * The untracked files worth searching (not ignored, regular files) directly in each of `folders`
 * (relative to `root`, "" for the root itself), sorted, as git lists them now; undefined when git
 * fails. Files in the folders inside are not listed.
 */
export async function untrackedIn(
  root: string,
  folders: string[],
  signal?: AbortSignal,
): Promise<string[] | undefined> {
  // A glob pathspec's `*` stops at a `/`; the folder's own name is taken literally.
  const specs = folders.map((d) => `:(glob)${d ? `${d.replace(/[*?[\\]/g, "\\$&")}/` : ""}*`);
  const args = ["ls-files", "-o", "--exclude-standard", "-z", "--", ...specs];
  const entries = await gitEntries(root, args, { signal });
  return entries && _untracked(root, entries);
}

/** How deep repositories inside repositories are followed (a clone in a clone in …). */
const MAX_NESTING = 8;

/** Whether `path` holds a `.git` (a folder, or the file a submodule's checkout has). */
function _isRepository(path: string): boolean {
  try {
    Deno.lstatSync(`${path}/.git`);
    return true;
  } catch {
    return false;
  }
}

/** The checked-out submodules of the repository at `root`/`dir` (`dir` empty or ending in "/"). */
async function _submodules(root: string, dir: string, signal: AbortSignal): Promise<string[]> {
  if (!isRegularFile(`${root}/${dir}.gitmodules`)) return [];
  const args = ["config", "-z", "-f", ".gitmodules", "--get-regexp", "^submodule\\..*\\.path$"];
  const entries = await gitEntries(`${root}/${dir}`, args, { signal }) ?? [];
  return entries.map((e) => `${dir}${e.slice(e.indexOf("\n") + 1)}/`)
    .filter((path) => !skippedPath(path) && _isRepository(`${root}/${path}`));
}

/**
 * The files of the repositories inside a listed one, each listed by its own git (its tracked and
 * untracked files, not those it ignores), with the repositories inside those: `repos` are their
 * folders, each ending in "/". Git names such a folder (a clone not added) as one entry, `clone/`.
 */
async function _nested(
  root: string,
  repos: string[],
  signal: AbortSignal,
  depth = 1,
): Promise<string[]> {
  const files: string[] = [];
  for (const repo of repos) {
    if (depth > MAX_NESTING || signal.aborted || !_isRepository(`${root}/${repo}`)) continue;
    const args = ["--literal-pathspecs", "ls-files", "-co", "--exclude-standard", "-z"];
    const entries = await gitEntries(`${root}/${repo}`, args, { signal }) ?? [];
    const inner = await _submodules(root, repo, signal);
    for (const entry of entries) (entry.endsWith("/") ? inner : files).push(`${repo}${entry}`);
    files.push(...await _nested(root, inner, signal, depth + 1));
  }
  return files;
}

/**
 * Untracked files and untracked folders (empty ones too, so a file created there later is
 * noticed): git lists wholly untracked folders as `dir/`, whose files a second, narrow call lists;
 * a repository inside (a clone not added, or one of the checked-out submodules `modules` names)
 * is listed by its own git.
 */
async function _others(
  root: string,
  signal: AbortSignal,
  modules: Promise<string[]>,
): Promise<{ files: string[]; dirs: string[] } | undefined> {
  const base = ["ls-files", "-o", "--exclude-standard", "-z"];
  const entries = await _git(root, [...base, "--directory"], signal);
  if (!entries) return undefined;
  const dirs = entries.filter((e) => e.endsWith("/") && !skippedPath(e)).map((e) => e.slice(0, -1));
  let files = entries.filter((e) => !e.endsWith("/"));
  const repos = [...await modules];
  if (dirs.length) {
    const inner = await _git(root, [...base, "--", ...dirs.map((d) => `${d}/`)], signal) ?? [];
    for (const entry of inner) (entry.endsWith("/") ? repos : files).push(entry);
  }
  files = files.concat(await _nested(root, repos.filter((r) => !skippedPath(r)), signal));
  return { files: _untracked(root, files), dirs };
}

/**
 * Lists the files find should search under `root`. `useGit: false` forces the walk (as when git
 * may not be run).
 */
export async function listProject(
  root: string,
  signal?: AbortSignal,
  useGit = true,
  progress?: (message: string) => void,
): Promise<Listing> {
  const startedAt = Date.now();
  if (useGit && mayRun("git")) {
    const stop = new AbortController();
    const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    const modules: string[] = [];
    const indexed = _index(root, both, modules);
    const others = _others(root, both, indexed.then(() => modules));
    const gitDir = _git(root, ["rev-parse", "--absolute-git-dir"], both)
      .then((out) => out?.[0]?.split("\n")[0] || undefined);
    const index = await indexed;
    if (index) {
      const files = index.sort();
      const untracked = others.then((o) => o?.files ?? []);
      const listing = {
        source: "git" as const,
        startedAt,
        index: gitDir.then((d) => (d ? `${d}/index` : undefined)),
        checks: Promise.all([gitDir, others]).then(async ([d, o]) => {
          const out = await yielding(
            _vouchers(root, [...files, ...(o?.files ?? [])], o?.dirs ?? []),
          );
          return [...out, ...await _holders(root, out, both), ...(d ? [`${d}/info/exclude`] : [])];
        }),
      };
      if (files.length) return { ...listing, files, untracked, cancel: () => stop.abort() };
      // No tracked file: the untracked ones, or (if git ignores the root itself) the walk.
      const rest = await untracked;
      if (rest.length) return { ...listing, files: rest, cancel: () => {} };
    } else {
      stop.abort();
      await others;
      await gitDir;
    }
  }
  const dirs: string[] = [];
  const files = await sortYielding(await walkProject(root, signal, dirs, progress));
  return {
    files,
    cancel: () => {},
    source: "walk",
    startedAt,
    // Not all at once: 100,000 files held the thread for 25–115 ms (a call beside it waited).
    checks: yielding(_vouchers(root, files, dirs)).then((out) => [
      ...out,
      `${root}/.git/info/exclude`,
    ]),
  };
}

/**
 * The tracked files whose work-tree text holds `needle` (bytes, case-sensitive), by `git grep -l`:
 * git reads them natively, several at a time, and names them in index order. Yields them in
 * batches as git names them; returns false when git fails (true when it ends, found or not).
 */
export function grepFiles(
  root: string,
  needle: string,
  signal: AbortSignal,
  ignoreCase = false,
): AsyncGenerator<string[], boolean> {
  return gitStream(
    root,
    ["grep", "-l", "-z", "-F", ...(ignoreCase ? ["-i"] : []), "--no-color", "-e", needle],
    { signal, emptyOnExit1: true },
  );
}

/** Every file {@linkcode grepFiles} names, once git is done; undefined when git fails. */
export async function grepAll(
  root: string,
  needle: string,
  signal: AbortSignal,
): Promise<string[] | undefined> {
  const files: string[] = [];
  const grep = grepFiles(root, needle, signal);
  let step: IteratorResult<string[], boolean>;
  while (!(step = await grep.next()).done) files.push(...step.value);
  return step.value ? files : undefined;
}
