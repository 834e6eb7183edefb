/**
 * A search over a kept listing (see `mod.ts`), with git's help for plain text in a git work tree.
 *
 * Under any Deno preset short of `-A`, every file find opens costs a resolution of its real path,
 * more than reading it; `git grep -l` reads the tracked files natively instead. So a search that
 * has not answered within {@linkcode GREP_AFTER_MS} (most first-30 searches have) is stopped,
 * `git grep -l` lists the tracked files that hold the pattern's text (the whole pattern, or the
 * text a regular expression requires), and the search starts again over those files and the
 * untracked ones only: same matching, same order, same checks of the folders that vouch for the
 * listing.
 */
import type { GlobSpec } from "./glob.ts";
import { grepFiles } from "./list.ts";
import { mayRun } from "../process.ts";
import type { MatcherSpec } from "./scan.ts";
import type { PoolListing, SearchOutcome, SearchPool } from "./search.ts";

/** How long a search over a kept listing runs alone before git is asked for the files. */
export const GREP_AFTER_MS = 20;

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
  /** Overrides {@linkcode GREP_AFTER_MS} (tests). */
  grepAfterMs?: number;
}

/** Sorted indices into `files` (sorted) of `paths`, with `more` added. */
export function indicesOf(files: string[], paths: Iterable<string>, more: Int32Array): Int32Array {
  const out = new Set<number>(more);
  for (const path of paths) {
    let lo = 0;
    let hi = files.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (files[mid] < path) lo = mid + 1;
      else hi = mid;
    }
    if (files[lo] === path) out.add(lo); // links and submodules are not in the listing
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
  const { maxResults, signal, stallMs, glob } = ask;
  const needle = spec.literal ?? spec.prefilter;
  if (!kept.untracked || needle === undefined || spec.flags.includes("i") || !mayRun("git")) {
    return await pool.search(root, kept.listing, spec, maxResults, { signal, stallMs, glob });
  }
  // One worker: git reads the many files natively, so a second worker would only cost memory.
  // The time before git is asked counts from the worker's start (it ends when idle).
  if (!pool.ready(1)) await pool.warm(1);
  const stop = new AbortController();
  const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const one = { stallMs, glob, workers: 1 };
  const first = pool.search(root, kept.listing, spec, maxResults, { ...one, signal: both });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise((resolve) => {
    timer = setTimeout(resolve, ask.grepAfterMs ?? GREP_AFTER_MS, "late");
  });
  const winner = await Promise.race([first.then(() => "first", () => "first"), late]);
  clearTimeout(timer);
  if (winner === "first") return await first;
  // Not answered yet: git gets the machine to itself (on two cores, sharing them costs both).
  stop.abort();
  await first.catch(() => {});
  if (signal?.aborted) throw new DOMException("cancelled", "AbortError");
  const paths = await grepFiles(root, needle, signal ?? new AbortController().signal);
  if (!paths) {
    return await pool.search(root, kept.listing, spec, maxResults, { signal, stallMs, glob });
  }
  const only = indicesOf(kept.listing.files, paths, kept.untracked);
  return await pool.search(root, kept.listing, spec, maxResults, { ...one, signal, only });
}
