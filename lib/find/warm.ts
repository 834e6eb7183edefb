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
import { type PathNames, runEnd } from "./packed.ts";
import { Recall, recallKey } from "./recall.ts";
import { byPath, mergeOutcomes, type SearchOutcome } from "./collect.ts";
import {
  type Batch,
  gitAll,
  globOrder,
  globRecalled,
  GREP_AFTER_MS,
  planFiles,
  planListing,
  planTuning,
  withUntracked,
} from "./plan.ts";
import type { SearchPool, SearchRequest } from "./search.ts";
import { type PoolListing, sortedIndex } from "./pool_listing.ts";

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

/** What every search of one {@linkcode searchKept} shares: all of a request but its batch. */
type Base = Omit<SearchRequest, "maxResults" | "batch">;

/** Searches the kept listing `kept` of `root`; see the module comment. */
export async function searchKept(
  pool: SearchPool,
  root: string,
  kept: Kept,
  spec: MatcherSpec,
  ask: KeptSearch,
): Promise<SearchOutcome> {
  const { maxResults, signal, stallMs, glob, staleStops } = ask;
  const listing = kept.listing;
  // One worker on a large listing: a second costs the server about 25 MB while it lives, and
  // where git helps, git reads the many files natively. A small listing (with summaries: see
  // protocol.ts) is often searched within a few milliseconds by two (BENCHMARKS.md, "find's
  // plan").
  const workers = listing.sums ? undefined : 1;
  const base: Base = { root, listing, spec, signal, stallMs, glob, workers, staleStops };
  if (glob && !listing.sums) {
    // A glob that passes few files of a large listing: those files alone, without git (which
    // would read the whole tree).
    const only = await globFiles(listing, glob);
    if (only.length <= SPREAD_MIN_FILES) return await _narrowGlob(pool, base, only, maxResults);
  }
  const needle = spec.literal ?? spec.prefilter;
  const after = ask.grepAfterMs ?? (allowAll() ? planTuning.grepAfterAllMs : GREP_AFTER_MS);
  // Planned when the search starts (once the searches queued before it have learnt).
  const whole = (): Batch => planListing(listing, spec, glob);
  if (
    !kept.untracked || needle === undefined || !_gitFinds(spec, needle) || !mayRun("git") ||
    after === undefined
  ) {
    return await pool.search({ ...base, maxResults, batch: whole });
  }
  // The time before git is asked counts from the workers' start.
  if (!pool.ready(workers)) await pool.warm(workers);
  const stop = new AbortController();
  const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const first = pool.search({ ...base, signal: both, maxResults, batch: whole });
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
  const outcome = await _withGit(pool, base, kept, { needle, maxResults, named });
  _remember(listing, spec, glob, outcome, named);
  return outcome;
}

/**
 * The files of a narrow glob (`only`, at most `SPREAD_MIN_FILES`), in the planner's order: those
 * where the same search matched last time first (`globRecalled`), then the others as far as the
 * answer needs (`globOrder`). A cut answer vouches for the folders of the files read, as a spread
 * search does: its lines are real, and a file added elsewhere stands with those not read; an
 * answer that is not cut must hold every match, so then every folder is checked.
 */
async function _narrowGlob(
  pool: SearchPool,
  base: Base,
  only: Int32Array,
  maxResults: number,
): Promise<SearchOutcome> {
  const { listing, spec, glob } = base;
  const known = globRecalled(listing, spec, glob!);
  let quick: SearchOutcome | undefined;
  if (known) {
    const batch = planFiles(known, { vouchOwn: true });
    quick = await pool.search({ ...base, maxResults, batch });
    if (quick.stale || quick.truncated) return { ...quick, complete: false };
    const read = new Set(known);
    only = only.filter((i) => !read.has(i));
  }
  // One line more than asked, so that the file of the line past the cut is remembered too.
  const more = maxResults + 1;
  const batch = planFiles(globOrder(listing, spec, only), { vouchOwn: true });
  const rest = byPath(
    await pool.search({ ...base, maxResults: more - (quick?.found ?? 0), batch }),
  );
  const outcome = quick ? mergeOutcomes(quick, rest, more) : rest;
  _remember(listing, spec, glob, outcome, []);
  const cut = {
    ...outcome,
    lines: outcome.lines.slice(0, maxResults),
    paths: outcome.paths.slice(0, maxResults),
    truncated: outcome.found > maxResults,
  };
  return await _vouched(pool, base, cut);
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
 * Whether `git grep -l -F [-i] needle` names every file where `spec` can match: always for exact
 * case; with ignore_case only for ASCII text without the `u` flag, where JavaScript folds an ASCII
 * letter only to ASCII ones, as git's `-i` does (with `u`, `k` also matches the Kelvin sign).
 */
function _gitFinds(spec: MatcherSpec, needle: string): boolean {
  if (!spec.flags.includes("i")) return true;
  return !spec.flags.includes("u") && /^[\x20-\x7e]+$/.test(needle);
}

/** What {@linkcode _withGit} searches for, and where it notes every file git named. */
interface GitAsk {
  needle: string;
  maxResults: number;
  /** Every file git named (they hold the text), for when the order is in doubt. */
  named: number[];
}

/**
 * The search over the files `git grep -l` names and the untracked ones. Git names files in index
 * order, the listing's own: each batch it names is searched as it comes, with the untracked files
 * that sort before the batch's last (`withUntracked`), and git is stopped as soon as the lines
 * found, all in order, are more than `maxResults` (a rare word's first 30 need not wait for the
 * whole tree). Should git's order ever differ from the listing's (a path beyond the Basic
 * Multilingual Plane sorts differently), the files are gathered and searched once git is done.
 */
async function _withGit(
  pool: SearchPool,
  base: Base,
  kept: Kept,
  ask: GitAsk,
): Promise<SearchOutcome> {
  const { maxResults, named } = ask;
  const { root, spec, signal } = base;
  const files = kept.listing.names;
  const untracked = kept.untracked!;
  const stopGit = new AbortController();
  const grep = grepFiles(
    root,
    ask.needle,
    signal ? AbortSignal.any([signal, stopGit.signal]) : stopGit.signal,
    spec.flags.includes("i"),
  );
  let outcome: SearchOutcome | undefined;
  let last = -1; // the listing's last file that git has named
  let u = 0; // the next untracked file (index into `untracked`)
  let ordered = true;
  // The searches of what git names vouch for their own files' folders: a cut answer needs no
  // more (its lines are real; a file added elsewhere stands with those not read), and an answer
  // that is not cut checks every folder at the end (BENCHMARKS.md, "find's plan").
  const part = async (indices: number[], through: number) => {
    const batch = planFiles(Int32Array.from(indices), { vouchOwn: true });
    const next = await pool.search({ ...base, maxResults, batch });
    outcome = outcome ? mergeOutcomes(outcome, next, maxResults) : next;
    last = through;
  };
  let step: IteratorResult<string[], boolean>;
  try {
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
      if (!ordered || !batch.length) continue;
      const taken = withUntracked(batch, untracked, u);
      u = taken.next;
      await part(taken.files, batch.at(-1)!);
      if (outcome!.found > maxResults || outcome!.stale) {
        stopGit.abort(); // enough in order (or the listing must be made again)
        return { ...outcome!, complete: false };
      }
    }
  } finally {
    stopGit.abort();
    await grep.return(false).catch(() => false);
  }
  if (signal?.aborted) throw new DOMException("cancelled", "AbortError");
  if (!step.value) {
    // git failed: every file, as without git.
    const batch = planListing(kept.listing, spec, base.glob);
    return await pool.search({ ...base, workers: undefined, maxResults, batch });
  }
  if (!ordered) {
    outcome = undefined;
    await part(gitAll(named, untracked), files.length - 1);
  } else await part([...untracked.subarray(u)], files.length - 1);
  return await _vouched(pool, base, await _counted(outcome!, kept.listing, base.glob));
}

/**
 * `outcome`, of a search over part of the listing whose chunks vouched for their own files only:
 * when it is not cut (it must hold every match), every folder of the listing is checked too, and
 * a change makes it stale (the listing is made again).
 */
async function _vouched(
  pool: SearchPool,
  base: Base,
  outcome: SearchOutcome,
): Promise<SearchOutcome> {
  if (!outcome.complete || outcome.stale) return outcome;
  const vouch: [number, number] = [0, base.listing.names.length - 1];
  const batch = planFiles(new Int32Array(0), { vouch });
  const check = await pool.search({ ...base, maxResults: 0, batch });
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
