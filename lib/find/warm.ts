/**
 * A search over a kept listing (see `mod.ts`), with git's help for plain text in a git work tree.
 *
 * Under any Deno preset short of `-A`, every file find opens costs a resolution of its real path,
 * more than reading it; `git grep -l` reads the tracked files natively instead. So a search that
 * has not answered within {@linkcode GREP_AFTER_MS} (most first-30 searches have) is stopped,
 * `git grep -l` lists the tracked files that hold the pattern's text (the whole pattern, or the
 * text a regular expression requires), and the search starts again over those files and the
 * untracked ones only: same matching, same order (with ignore_case, `git grep -i` for ASCII text;
 * see `_gitFinds`). Each part searched vouches for the folders of
 * its own files (a cut answer's lines are real, as the files are now), and an answer that is not
 * cut for every folder of the listing. On a listing large enough to be searched in a spread (see `SPREAD_MIN_FILES`), the
 * files of the lines git's route found are remembered for the pattern: its next search reads them
 * first (`recall.ts`) and often answers before git is asked again.
 *
 * Under `-A` (every permission granted) Deno opens a file without resolving its real path, and a
 * first-30 search in the spread order answers in a few to a few tens of milliseconds, which git's
 * path order often cannot (a word whose first files sort late); but a search that must read the
 * whole tree (no match, or fewer matches than asked) is faster with git's threads than with one
 * worker (59k-file tree, quiet: `git grep -l` 0.46–0.63 s, the worker 1.0–1.1 s, `rg -n` 0.8–1.0
 * s). So under `-A` git is asked too, only later: after {@linkcode GREP_AFTER_MS_ALL}, and only on a
 * machine of more than two cores (on two, this thread reads beside the worker, `help.ts`).
 *
 * A `glob` that passes at most `SPREAD_MIN_FILES` files of a large listing: those files alone
 * ({@linkcode globFiles}), in path order, without git, which would read the whole tree.
 */
import { globParts, type GlobSpec, nameSuffixes } from "../glob/mod.ts";
import { yielding } from "./walk.ts";
import { grepFiles } from "./list.ts";
import { mayRun } from "../process/mod.ts";
import type { MatcherSpec } from "./scan.ts";
import { SPREAD_MIN_FILES } from "./protocol.ts";
import { bestFirst } from "./weights.ts";
import { type PathNames, runEnd } from "./packed.ts";
import { Recall, recallKey } from "./recall.ts";
import {
  mergeOutcomes,
  type PoolListing,
  type SearchOptions,
  type SearchOutcome,
  type SearchPool,
  sketchHeld,
  sortedIndex,
  weightsOf,
} from "./search.ts";

/** How long a search over a kept listing runs alone before git is asked for the files. */
export const GREP_AFTER_MS = 20;

/**
 * The same under `-A`, on a machine of more than two cores: past the first-30 searches of the
 * spread order (their first search on the 59k-file tree 5–40 ms at load 1, their repeats under
 * 25 ms), short of most of a full scan. On two cores, never: this thread reads beside the worker
 * (`help.ts`), two readers as git has two threads, and the switch wastes what was read (no-match
 * full scan of the 59k-file tree: 640–660 ms without git, 940–980 with it; rg 850–1,070).
 */
export const GREP_AFTER_MS_ALL = 150;

/** {@linkcode GREP_AFTER_MS_ALL} on a machine of `cores` cores: undefined (never) on two or fewer. */
export function grepAfterAllOn(cores: number): number | undefined {
  return cores > 2 ? GREP_AFTER_MS_ALL : undefined;
}

const _afterAll = () => grepAfterAllOn(navigator.hardwareConcurrency || 1);

let _grepAfterAll = _afterAll();

/** Tests: {@linkcode GREP_AFTER_MS_ALL} set to `ms` until the returned function puts it back. */
export function setGrepAfterAllForTests(ms: number): () => void {
  _grepAfterAll = ms;
  return () => void (_grepAfterAll = _afterAll());
}

/** A listing kept for the next call, and what vouches for it besides its folders. */
export interface Kept {
  listing: PoolListing;
  /** The git index file and its identity when the listing was made. */
  index?: { path: string; id: string };
  /** With git: the untracked files, as sorted indices into the listing. */
  untracked?: Int32Array;
}

/** What one search asks. */
export interface KeptSearch {
  maxResults: number;
  stallMs?: number;
  signal?: AbortSignal;
  glob?: GlobSpec;
  /** Overrides {@linkcode GREP_AFTER_MS} and {@linkcode GREP_AFTER_MS_ALL} (tests). */
  grepAfterMs?: number;
  /** A chunk found stale ends the search (see {@linkcode SearchOptions.staleStops}). */
  staleStops?: boolean;
}

/** Every permission is granted (`-A`): see the module comment. */
export function allowAll(): boolean {
  try {
    return Deno.permissions.querySync({ name: "ffi" }).state === "granted" &&
      Deno.permissions.querySync({ name: "sys" }).state === "granted";
  } catch {
    return false;
  }
}

/** Sorted indices into `files` (sorted) of `paths`, with `more` added. */
export function indicesOf(files: string[], paths: Iterable<string>, more: Int32Array): Int32Array {
  const out = new Set<number>(more);
  for (const path of paths) {
    const at = _indexOf(files, path);
    if (at >= 0) out.add(at);
  }
  return Int32Array.from([...out].sort((a, b) => a - b));
}

/** Searches the kept listing `kept` of `root`; see the module comment. */
export async function searchKept(
  pool: SearchPool,
  root: string,
  kept: Kept,
  spec: MatcherSpec,
  ask: KeptSearch,
): Promise<SearchOutcome> {
  const { maxResults, signal, stallMs, glob, staleStops } = ask;
  const needle = spec.literal ?? spec.prefilter;
  // One worker on a large listing: a second costs the server about 25 MB while it lives (+68 to
  // +78 MB over idle after 50 finds on the 59k-file tree, against +45 with one), and where git
  // helps, git reads the many files natively. A small listing (with summaries: see protocol.ts)
  // is often searched within a few milliseconds by two.
  const workers = kept.listing.sums ? undefined : 1;
  if (glob && !kept.listing.sums) {
    // A glob that passes few files of a large listing: those files alone, without git (which
    // would read the whole tree: `TypeError` in `*.py` took 1.3 s, rg 45 ms), the best first
    // when git's index gave their sizes (`bestFirst`: in the 441 Python files of the 59k-file
    // tree, `TypeError`'s first 31 lines took 256 files in path order), else in path order.
    // A cut answer vouches for the folders of the files read, as a spread search does (the whole
    // tree's took 90 ms): its lines are real, and a file added elsewhere stands with those not
    // read; an answer that is not cut must hold every match, so then every folder is checked.
    // The files where the same search matched last time (`recall.ts`) go first, then the others
    // as far as the answer needs.
    let only = await globFiles(kept.listing, glob);
    if (only.length <= SPREAD_MIN_FILES) {
      const one = { signal, stallMs, glob, workers, staleStops };
      const known = kept.listing.recall?.files(recallKey(spec, glob));
      let quick: SearchOutcome | undefined;
      if (known) {
        const first = Int32Array.from(known).sort();
        quick = await pool.search(root, kept.listing, spec, maxResults, {
          ...one,
          only: first,
          vouchOwn: true,
        });
        if (quick.stale || quick.truncated) return { ...quick, complete: false };
        const read = new Set(first);
        only = only.filter((i) => !read.has(i));
      }
      // One line more than asked, so that the file of the line past the cut is remembered too.
      const more = maxResults + 1;
      // The files whose sketches hold the text first (`sketchHeld`: `TypeError` in `*.py` on the
      // 59k-file tree, 31 files read against 50), then the others, each the best first.
      const sizes = weightsOf(kept.listing)?.sizes;
      const held = sketchHeld(kept.listing, spec, only) ?? new Int32Array();
      const first = new Set(held);
      const best = (files: Int32Array) => sizes ? bestFirst(files, sizes) : files;
      const rest = byPath(
        await pool.search(root, kept.listing, spec, more - (quick?.found ?? 0), {
          ...one,
          only: Int32Array.from([...best(held), ...best(only.filter((i) => !first.has(i)))]),
          vouchOwn: true,
        }),
      );
      const outcome = quick ? mergeOutcomes(quick, rest, more) : rest;
      _remember(kept.listing, spec, glob, outcome, []);
      const cut = {
        ...outcome,
        lines: outcome.lines.slice(0, maxResults),
        paths: outcome.paths.slice(0, maxResults),
        truncated: outcome.found > maxResults,
      };
      return await _vouched(pool, root, kept.listing, spec, one, cut);
    }
  }
  const after = ask.grepAfterMs ?? (allowAll() ? _grepAfterAll : GREP_AFTER_MS);
  if (
    !kept.untracked || needle === undefined || !_gitFinds(spec, needle) || !mayRun("git") ||
    after === undefined
  ) {
    return await pool.search(root, kept.listing, spec, maxResults, {
      signal,
      stallMs,
      glob,
      workers,
      staleStops,
    });
  }
  // The time before git is asked counts from the workers' start.
  if (!pool.ready(workers)) await pool.warm(workers);
  const stop = new AbortController();
  const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const one = { stallMs, glob, workers, staleStops };
  const first = pool.search(root, kept.listing, spec, maxResults, { ...one, signal: both });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise((resolve) => {
    timer = setTimeout(resolve, after, "late");
  });
  const winner = await Promise.race([first.then(() => "first", () => "first"), late]);
  clearTimeout(timer);
  if (winner === "first") return await first;
  // Not answered yet: git gets the machine to itself (on two cores, sharing them costs both).
  stop.abort();
  await first.catch(() => {});
  if (signal?.aborted) throw new DOMException("cancelled", "AbortError");
  const named: number[] = [];
  const outcome = await _withGit(pool, root, kept, spec, needle, {
    ...one,
    signal,
    maxResults,
  }, named);
  _remember(kept.listing, spec, glob, outcome, named);
  return outcome;
}

/** `outcome` with its lines in path order (a file's own lines kept in their order). */
export function byPath(outcome: SearchOutcome): SearchOutcome {
  const order = outcome.paths.map((_, k) => k).sort((a, b) =>
    outcome.paths[a] < outcome.paths[b] ? -1 : outcome.paths[a] > outcome.paths[b] ? 1 : a - b
  );
  return {
    ...outcome,
    lines: order.map((k) => outcome.lines[k]),
    paths: order.map((k) => outcome.paths[k]),
  };
}

/**
 * What git's route found, remembered as a spread search remembers what it finds (`recall.ts`):
 * the files of the answer's lines (the most lines first), then the other files git named that
 * were searched (they hold the text); the next search of the pattern reads those files first and
 * often answers before git is asked.
 */
function _remember(
  listing: PoolListing,
  spec: MatcherSpec,
  glob: GlobSpec | undefined,
  outcome: SearchOutcome,
  named: number[],
): void {
  if (outcome.stale || listing.names.length <= SPREAD_MIN_FILES) return;
  const lines: { at: number; bytes: number }[] = [];
  // Sizes unknown: the files go by their lines (a file named by git and not in the answer, one).
  for (const path of outcome.paths) {
    const at = listing.names.indexOf(path);
    if (at >= 0) lines.push({ at, bytes: 0 });
  }
  for (const at of named) lines.push({ at, bytes: 0 });
  (listing.recall ??= new Recall()).remember(recallKey(spec, glob), lines, spec);
}

/** Globs whose files are kept per listing (the latest first out). */
const GLOBS_KEPT = 8;

const _globbed = new WeakMap<PoolListing, Map<string, Int32Array>>();

/**
 * The sorted indices of the files of `listing` that `glob` passes (exactly `globMatches`), kept
 * for the listing's next searches with the same glob, yielding every few thousand paths. Quick
 * tests stand for the expression where they give its answer (`globParts`: `*.py` is `endsWith`,
 * no `slice` per path); a folder's verdict is taken once (its parent's, then its own name or
 * path), only where a quick test of the path says one may pass, and a folder that passes takes in
 * all the paths below it at once; an anchored glob with literal starts (`src/**\/*.ts`) tests
 * only the paths with those starts (ranges of the sorted listing). The 53k paths of the 59k-file
 * tree, medians of 9 calls at load 2–3 (the first call of a fresh process, medians of 7, in
 * brackets), before → after: `*.py` 25–55 (45–75) → 3–6 (12–15) ms, `*.{ts,tsx}` 30–40 (40–50)
 * → 5–11 (25–28), `**\/test/*.py` 55–100 (60–100) → 5–8 (8–15).
 */
export async function globFiles(listing: PoolListing, glob: GlobSpec): Promise<Int32Array> {
  const key = `${glob.negate ? "!" : ""}${glob.anchored ? "/" : ""}${glob.source}`;
  const kept = _globbed.get(listing) ?? new Map<string, Int32Array>();
  _globbed.set(listing, kept);
  const known = kept.get(key);
  if (known) return known;
  // `*.py`, `*.{ts,tsx}`: a test of the listing's bytes (`PathNames.withSuffix`), no string made.
  // (`**/*.py` too: the same paths, see `nameSuffixes`.)
  const suffixes = nameSuffixes(glob.source, glob.anchored);
  const out = suffixes
    ? listing.names.withSuffix(suffixes, glob.negate)
    : await _globScan(listing.names, glob);
  kept.set(key, out);
  for (const old of kept.keys()) {
    if (kept.size <= GLOBS_KEPT) break;
    kept.delete(old);
  }
  return out;
}

/**
 * The sorted indices of a listing's paths (`names`) that `glob` passes: see {@linkcode globFiles}.
 * The paths are decoded at once, a range at a time: all of them (6–12 ms on the 59k-file tree),
 * or, for an anchored glob with literal starts (`mypy/**`, `src/**\/*.ts`), only those ranges,
 * found by halving (`mypy/**`, 1.9k paths of the 53k: 27–40 ms → 4).
 */
async function _globScan(names: PathNames, glob: GlobSpec): Promise<Int32Array> {
  const { anchored, negate } = glob;
  const parts = globParts(glob.source);
  // Unanchored, the whole path is tested only if the expression can match a `/` (`**`).
  const wholeToo = !anchored && parts.slash;
  // A folder's highest folder that passes (itself or above), or null: everything below it passes.
  const tops = new Map<string, string | null>();
  const topOf = (dir: string): string | null => {
    let top = tops.get(dir);
    if (top === undefined) {
      const cut = dir.lastIndexOf("/");
      top = cut >= 0 ? topOf(dir.slice(0, cut)) : null;
      if (top === null && (anchored ? parts.whole(dir) : parts.name(dir, cut + 1))) top = dir;
      tops.set(dir, top);
    }
    return top;
  };
  // Anchored, every path that passes starts with one of the expression's literal starts.
  const count = names.length;
  const ranges = anchored && parts.starts.length ? _ranges(names, parts.starts) : [[0, count]];
  const at = new Int32Array(
    negate ? count : ranges.reduce((sum, [lo, hi]) => sum + hi - lo, 0),
  );
  let n = 0;
  let dir: string | undefined;
  let top: string | null = null;
  // The paths of the range at hand (`base` is the first's index in the listing).
  let files: string[] = [];
  let base = 0;
  // The paths from `from` on, short of `to` (or past it, below a folder that passes, short of
  // `hi`): a function of its own, as V8 compiles a loop while it runs in one, never in a
  // generator. (First call, fresh process, `*.py` on the 59k-file tree: 47 ms in the generator,
  // 15 in this.)
  const scan = (from: number, to: number, hi: number): number => {
    let i = from;
    while (i < to) {
      const rel = files[i];
      // A name glob tests the name first (cheap: `*.py` is `endsWith`), and a path that passes
      // needs no look at its folders; a path glob (a regular expression, most often) tests its
      // folders first, whose verdict takes in every path below a folder that passes (`src/**`).
      if (!anchored && (parts.last(rel) || wholeToo && parts.whole(rel))) {
        if (!negate) at[n++] = base + i;
        i++;
        continue;
      }
      const slash = parts.folders(rel) ? rel.lastIndexOf("/") : -1;
      if (slash >= 0) {
        const folder = rel.slice(0, slash);
        if (folder !== dir) {
          dir = folder;
          top = topOf(dir);
        }
        if (top !== null) {
          // A folder that passes: all the paths below it, at once (they are contiguous).
          const key = `${top}/`;
          const end = runEnd(i, hi, (k) => files[k].startsWith(key));
          if (!negate) { while (i < end) at[n++] = base + i++; }
          i = end;
          continue;
        }
      }
      if (anchored && parts.whole(rel) !== negate || !anchored && negate) at[n++] = base + i;
      i++;
    }
    return i;
  };
  return await yielding((function* () {
    let done = 0;
    for (const [lo, hi] of ranges) {
      if (negate) { while (done < lo) at[n++] = done++; }
      files = names.slice(lo, hi);
      base = lo;
      const size = hi - lo;
      for (let i = 0; i < size; yield) i = scan(i, Math.min(size, i + YIELD_PATHS), size);
      done = hi;
    }
    if (negate) { while (done < count) at[n++] = done++; }
    return at.slice(0, n);
  })());
}

/** Paths {@linkcode globFiles} tests between two chances for the event loop to run. */
const YIELD_PATHS = 4096;

/** The ranges of a listing's paths (`names`) that start with one of `starts`, in order, apart. */
function _ranges(names: PathNames, starts: string[]): [number, number][] {
  const ranges = starts.map((start): [number, number] => {
    const lo = names.seek(start);
    return [lo, names.prefixEnd(start, lo)];
  }).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of ranges) {
    const last = out[out.length - 1];
    if (last && lo <= last[1]) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** Index of `path` in the sorted `files`, or -1 (links and submodules are not listed). */
function _indexOf(files: string[], path: string): number {
  const at = sortedIndex(files, path);
  return files[at] === path ? at : -1;
}

/**
 * The search over the files `git grep -l` names and the untracked ones. Git names files in index
 * order, the listing's own: each batch it names is searched as it comes, with the untracked files
 * that sort before the batch's last, and git is stopped as soon as the lines found, all in order,
 * are more than `maxResults` (a rare word's first 30 need not wait for the whole tree). Should
 * git's order ever differ from the listing's (a path beyond the Basic Multilingual Plane sorts
 * differently), the files are gathered and searched once git is done.
 */
/**
 * Whether `git grep -l -F [-i] needle` names every file where `spec` can match: always for exact
 * case; with ignore_case only for ASCII text without the `u` flag, where JavaScript folds an ASCII
 * letter only to ASCII ones, as git's `-i` does (with `u`, `k` also matches the Kelvin sign).
 */
function _gitFinds(spec: MatcherSpec, needle: string): boolean {
  if (!spec.flags.includes("i")) return true;
  return !spec.flags.includes("u") && /^[\x20-\x7e]+$/.test(needle);
}

async function _withGit(
  pool: SearchPool,
  root: string,
  kept: Kept,
  spec: MatcherSpec,
  needle: string,
  ask: Omit<SearchOptions, "only"> & { maxResults: number },
  named: number[] = [],
): Promise<SearchOutcome> {
  const { maxResults, ...options } = ask;
  const files = kept.listing.names;
  const untracked = kept.untracked!;
  const stopGit = new AbortController();
  const grep = grepFiles(
    root,
    needle,
    ask.signal ? AbortSignal.any([ask.signal, stopGit.signal]) : stopGit.signal,
    spec.flags.includes("i"),
  );
  let outcome: SearchOutcome | undefined;
  let last = -1; // the listing's last file that git has named
  let u = 0; // the next untracked file (index into `untracked`)
  let ordered = true;
  // `named`: every file git named (they hold the text), for when the order is in doubt.
  const part = async (indices: number[], through: number) => {
    const only = Int32Array.from(indices);
    const next = await pool.search(root, kept.listing, spec, maxResults, {
      ...options,
      only,
      vouchOwn: true,
    });
    outcome = outcome ? mergeOutcomes(outcome, next, maxResults) : next;
    last = through;
  };
  let step: IteratorResult<string[], boolean>;
  try {
    // The searches of what git names vouch for their own files' folders: a cut answer needs no
    // more (its lines are real; a file added elsewhere stands with those not read), and an answer
    // that is not cut checks every folder at the end (checked first, while git read, they held
    // a rare word's first 30 back 50–300 ms).
    for (step = await grep.next(); !step.done; step = await grep.next()) {
      const batch: number[] = [];
      for (const path of step.value) {
        // Named in the listing's order: looked for after the last one first.
        let i = files.indexOf(path, (batch.at(-1) ?? last) + 1);
        if (i < 0) i = files.indexOf(path);
        if (i < 0) continue;
        if (i <= (batch.at(-1) ?? last)) ordered = false;
        batch.push(i);
        named.push(i);
      }
      if (!ordered) continue;
      if (!batch.length) continue;
      const through = batch.at(-1)!;
      while (u < untracked.length && untracked[u] < through) batch.push(untracked[u++]);
      await part(batch.sort((a, b) => a - b), through);
      if (outcome!.found > maxResults || outcome!.stale) {
        stopGit.abort(); // enough in order (or the listing must be made again)
        return { ...outcome!, complete: false };
      }
    }
  } finally {
    stopGit.abort();
    await grep.return(false).catch(() => false);
  }
  if (ask.signal?.aborted) throw new DOMException("cancelled", "AbortError");
  if (!step.value) {
    // git failed: every file, as without git.
    const { signal, stallMs, glob, staleStops } = ask;
    return await pool.search(root, kept.listing, spec, maxResults, {
      signal,
      stallMs,
      glob,
      staleStops,
    });
  }
  if (!ordered) {
    last = -1;
    outcome = undefined;
    const all = Int32Array.from(new Set([...named, ...untracked])).sort();
    await part([...all], files.length - 1);
  } else await part([...untracked.subarray(u)], files.length - 1);
  return await _vouched(
    pool,
    root,
    kept.listing,
    spec,
    options,
    await _counted(outcome!, kept.listing, ask.glob),
  );
}

/**
 * `outcome`, of a search over part of `listing` whose chunks vouched for their own files only:
 * when it is not cut (it must hold every match), every folder of the listing is checked too, and
 * a change makes it stale (the listing is made again).
 */
async function _vouched(
  pool: SearchPool,
  root: string,
  listing: PoolListing,
  spec: MatcherSpec,
  options: Omit<SearchOptions, "only">,
  outcome: SearchOutcome,
): Promise<SearchOutcome> {
  if (!outcome.complete || outcome.stale) return outcome;
  const check = await pool.search(root, listing, spec, 0, {
    ...options,
    only: new Int32Array(0),
    vouch: [0, listing.names.length - 1],
  });
  return check.stale ? { ...outcome, stale: true, complete: false } : outcome;
}

/**
 * `outcome` of a search git helped, once every file is accounted for: the files git ruled out
 * were searched too (by git), so `files` counts the whole listing (that passes the glob), and a
 * search that found nothing does not look like a search of no file.
 */
async function _counted(
  outcome: SearchOutcome,
  listing: PoolListing,
  glob?: GlobSpec,
): Promise<SearchOutcome> {
  if (!outcome.complete) return outcome;
  // The glob's files as `globFiles` keeps them (each path through globMatches: 40–60 ms).
  const count = glob ? (await globFiles(listing, glob)).length : listing.names.length;
  return { ...outcome, files: count };
}
