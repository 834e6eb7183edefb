/**
 * find in a process that answers one call and exits (`localexec call find`): plain text is
 * searched on the calling thread, with no worker to start (starting two costs a one-shot call
 * about 50 ms, more than its search). A regular expression still goes to the workers, whose
 * timeout stops one that backtracks; plain text cannot backtrack.
 *
 * The answer is the one a warm server gives over the same listing: the files in path order
 * (tracked and untracked merged), cut into the pool's chunks of {@linkcode CHUNK_FILES}, each
 * searched until it holds `maxResults + 1` lines, the search ending after the chunk that brings
 * the count past `maxResults` (`search.ts`); each file is read as a worker reads it (`read.ts`).
 * Two differences, where the pool's answer is not true: a chunk stopped at its limit leaves the
 * total unknown (`complete` false: "at least"), and a search that git narrowed to the files
 * holding the text counts every file of the listing when none matches (so it is not "the
 * project has no files").
 *
 * In a git work tree the tracked files are searched as `git ls-files` lists them, and git is
 * stopped once they decide the answer; then only the untracked files that sort before the last
 * tracked file read are listed (`stream.ts`), which spares the walk of the whole work tree that
 * listing every untracked file takes (a quarter of a second on 59k files), and the answer is
 * decided again over both (when git lists every tracked file first, every untracked one is
 * listed). When that is not enough to decide it (a folder cannot be read, too many names to pass
 * git, no tracked file), the whole tree is listed as a server lists it.
 */
import { globMatches, type GlobSpec } from "../glob/mod.ts";
import { grepAll, listProject } from "./list.ts";
import { CHUNK_FILES, SKIPPED_NAMED } from "./protocol.ts";
import { FileSearch } from "./read.ts";
import type { MatcherSpec } from "./scan.ts";
import { emptyOutcome, type SearchOutcome, SKIP_KINDS } from "./collect.ts";
import { TrackedStream, untrackedBefore } from "./stream.ts";
import { GREP_AFTER_MS } from "./plan.ts";
import { mayRun } from "../process/mod.ts";
import { dirname } from "../deps.ts";

/** What {@linkcode findOnce} needs besides the pattern. */
export interface OnceOptions {
  maxResults: number;
  glob?: GlobSpec;
  signal?: AbortSignal;
  useGit?: boolean;
  /** How long the search runs alone before git is asked which files hold the text (tests). */
  grepAfterMs?: number;
  /** Told what a search that lists the files does (listing, how many so far, searching). */
  progress?: (message: string) => void;
}

/** One search: the options, the glob's test and the files read so far. */
interface Run extends OnceOptions {
  root: string;
  /** The plain text sought. */
  needle: string;
  files: FileSearch;
  passes(rel: string): boolean;
}

/** How long files are searched before the event loop gets a turn (git's output). */
const TURN_MS = 2;

/**
 * The pool's answer over `paths` (sorted), when they decide it: `total` is how many files the
 * listing holds, or undefined when more may follow the last of `paths`. Undefined when the answer
 * needs files past the end of `paths`; null when `deadline` (`performance.now()`) came first.
 */
function _answer(
  run: Run,
  paths: string[],
  total?: number,
  deadline = Infinity,
): SearchOutcome | undefined | null {
  const max = run.maxResults;
  const out: SearchOutcome = emptyOutcome();
  const chunks = Math.ceil((total ?? paths.length) / CHUNK_FILES);
  for (let chunk = 0; chunk < chunks && out.found <= max; chunk++) {
    let lines = 0;
    const end = Math.min((chunk + 1) * CHUNK_FILES, total ?? Infinity);
    for (let i = chunk * CHUNK_FILES; i < end && lines <= max; i++) {
      if (i >= paths.length) return undefined; // the chunk goes on past what is known
      if (performance.now() > deadline) return null;
      const rel = paths[i];
      if (!run.passes(rel)) continue;
      out.files++;
      out.read++;
      const result = run.files.search(rel);
      if (result.skip !== undefined) {
        const kind = SKIP_KINDS[result.skip];
        out.skipped[kind]++;
        if (out.skippedFiles.length < SKIPPED_NAMED) {
          out.skippedFiles.push({ path: rel, kind, bytes: result.bytes ?? 0 });
        }
      }
      for (const line of result.lines.slice(0, max + 1 - lines)) {
        if (out.lines.length < max) {
          out.lines.push(line);
          out.paths.push(rel);
        }
        lines++;
      }
    }
    out.found += lines;
    // Without the total, only a file known past this chunk shows that another chunk follows.
    if (total === undefined && out.found > max && end >= paths.length) return undefined;
    // A chunk stopped at its limit has lines it did not count: their total is not known.
    out.complete = chunk + 1 >= chunks && lines <= max;
  }
  if (total === undefined && out.found <= max) return undefined; // (the rest may match)
  out.truncated = out.found > max;
  return out;
}

/** Merges two sorted lists. */
function _merge(a: string[], b: string[]): string[] {
  if (!b.length) return a;
  const out: string[] = [];
  let j = 0;
  for (const path of a) {
    while (j < b.length && b[j] < path) out.push(b[j++]);
    out.push(path);
  }
  return out.concat(b.slice(j));
}

/** Lets the event loop run (git's output) once this thread has searched for a while. */
function _turn(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < TURN_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    since = performance.now();
  };
}

/** Reads the rest of `stream` into `tracked`; false when git failed. */
async function _readAll(stream: TrackedStream, tracked: string[], signal?: AbortSignal) {
  for (let path = await stream.next(); path !== undefined; path = await stream.next()) {
    signal?.throwIfAborted();
    tracked.push(path);
  }
  return !stream.failed;
}

/**
 * The answer over the tracked files `git grep -l` says hold the text, and every untracked file,
 * as a warm search that takes longer than {@linkcode GREP_AFTER_MS} makes it (`warm.ts`): git
 * reads the tracked files natively, several at a time. `stream` is read to its end meanwhile.
 */
async function _grepped(
  run: Run,
  stream: TrackedStream,
  tracked: string[],
): Promise<SearchOutcome | undefined> {
  const signal = run.signal ?? new AbortController().signal;
  const [all, untracked, holding] = await Promise.all([
    _readAll(stream, tracked, signal),
    untrackedBefore(run.root, "\uffff", signal),
    grepAll(run.root, run.needle, signal),
  ]);
  if (!all || !untracked || !holding) return undefined;
  const listed = new Set(tracked); // (links and submodules are not)
  const only = _merge(holding.filter((path) => listed.has(path)).sort(), untracked);
  const answer = _answer(run, only, only.length);
  // Files git ruled out were searched too (by git), as a warm search counts them (`warm.ts`).
  if (answer && answer.complete) {
    answer.files = tracked.filter(run.passes).length + untracked.filter(run.passes).length;
  }
  return answer ?? undefined;
}

/** The answer from git's streamed listing (see the module comment), or undefined. */
async function _streamed(run: Run): Promise<SearchOutcome | undefined> {
  // The time this thread searches (not the time it waits for git) before git grep is asked.
  let left = run.grepAfterMs ?? GREP_AFTER_MS;
  const timed = (paths: string[], total?: number) => {
    const started = performance.now();
    const answer = _answer(run, paths, total, started + left);
    left -= performance.now() - started;
    return answer;
  };
  let stream: TrackedStream;
  try {
    stream = new TrackedStream(run.root);
  } catch {
    return undefined; // git cannot be started
  }
  try {
    const tracked: string[] = [];
    // Tracked files until they alone decide the answer (asked at 64, 128, 256… files), then one
    // chunk more: the untracked files among them rarely move the cut further than that.
    let want = Infinity;
    while (tracked.length < want) {
      run.signal?.throwIfAborted();
      const path = await stream.next();
      if (path === undefined) break;
      const n = tracked.push(path);
      if (want === Infinity && n >= CHUNK_FILES && (n & (n - 1)) === 0) {
        const answer = timed(tracked);
        if (answer === null) return await _grepped(run, stream, tracked);
        if (answer) want = n + CHUNK_FILES;
      }
    }
    if (stream.failed || !tracked.length) return undefined;
    const ended = stream.ended;
    // Every tracked file read: every untracked one counts too (no path sorts after U+FFFF).
    const bound = ended ? "\uffff" : tracked[tracked.length - 1];
    const untracked = await untrackedBefore(run.root, bound, run.signal);
    if (!untracked) return undefined;
    const all = _merge(tracked, untracked);
    const answer = timed(all, ended ? all.length : undefined);
    if (answer !== null) return answer;
    return await _grepped(run, stream, tracked);
  } finally {
    await stream.stop();
  }
}

/** The answer over the listing a server makes: every tracked and untracked file. */
async function _listed(run: Run): Promise<SearchOutcome> {
  run.progress?.("listing the project's files");
  const listing = await listProject(run.root, run.signal, run.useGit ?? true, run.progress);
  try {
    // While git lists the untracked files, the tracked ones are searched ahead, in order, until
    // they alone hold more lines than any answer can use.
    let untracked: string[] | undefined = listing.untracked ? undefined : [];
    listing.untracked?.then((u) => (untracked = u), () => (untracked = []));
    let ahead = 0;
    const turn = _turn();
    for (const rel of listing.files) {
      if (untracked || ahead > run.maxResults) break;
      run.signal?.throwIfAborted();
      if (run.passes(rel)) ahead += run.files.search(rel).lines.length;
      await turn();
    }
    const all = _merge(listing.files, untracked ?? await listing.untracked!);
    run.signal?.throwIfAborted();
    run.progress?.(`searching ${all.length.toLocaleString("en")} files`);
    return _answer(run, all, all.length)!;
  } finally {
    listing.cancel();
    await listing.untracked;
  }
}

/**
 * Whether git may know `root`: a `.git` in it or a folder above it, or git told where to look
 * (`GIT_DIR`). Outside a work tree, asking git (three processes that fail) cost a one-shot find
 * about 100 ms of its 0.5 s over 30,000 files.
 */
export function inGitTree(root: string): boolean {
  try {
    if (Deno.env.get("GIT_DIR")) return true;
  } catch {
    return true; // (no permission to read it: ask git, as before)
  }
  for (let dir = root;;) {
    try {
      Deno.lstatSync(`${dir}/.git`);
      return true;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) return true;
    }
    const up = dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}

/** Searches `root` for the plain text of `spec` (`spec.literal` is set); see the module comment. */
export async function findOnce(
  root: string,
  spec: MatcherSpec,
  options: OnceOptions,
): Promise<SearchOutcome> {
  const glob = options.glob;
  const globRe = glob ? new RegExp(glob.source) : undefined;
  const run: Run = {
    ...options,
    root,
    needle: spec.literal!,
    files: new FileSearch(root, spec, options.maxResults + 1),
    passes: (rel) => !globRe || globMatches(globRe, glob!, rel),
  };
  const useGit = (options.useGit ?? true) && mayRun("git") && inGitTree(root);
  if (useGit) {
    const answer = await _streamed(run);
    if (answer) return answer;
  }
  return await _listed({ ...run, useGit });
}
