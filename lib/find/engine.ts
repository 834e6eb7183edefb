/**
 * find's engine: list the project's files (git's listing or the `.gitignore`-aware walk), and
 * search them in long-lived workers, glob filter included.
 *
 * A warm server reuses the listing while what vouches for it holds: git's index unchanged and
 * every folder of the searched part with the modification time it had (checked by the workers as
 * they go, so a first-30 search checks only the folders it passes). Otherwise the files are listed
 * again: in a git work tree the tracked files are searched at once, while git lists the untracked
 * ones; then those, and the two sets of matches are merged: results are always in path order.
 */
import { quote, ToolError } from "../errors.ts";
import { collectPending, collectSoon } from "./gc.ts";
import { whenQuiet } from "../quiet.ts";
import { type GlobSpec, globSpec } from "../glob/mod.ts";
import { type Listing, listProject } from "./list.ts";
import { findOnce } from "./oneshot.ts";
import { CHUNK_FILES, SUMMARY_MAX_FILES } from "./protocol.ts";
import { chunkWeights, type Weights } from "./weights.ts";
import { compileMatcher, type MatcherSpec } from "./scan.ts";
import { SearchPool } from "./search.ts";
import { type PoolListing, poolListing } from "./pool_listing.ts";
import { packPaths } from "./packed.ts";
import { mergeOutcomes, type SearchOutcome } from "./collect.ts";
import { planListing } from "./plan.ts";
import { yielding } from "./walk.ts";
import { indicesOf, type Kept, searchKept } from "./warm.ts";
import { refreshKept } from "./refresh.ts";

/** What to search for. */
export interface FindOptions {
  pattern: string;
  glob?: string | null;
  maxResults: number;
  ignoreCase: boolean;
  /** False lists files with find's own walk even where git could be used. Default true. */
  useGit?: boolean;
  /** How much work one file may take before the search is stopped; default 1,000 ms. */
  stallMs?: number;
  signal?: AbortSignal;
  /** How long a warm search runs before git is asked which files hold the text (tests). */
  grepAfterMs?: number;
  /** The process exits after this call: plain text is searched on this thread (`oneshot.ts`). */
  oneShot?: boolean;
  /** Told what a search that lists the files does (listing, how many so far, searching). */
  progress?: (message: string) => void;
}

/** What find answers (without `status`): see {@linkcode SearchOutcome} for the counts. */
export type FindResult =
  & Pick<
    SearchOutcome,
    "truncated" | "found" | "complete" | "skipped" | "skippedFiles" | "files" | "read"
  >
  & {
    matches: string[];
    count: number;
    /** The listing was reused from an earlier call. */
    warm: boolean;
  };

function _matcher(pattern: string, ignoreCase: boolean): MatcherSpec {
  try {
    return compileMatcher(pattern, ignoreCase);
  } catch (err) {
    // V8 says "Invalid regular expression: /pattern/flags: reason"; keep the reason.
    const message = err instanceof Error ? err.message : String(err);
    const why = message.slice(message.lastIndexOf(": ") + 2);
    throw new ToolError(`invalid regular expression ${quote(pattern)}: ${why}`);
  }
}

function _glob(glob: string | null | undefined): GlobSpec | undefined {
  if (!glob?.trim()) return undefined;
  try {
    return globSpec(glob);
  } catch {
    throw new ToolError(`invalid glob ${quote(glob)}`);
  }
}

/** The server's pool: its first worker stays (see `search.ts`). */
const _pool = new SearchPool({ keepFirst: true });
const _cache = new Map<string, Kept>();
let _listings = 0;

function _identity(path: string): string {
  try {
    const s = Deno.statSync(path);
    return `${s.mtime?.getTime()}:${s.size}:${s.ino}`;
  } catch {
    return "absent";
  }
}

/** How long the server must still be quiet, once the engine is loaded, to start the worker. */
const PRESTART_QUIET_MS = 100;

/**
 * Starts the first search worker ahead of the first search, at a quiet moment (`lib/quiet.ts`):
 * `new Worker` holds this thread until the worker is up, and the calls beside it wait.
 */
export async function prestart(): Promise<void> {
  await _pool.prepare();
  const { promise, resolve } = Promise.withResolvers<void>();
  whenQuiet(PRESTART_QUIET_MS, () => _ended ? resolve() : _pool.warm(1).then(resolve));
  await promise;
}

/**
 * Forgets every kept listing and stops the workers, which hold their own view of it (tests,
 * benchmarks, `call`, {@linkcode endFind}): the one place where find gives back what it keeps
 * between calls (the next search lists the files and starts a worker again).
 */
export function resetFind(): void {
  _cache.clear();
  _pool.close();
}

/** The listing kept for `root` (tests: its sketches, its weights), if any. */
export function keptListing(root: string, useGit = true): PoolListing | undefined {
  return _cache.get(`${root}\0${useGit}`)?.listing;
}

/** Set by {@linkcode endFind}: no worker starts ahead of a search any more. */
let _ended = false;

/** Stops the workers, and the one a quiet moment would start (see `mod.ts`'s `endFind`). */
export function endFind(): void {
  _ended = true;
  resetFind();
}

/** Lists `root` anew, searches it, and keeps the listing for the next call when it is sound. */
async function _cold(
  root: string,
  key: string,
  spec: MatcherSpec,
  options: FindOptions,
  glob: GlobSpec | undefined,
): Promise<SearchOutcome> {
  const max = options.maxResults;
  let listing: Listing | undefined;
  try {
    // The first worker starts while the files are listed (the server started it when idle); the
    // others, which only a listing of a few thousand files uses, with the search: each start
    // holds this thread until the worker is up, and a call sent just after the find would wait.
    void _pool.warm(1);
    options.progress?.("listing the project's files");
    listing = await listProject(root, options.signal, options.useGit ?? true, options.progress);
    options.progress?.(`searching ${listing.files.length.toLocaleString("en")} files`);
    // One worker for a large listing, as for a warm search of it (warm.ts): a second would cost
    // memory, and starting one holds this thread until it is up (a call beside it waits).
    const large = listing.files.length > SUMMARY_MAX_FILES;
    const search = {
      root,
      spec,
      maxResults: max,
      signal: options.signal,
      stallMs: options.stallMs,
      glob,
      ...(large ? { workers: 1 } : {}),
    };
    // Packed a slice at a time: 100,000 paths at once held the thread for 20–100 ms.
    const paths = await yielding(packPaths(listing.files));
    const startedAt = listing.startedAt;
    const first = poolListing(listing.files, { id: ++_listings, root, startedAt, packed: paths });
    // The tracked files as a warm search over them would go (git's help past 20 ms included).
    let outcome = listing.source === "git" && listing.untracked
      ? await searchKept(_pool, root, { listing: first, untracked: new Int32Array(0) }, spec, {
        maxResults: max,
        signal: options.signal,
        stallMs: options.stallMs,
        glob,
        grepAfterMs: options.grepAfterMs,
      })
      : await _pool.search({ ...search, listing: first, batch: planListing(first, spec, glob) });
    let files = listing.files;
    let untracked: string[] = [];
    if (listing.untracked) {
      const more = untracked = await listing.untracked;
      const packed = await yielding(packPaths(more));
      const second = poolListing(more, { id: ++_listings, root, startedAt, packed });
      const batch = planListing(second, spec, glob);
      outcome = mergeOutcomes(
        outcome,
        await _pool.search({ ...search, listing: second, batch }),
        max,
      );
      if (more.length) files = [...files, ...more].sort();
    }
    const index = listing.index ? await listing.index : undefined;
    const id = index ? _identity(index) : "";
    const racy = Number(id.split(":")[0]) >= listing.startedAt - 20;
    if (!racy) {
      const checks = await listing.checks;
      // The same files: the packed paths are shared, not packed again (a second 4 MB on 59k).
      const packed = files === listing.files ? first : await yielding(packPaths(files));
      const kept = poolListing(files, {
        id: ++_listings,
        root,
        startedAt,
        checks,
        summarize: true,
        packed,
      });
      if (index && files.length > SUMMARY_MAX_FILES) kept.weights = await _weights(index, kept);
      _pool.sketch(root, kept); // (a large listing's: see sketch.ts)
      _cache.set(key, {
        listing: kept,
        index: index ? { path: index, id } : undefined,
        untracked: listing.source === "git"
          ? indicesOf(files, untracked, new Int32Array())
          : undefined,
      });
    }
    return outcome;
  } finally {
    listing?.cancel();
    await listing?.untracked;
    collectSoon(undefined, true); // the listing's garbage: see gc.ts
  }
}

/**
 * The weights of `listing`'s chunks (see `weights.ts`), from the git index file `index`: only a
 * large listing's searches are spread, and weighed. Undefined when the index cannot be read.
 */
async function _weights(index: string, listing: PoolListing): Promise<Weights | undefined> {
  try {
    return await yielding(chunkWeights(await Deno.readFile(index), listing, CHUNK_FILES));
  } catch {
    return undefined; // (no read permission there, or gone): the stripes alone
  }
}

/** Searches the project at `root`; returns the first `maxResults` matching lines. */
export async function findInProject(root: string, options: FindOptions): Promise<FindResult> {
  collectPending(); // a listing's garbage, if a burst of calls has kept its collection waiting
  const spec = _matcher(options.pattern, options.ignoreCase);
  const glob = _glob(options.glob);
  const key = `${root}\0${options.useGit ?? true}`;
  let outcome: SearchOutcome | undefined;
  // A process that exits after this call searches plain text on this thread (`oneshot.ts`).
  const once = options.oneShot === true && spec.literal !== undefined;
  if (once) outcome = await findOnce(root, spec, { ...options, glob });
  const cached = once ? undefined : _cache.get(key);
  let warm = false;
  if (cached && (!cached.index || _identity(cached.index.path) === cached.index.id)) {
    const ask = {
      maxResults: options.maxResults,
      signal: options.signal,
      stallMs: options.stallMs,
      glob,
      grepAfterMs: options.grepAfterMs,
      staleStops: true,
    };
    outcome = await searchKept(_pool, root, cached, spec, ask);
    warm = !outcome.stale;
    // Folders changed, the files perhaps not (a file written by a rename): see refresh.ts.
    if (!warm && await refreshKept(root, cached, options.signal)) {
      outcome = await searchKept(_pool, root, cached, spec, ask);
      warm = !outcome.stale;
    }
  }
  if (!warm && !once) {
    _cache.delete(key);
    outcome = await _cold(root, key, spec, options, glob);
  }
  const o = outcome!;
  collectSoon(); // what the call left behind, once the answer is out: see gc.ts
  return {
    matches: o.lines,
    count: o.lines.length,
    truncated: o.truncated,
    found: o.found,
    complete: o.complete,
    skipped: o.skipped,
    skippedFiles: o.skippedFiles,
    files: o.files,
    read: o.read,
    warm,
  };
}
