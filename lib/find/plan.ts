/**
 * find's planner: the one module that decides in which order a search reads its files. It turns
 * a listing, the pattern, the glob and what the listing remembers (the files where a pattern
 * matched, `recall.ts`; per chunk, where earlier searches matched; the sketches, `sketch.ts`; git's
 * sizes or the sketched ones, `weights.ts`) into {@linkcode Batch}es, which the pool
 * (`search.ts`) executes and whose lines `collect.ts` gathers. Each heuristic is a named policy
 * here; docs/FIND.md lists them and the constants that matter.
 *
 * - {@linkcode planListing}: a whole listing. Small: its chunks in path order. Large (over
 *   `SPREAD_MIN_FILES`): spread, chunks claimed in {@linkcode searchOrder} (stripes; with weights,
 *   two of the best for one of the stripes; without, where earlier searches matched first),
 *   after the files of {@linkcode firstFiles} (recall, else sketches).
 * - {@linkcode planFiles}: some files of a listing (a narrow glob's, git's), as given.
 * - A narrow glob's files: {@linkcode globRecalled} first, then {@linkcode globOrder} (sketches
 *   holding the text, then the rest, each best first by size).
 * - git's route: {@linkcode withUntracked} puts the untracked files among git's batches.
 * - When this thread helps the workers ({@linkcode planTuning}, `help.ts`) and when git is asked
 *   (`warm.ts`).
 */
import { CHUNK_FILES, SPREAD_MIN_FILES, SPREAD_STRIPES } from "./protocol.ts";
import type { GlobSpec } from "../glob/mod.ts";
import type { MatcherSpec } from "./scan.ts";
import { Recall, recallKey } from "./recall.ts";
import { bestFirst, type Weights } from "./weights.ts";
import { SKETCH_FIRST_FILES } from "./protocol.ts";
import { sketchHolding, type SketchLimits } from "./sketch.ts";
import type { SpreadHit } from "./collect.ts";
import type { PoolListing } from "./pool_listing.ts";

/**
 * How long a search in order runs on its workers alone before this thread helps: this thread
 * finishes the chunk it holds (up to 64 files) before the answer, and most such searches end
 * within the worker's first chunks. A spread search is helped at once (each reader stops where it
 * is once there are enough lines). Figures: BENCHMARKS.md, "find's plan".
 */
export const HELP_AFTER_MS = 5;

/**
 * How long a spread search that reads first the files where its pattern matched before
 * (`recall.ts`) runs on its worker alone: most answer from those files within 5–15 ms on the
 * 59k-file tree, and a second reader would read a chunk of the others beside them for nothing.
 * Figures: BENCHMARKS.md, "find's plan".
 */
export const HELP_REMEMBERED_MS = 25;

/** How long a search over a kept listing runs alone before git is asked for the files (`warm.ts`). */
export const GREP_AFTER_MS = 20;

/**
 * The same under `-A`, on a machine of more than two cores: past the first-30 searches of the
 * spread order, short of most of a full scan. On two cores, never: this thread reads beside the
 * worker (`help.ts`), two readers as git has two threads, and the switch wastes what was read
 * (BENCHMARKS.md, "find's plan").
 */
export const GREP_AFTER_MS_ALL = 150;

/** {@linkcode GREP_AFTER_MS_ALL} on a machine of `cores` cores: undefined (never) on two or fewer. */
export function grepAfterAllOn(cores: number): number | undefined {
  return cores > 2 ? GREP_AFTER_MS_ALL : undefined;
}

/**
 * The planner's timings and switches that tests set (the one test seam of find): when this thread
 * helps a search in order, whether it helps at all, and when git is asked under `-A` (`warm.ts`;
 * undefined: never, on two cores or fewer).
 */
export const planTuning: {
  helpAfterMs: number;
  help: boolean;
  grepAfterAllMs: number | undefined;
} = {
  helpAfterMs: HELP_AFTER_MS,
  help: true,
  grepAfterAllMs: grepAfterAllOn(navigator.hardwareConcurrency || 1),
};

/** One search job's files and the order its readers claim them in: what the pool executes. */
export interface Batch {
  /** Only these files: indices into the listing (sorted, unless `vouchOwn`: then read in order). */
  only?: Int32Array;
  /** The order in which the readers claim the listing's chunks (a spread search). */
  order?: Int32Array;
  /** Files read before the chunks (see `SearchJob.first`). */
  first?: Int32Array;
  /** Any lines will do: the first in path order of those found (see `collect.ts`). */
  spread: boolean;
  /** When this thread starts helping (ms after the start); undefined: the search in order's. */
  helpAfter?: number;
  /** With `only`: the part of the listing it vouches for (see `SearchJob.vouch`). */
  vouch?: [number, number];
  /** With `only`: each chunk vouches for its own files' folders (see `SearchJob.vouchOwn`). */
  vouchOwn?: boolean;
  /** What a spread search learns from its lines (recall), once it is over. */
  learn?: (hits: SpreadHit[]) => void;
}

/** Some files of a listing (`only`), read as given: in path order unless `vouchOwn`. */
export function planFiles(
  only: Int32Array,
  vouching: Pick<Batch, "vouch" | "vouchOwn"> = {},
): Batch {
  return { only, spread: false, ...vouching };
}

/**
 * A search of the whole `listing`: in path order when it is small; spread over it when large,
 * reading first the files {@linkcode firstFiles} names, then the chunks in {@linkcode searchOrder},
 * and remembering where it found lines (`recall.ts`, the chunks' hits).
 */
export function planListing(
  listing: PoolListing,
  spec: MatcherSpec,
  glob: GlobSpec | undefined,
): Batch {
  const count = listing.names.length;
  if (count <= SPREAD_MIN_FILES) return { spread: false };
  const chunks = Math.ceil(count / CHUNK_FILES);
  listing.hits ??= new Uint16Array(chunks);
  const recall = listing.recall ??= new Recall();
  const key = recallKey(spec, glob);
  // (With weights the order is the listing's own: made once.)
  const weights = weightsOf(listing);
  const order = weights && weights.chunks.length === chunks
    ? weights.order ??= searchOrder(chunks, undefined, weights.chunks)
    : searchOrder(chunks, listing.hits);
  const { first, few } = firstFiles(listing, spec, key, order);
  return {
    spread: true,
    order,
    first,
    // This thread helps a spread search at once, but only after a while when remembered files
    // are read first (few, where the answer most likely is: a second reader would read a chunk of
    // the rest beside them for nothing; yet where they hold too few lines the rest of the tree is
    // read, `café -i` took 1.3 s alone against 0.8).
    helpAfter: few ? HELP_REMEMBERED_MS : 0,
    learn: (hits) => recall.remember(key, hits, spec),
  };
}

/**
 * Policy "recall, then sketches": the files a spread search reads before its chunks. The files
 * where the latest search of the pattern (or of one holding it) found matches, else those whose
 * sketches hold its text (`sketch.ts`); where only a search of another pattern or glob left
 * files, its sketches' files follow. `few`: the files are the pattern's own (or related ones
 * without sketches), where the answer most likely is.
 */
export function firstFiles(
  listing: PoolListing,
  spec: MatcherSpec,
  key: string,
  order: Int32Array,
): { first?: Int32Array; few: boolean } {
  const same = listing.recall?.files(key);
  const related = same ? undefined : listing.recall?.related(spec);
  const sketched = same ? undefined : sketchFirst(listing, spec, order);
  const first = related && sketched ? _union(related, sketched) : same ?? related ?? sketched;
  const few = (same ?? (sketched ? undefined : related)) !== undefined;
  return { first, few };
}

/**
 * Policy "stripes, hits, weights": the order in which a search that may answer with any matches
 * claims the `chunks` of a listing (see `SPREAD_MIN_FILES`). With `weights` (each chunk's worth
 * for the time reading it takes, `weights.ts`): two of the best chunks left for one of the
 * stripes. Without: the chunks where earlier searches found matches (`hits`), most first, then
 * the stripes. The stripes go round `SPREAD_STRIPES` parts of the listing (chunk 0 of each
 * stripe, then chunk 1…).
 *
 * With weights, `hits` no longer count: they tell where earlier patterns matched, and a pattern of
 * another language is elsewhere (BENCHMARKS.md, "find's plan"; each pattern's own files are
 * remembered apart: `recall.ts`).
 */
export function searchOrder(
  chunks: number,
  hits?: Uint16Array,
  weights?: Float64Array,
): Int32Array {
  const per = Math.ceil(chunks / SPREAD_STRIPES);
  const stripes: number[] = [];
  for (let k = 0; k < per * SPREAD_STRIPES; k++) {
    const chunk = (k % SPREAD_STRIPES) * per + Math.floor(k / SPREAD_STRIPES);
    if (chunk < chunks) stripes.push(chunk);
  }
  if (!weights || weights.length !== chunks) {
    // (stable: ties keep the stripes' order)
    if (hits) stripes.sort((a, b) => hits[b] - hits[a]);
    return Int32Array.from(stripes);
  }
  const best = stripes.slice().sort((a, b) => weights[b] - weights[a] || a - b);
  const taken = new Uint8Array(chunks);
  const order: number[] = [];
  let b = 0;
  let s = 0;
  const next = (from: number[], at: number): number => {
    while (at < from.length && taken[from[at]]) at++;
    if (at < from.length) {
      taken[from[at]] = 1;
      order.push(from[at]);
    }
    return at + 1;
  };
  while (order.length < chunks) {
    b = next(best, next(best, b));
    s = next(stripes, s);
  }
  return Int32Array.from(order);
}

/**
 * Policy "sketches first": the files of a spread search to read first by their sketches
 * (`sketch.ts`): in the search's `order`, the files whose sketches hold the text the pattern
 * requires (`sketchHolding`), at most `SKETCH_FIRST_FILES`. Undefined when the pattern requires
 * no text of `SKETCH_MIN_TEXT` bytes or more (or, with ignore_case, text beyond ASCII, which a
 * sketch does not fold), when no sketch that counts holds it, or when it is common
 * (`SKETCH_COMMON`).
 */
export function sketchFirst(
  listing: PoolListing,
  spec: MatcherSpec,
  order: Int32Array,
): Int32Array | undefined {
  return _sketched(listing, spec, order, {
    chunkFiles: CHUNK_FILES,
    max: SKETCH_FIRST_FILES,
  });
}

/**
 * Policy "sketches first" for some files (a narrow glob's): of `files`, those whose sketches hold
 * the text the pattern requires, in that order, however many hold it (see {@linkcode sketchFirst}).
 */
export function sketchHeld(
  listing: PoolListing,
  spec: MatcherSpec,
  files: Int32Array,
): Int32Array | undefined {
  return _sketched(listing, spec, files, { chunkFiles: 1, max: files.length, common: 1 });
}

function _sketched(
  listing: PoolListing,
  spec: MatcherSpec,
  order: Int32Array,
  limits: SketchLimits,
): Int32Array | undefined {
  const text = spec.literal ?? spec.prefilter;
  if (text === undefined || !listing.sketch) return undefined;
  // deno-lint-ignore no-control-regex
  if (spec.flags.includes("i") && (!/^[\x00-\x7f]*$/.test(text) || spec.flags.includes("u"))) {
    return undefined;
  }
  // (A view of a set length: one that follows the growable memory's length is read 2–3 times
  // slower.)
  const out = sketchHolding(
    {
      sketch: new Uint8Array(listing.sketch, 0, listing.sketch.byteLength),
      ends: new Uint32Array(listing.sketchEnds!),
      count: listing.names.length,
    },
    text,
    order,
    limits,
  );
  if (!out?.length) return undefined;
  return Int32Array.from(out);
}

/** `a`, then the files of `b` that are not in `a`. */
function _union(a: Int32Array, b: Int32Array): Int32Array {
  const seen = new Set(a);
  return Int32Array.from([...a, ...[...b].filter((i) => !seen.has(i))]);
}

/**
 * Policy "recall" for a narrow glob: the files where the same search (pattern and glob) matched
 * last time, sorted, read before the others.
 */
export function globRecalled(
  listing: PoolListing,
  spec: MatcherSpec,
  glob: GlobSpec,
): Int32Array | undefined {
  const known = listing.recall?.files(recallKey(spec, glob));
  return known ? Int32Array.from(known).sort() : undefined;
}

/**
 * Policy "sketches, then best first" for a narrow glob's `files`: those whose sketches hold the
 * text first (`sketchHeld`), then the others, each the best first when sizes are known
 * (`bestFirst`: git's index, or the sketches'), else in path order.
 */
export function globOrder(listing: PoolListing, spec: MatcherSpec, files: Int32Array): Int32Array {
  const sizes = weightsOf(listing)?.sizes;
  const held = sketchHeld(listing, spec, files) ?? new Int32Array();
  const first = new Set(held);
  const best = (some: Int32Array) => sizes ? bestFirst(some, sizes) : some;
  return Int32Array.from([...best(held), ...best(files.filter((i) => !first.has(i)))]);
}

/**
 * Policy "git's order": a batch of the files git named (in the listing's order, through `through`)
 * with the untracked files that sort before its last, from `untracked[from]` on; returns the
 * batch, sorted, and the next untracked file not taken.
 */
export function withUntracked(
  named: number[],
  untracked: Int32Array,
  from: number,
): { files: number[]; next: number } {
  const through = named[named.length - 1];
  const files = named.slice();
  let u = from;
  while (u < untracked.length && untracked[u] < through) files.push(untracked[u++]);
  return { files: files.sort((a, b) => a - b), next: u };
}

/**
 * Policy "git's order", when git named files out of the listing's order: every file it named and
 * every untracked one, in path order, at once.
 */
export function gitAll(named: number[], untracked: Int32Array): number[] {
  return [...Int32Array.from(new Set([...named, ...untracked])).sort()];
}

/**
 * `listing`'s weights: git's (`weights.ts`), or, without them, those its first worker made from
 * the sizes it found while sketching every file (`ListingMessage.sizes`), once it has.
 */
export function weightsOf(listing: PoolListing): Weights | undefined {
  if (listing.weights || !listing.chunkWeights || !sketchWeighed(listing)) return listing.weights;
  const sizes = new Uint32Array(listing.sizes!);
  return listing.weights = {
    chunks: new Float64Array(listing.chunkWeights),
    sizes: sizes.subarray(0, sizes.length - 1),
  };
}

/** Whether `listing`'s first worker has weighed its chunks from the sizes it sketched. */
export function sketchWeighed(listing: PoolListing): boolean {
  if (!listing.sizes) return false;
  const sizes = new Uint32Array(listing.sizes);
  const count = sizes.length - 1;
  return count > 0 && Atomics.load(sizes, count) === count;
}
