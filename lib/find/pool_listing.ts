/**
 * A listing as find keeps it between searches ({@linkcode PoolListing}): the paths packed in
 * shared memory for the workers, the folders that vouch for each chunk, and what searches learn
 * of it (the chunks' hits, the recall, the summaries, sketches and weights), which the planner
 * (`plan.ts`) reads.
 */
import {
  CHUNK_FILES,
  type ListingMessage,
  type PackedPaths,
  SKETCH_MAX_BYTES_PER_FILE,
  SKETCH_MAX_FILES,
  SKETCH_ROOM_BYTES,
  SPREAD_MIN_FILES,
  SUMMARY_BYTES,
  SUMMARY_MAX_FILES,
} from "./protocol.ts";
import type { Recall } from "./recall.ts";
import { atOnce } from "./walk.ts";
import { packPaths, PathNames } from "./packed.ts";
import type { Weights } from "./weights.ts";
import { sketchBase } from "./sketch.ts";

/**
 * A listing as the pool keeps it: what it sends to workers, and its paths read from the same
 * bytes (`names`, see `packed.ts`); `hits`,
 * per chunk, how many searches found a match there (see {@linkcode searchOrder}); `recall`, per
 * pattern, the files where its latest search found matches (read first: see `recall.ts`).
 */
export type PoolListing = Omit<ListingMessage, "type"> & {
  names: PathNames;
  hits?: Uint16Array;
  /** What its files are worth to a search, from git's index (`weights.ts`). */
  weights?: Weights;
  recall?: Recall;
};

/** What {@linkcode poolListing} makes a listing of. */
export interface ListingOptions {
  id: number;
  root: string;
  /** When the listing was started (`Date.now()`). */
  startedAt: number;
  /** The paths whose modification times vouch for the listing (folders, ignore files). */
  checks?: string[];
  /** A listing kept for later searches holds the files' summaries (when small enough). */
  summarize?: boolean;
  /**
   * The same `files` already packed ({@linkcode packPaths}, or an earlier listing of them, made in
   * the same listing of the tree: what its searches learnt, `hits` and `recall`, holds for these
   * files too).
   */
  packed?: PackedPaths & Pick<PoolListing, "hits" | "recall">;
}

/**
 * The shared memory of the sketches of a listing of `count` files (`ListingMessage.sketch`): the
 * heads, and room for 64 bytes a file at first, which the worker grows as it needs (up to
 * {@linkcode SKETCH_MAX_BYTES_PER_FILE} a file and {@linkcode SKETCH_ROOM_BYTES}).
 */
function _sketchMemory(count: number): Pick<ListingMessage, "sketch" | "sketchEnds"> {
  const base = sketchBase(count);
  return {
    sketch: new SharedArrayBuffer(base + 64 * count, {
      maxByteLength: base + SKETCH_MAX_BYTES_PER_FILE * count + SKETCH_ROOM_BYTES,
    }),
    sketchEnds: new SharedArrayBuffer(4 * (count + 1)),
  };
}

/** The `sizes` of a listing of `count` files, none known yet (see `ListingMessage.sizes`). */
function _unknownSizes(count: number): SharedArrayBuffer {
  const sizes = new SharedArrayBuffer(4 * (count + 1));
  new Uint32Array(sizes).fill(0xffffffff, 0, count);
  return sizes;
}

/** Where `key` sorts in the sorted `files`: the index of the first path not before it. */
export function sortedIndex(files: string[], key: string): number {
  let lo = 0;
  let hi = files.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (files[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Builds the listing workers keep from the sorted `files`: `checks` are assigned to the chunk
 * where their files sort (see {@linkcode ListingOptions}).
 */
export function poolListing(files: string[], options: ListingOptions): PoolListing {
  const { id, root, startedAt, checks = [], summarize = false } = options;
  const packed: ListingOptions["packed"] & object = options.packed ?? atOnce(packPaths(files));
  const chunks = Math.max(1, Math.ceil(files.length / CHUNK_FILES));
  const byChunk: string[][] = Array.from({ length: chunks }, () => []);
  for (const check of checks) {
    // A file new in folder D sorts at or after "D/": D's check belongs to that chunk. The root,
    // ignore files and anything outside the root vouch for every chunk: they go to the first.
    let at = 0;
    if (check.startsWith(`${root}/`) && !check.endsWith("/.gitignore")) {
      const lo = sortedIndex(files, `${check.slice(root.length + 1)}/`);
      at = Math.min(chunks - 1, Math.floor(lo / CHUNK_FILES));
    }
    byChunk[at].push(check);
  }
  const checkFrom = [0];
  for (const list of byChunk) checkFrom.push(checkFrom[checkFrom.length - 1] + list.length);
  const mtimes = new SharedArrayBuffer(8 * Math.max(1, checks.length));
  new Float64Array(mtimes).fill(NaN);
  const summed = summarize && files.length <= SUMMARY_MAX_FILES
    ? {
      sums: new SharedArrayBuffer(SUMMARY_BYTES * files.length),
      stamps: new SharedArrayBuffer(32 * files.length),
    }
    : summarize && files.length > SPREAD_MIN_FILES && files.length <= SKETCH_MAX_FILES
    ? {
      ..._sketchMemory(files.length),
      sizes: _unknownSizes(files.length),
      chunkWeights: new SharedArrayBuffer(8 * chunks),
    }
    : {};
  return {
    id,
    names: new PathNames(packed),
    paths: packed.paths,
    ends: packed.ends,
    checks: atOnce(packPaths(byChunk.flat())),
    checkFrom,
    mtimes,
    startedAt,
    ...summed,
    hits: packed.hits,
    recall: packed.recall,
  };
}
