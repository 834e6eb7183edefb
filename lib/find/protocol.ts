/**
 * The messages between find's search (main thread) and its long-lived workers, and the layout of
 * the shared control memory they use to split the work and to show that they are still making
 * progress.
 *
 * A worker keeps the latest listing it was sent (the file list and the folders that vouch for it),
 * so a warm search sends only the pattern. The file list is packed once into shared memory (UTF-8
 * bytes and end offsets) that every worker reads: no worker holds a copy of the list as strings,
 * and a worker started anew gets the listing without a copy.
 */
import type { GlobSpec } from "../glob/mod.ts";
import type { MatcherSpec } from "./scan.ts";

/** Files larger than this are skipped (counted as `too_large`). */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Only this many leading bytes are looked at for NUL when deciding a file is binary. */
export const BINARY_PROBE_BYTES = 8192;

/**
 * A worker runs a regular expression in slices of about this many milliseconds, each under a
 * timeout of the job's `stallMs` plus this.
 */
export const SLICE_MS = 50;

/** Bytes from the most to the least common in source code: a needle is sought by its rarest. */
export const COMMON_BYTES = " etaoinsrlcdpumhfgbyw.,;()_=\n\t/\"'-{}:xv0k1";

/**
 * How long a worker waits for the next search before it offers to end: a worker's heap grows with
 * what it read and V8 returns little of it, so an idle pool is ended and its memory given back; a
 * worker starts again in about 50 ms and finds the listing in shared memory. 30 s keeps a model's
 * burst of searches warm (ending after 1.5 s made a search a few seconds later 58 ms instead of
 * 4 ms on a 59k-file tree) and still gives the memory back between tasks.
 */
export const WORKER_IDLE_MS = 30_000;

/**
 * A search over more files than this (a whole listing, not the files git named) answers with the
 * first matches it finds, not the first in path order: it reads first the files where the latest
 * search of the same pattern found matches (`recall.ts`), then claims its chunks where earlier
 * searches found matches first, then round {@linkcode SPREAD_STRIPES} stripes of the listing
 * (`searchOrder` in `search.ts`), and it ends as soon as the chunks done hold
 * more lines than asked. The lines are still sorted, and the count says "at least" when not every
 * file was read. Smaller listings are searched in path order (their first lines are the answer).
 */
export const SPREAD_MIN_FILES = 8192;

/** Stripes of the listing a spread search goes round (see {@linkcode SPREAD_MIN_FILES}). */
export const SPREAD_STRIPES = 16;

/** Files per chunk: the unit workers claim, report and vouch for (folder checks). */
export const CHUNK_FILES = 64;

/**
 * A folder whose modification time is this close (ms) to the listing's start, or later, may have
 * changed while the listing was made: the listing is not reused on its word.
 */
export const RACY_MS = 20;

/**
 * A listing of at most this many files keeps a summary of each file it has read (see
 * {@linkcode ListingMessage.sums}): 1 KiB each, so at most 8 MiB. Larger trees lean on `git grep`
 * instead (`warm.ts`).
 */
export const SUMMARY_MAX_FILES = 8192;

/** Bytes per file summary: a set of 8,192 bits. */
export const SUMMARY_BYTES = 1024;

/**
 * The coarsest step of a file's times that a summary allows for: Deno gives change times in whole
 * seconds, and FAT file systems keep times in 2-second steps.
 */
export const TIME_STEP_MS = 2000;

/** Bytes of file text a worker decodes before it collects its garbage after a search. */
export const COLLECT_AFTER_BYTES = 2 * 1024 * 1024;

/**
 * How long a worker must have had no search before it runs the collection a search left due
 * (`COLLECT_AFTER_BYTES`, `YOUNG_AFTER_BYTES`): see `searchWorkerMain`.
 */
export const COLLECT_QUIET_MS = 150;

/** Garbage (bytes of strings made since the last collection) that a worker collects at once. */
export const COLLECT_NOW_BYTES = 16 * 1024 * 1024;

/** Bytes of strings a worker makes before it collects its young generation after a search. */
export const YOUNG_AFTER_BYTES = 1024 * 1024;

/** What a path's string costs a worker's heap, about (the count behind `YOUNG_AFTER_BYTES`). */
export const PATH_STRING_BYTES = 128;

/**
 * A listing of more files is not sketched: 5.2 MB for the 52k text files of a 59k-file tree
 * (`sketch.ts`), and would be some 50 MB for 500k (and half a minute of one core to make).
 */
export const SKETCH_MAX_FILES = 200_000;
/**
 * The most a listing's sketches may take, beyond their heads: this much per file, and
 * {@linkcode SKETCH_ROOM_BYTES} more (the 53k files of the 59k-file tree take 5.2 MB of 30; a tree
 * of large files takes about a quarter of a byte a byte of text). Past it, the files left are not
 * sketched. The memory is reserved, not used, until the worker grows into it.
 */
export const SKETCH_MAX_BYTES_PER_FILE = 256;
/** See {@linkcode SKETCH_MAX_BYTES_PER_FILE}. */
export const SKETCH_ROOM_BYTES = 16 * 1024 * 1024;
/** How long the first worker waits, after a search, before it goes on sketching files. */
export const SKETCH_IDLE_MS = 300;
/**
 * How long it sketches before it lets a message in. A search does not wait for the slice to end:
 * the pool says it is coming in shared memory (`SketchRequest.busy`), which the worker reads
 * after every file.
 */
export const SKETCH_SLICE_MS = 10;
/**
 * At most this many files whose sketches hold a first search's text are read before the others:
 * where the sketches are wrong (runs of a text found apart: `rai`, `ais`, `ise` and `se ` in files
 * without `raise `), the cost of reading them stays small.
 */
export const SKETCH_FIRST_FILES = 256;

/** Int32 slots of the shared control memory. */
export const CTL_NEXT_CHUNK = 0;
export const CTL_STOP = 1;
/** Matching lines in the chunks reported so far (added before each chunk is posted). */
export const CTL_FOUND = 2;
/**
 * Matching lines found so far, in chunks reported or still being read (added after each file):
 * once they are enough, no reader claims another chunk, and in a spread search each reports its
 * chunk as far as it got.
 */
export const CTL_SEEN = 3;
/** Per worker: slot `CTL_WORKERS + 2*i` is its heartbeat, the next one the file it is reading. */
export const CTL_WORKERS = 4;

/** Int32 slots needed for `workers` workers. */
export function controlSlots(workers: number): number {
  return CTL_WORKERS + 2 * workers;
}

/** Paths packed into shared memory: UTF-8 bytes one after the other, each followed by a NUL. */
export interface PackedPaths {
  paths: SharedArrayBuffer;
  /** Int32 per path: where its bytes end in `paths`, its NUL included (the next starts there). */
  ends: SharedArrayBuffer;
}

/** A listing as workers keep it. */
export interface ListingMessage {
  type: "listing";
  id: number;
  /** The sorted paths relative to the root, as UTF-8 bytes one after the other. */
  paths: SharedArrayBuffer;
  /** Int32 per path: where its bytes end in `paths` (it starts where the previous one ends). */
  ends: SharedArrayBuffer;
  /**
   * Absolute paths whose modification times vouch for the listing, packed (on a 59k-file tree,
   * 20,694 folders: as strings, 2 MB on the main thread and as much again in each worker).
   */
  checks: PackedPaths;
  /** Checks of chunk `c` are `checks[checkFrom[c]]` up to `checks[checkFrom[c + 1]]`. */
  checkFrom: number[];
  /** Float64 per check: the modification time first seen (NaN until then); shared by workers. */
  mtimes: SharedArrayBuffer;
  /** `Date.now()` just before the listing was started. */
  startedAt: number;
  /**
   * With at most {@linkcode SUMMARY_MAX_FILES} files: what each file held when a worker last read
   * it whole, for a warm search to skip a file that cannot hold the text it needs. Per file,
   * {@linkcode SUMMARY_BYTES} of bits, one set for each hashed run of three bytes in the file.
   */
  sums?: SharedArrayBuffer;
  /**
   * Float64 × 4 per file: the modification time, change time, size and inode (`lstat`) that the
   * summary was made for; 0 when there is none. A summary is used only while `lstat` of the path
   * says the same four, and made only for a file whose change time was over
   * {@linkcode TIME_STEP_MS} before the read began (git's "racily clean" rule), so a file written
   * during or after the read never matches.
   */
  stamps?: SharedArrayBuffer;
  /**
   * With more than {@linkcode SPREAD_MIN_FILES} files (and at most {@linkcode SKETCH_MAX_FILES}),
   * in a listing kept for later searches (growable, grown by the first worker as it goes): each
   * file's head (a byte: made, and how full), then from `sketchBase` each file's sketch, bits set
   * for the hashed runs of three bytes (ASCII letters made small) in the file when the first
   * worker last read it whole, while it had nothing else to do (`sketch.ts`). Only the order of a
   * first search uses it (`sketchFirst` in `search.ts`): every file is still read as it is now, so
   * a file changed since is not missed, only read later.
   */
  sketch?: SharedArrayBuffer;
  /**
   * With `sketch`: Uint32 per file, where its sketch ends (bytes after `sketchBase`; the one
   * before's end where it has none: binary, too large, gone), and one more, how many files are
   * sketched (set after their sketches).
   */
  sketchEnds?: SharedArrayBuffer;
  /**
   * With `sketch`: Uint32 per file, its size as the first worker read it to sketch it (0 for a
   * binary file, which no search reads past its NULs, or one gone; 0xffffffff until then), and
   * one more, set once every file is sketched and `chunkWeights` made from those sizes: a listing
   * without git's sizes (the walk's) is weighed from them (`weights.ts`).
   */
  sizes?: SharedArrayBuffer;
  /** With `sizes`: Float64 per chunk, each chunk's worth over its cost (`weighChunks`). */
  chunkWeights?: SharedArrayBuffer;
}

/** Asks the worker to sketch its listing's files once idle (see `ListingMessage.sketch`). */
export interface SketchRequest {
  type: "sketch";
  root: string;
  /** Int32, set while the pool runs a search: the worker stops sketching at once (see `search.ts`). */
  busy: SharedArrayBuffer;
}

/** One search over the worker's listing. */
export interface SearchJob {
  type: "search";
  /** Tells replies to this job from late replies to an earlier one. */
  id: number;
  listing: number;
  root: string;
  /** Only paths this glob passes, when set. */
  glob?: GlobSpec;
  /**
   * Only these files (sorted indices into the listing), when set: chunks are cut from this list,
   * and each also vouches for the listing's chunks up to its last file (the last one, for all).
   */
  only?: Int32Array;
  /**
   * With `only`: the listing's files (first and last index) whose folders this search vouches
   * for, when it covers only part of the listing; default, all of it.
   */
  vouch?: [number, number];
  /**
   * With `only` (instead of `vouch`): each chunk vouches only for the listing's chunks its own
   * files are in, as a spread search does: for an answer cut at the limit, whose lines need only be
   * real (a file added elsewhere stands with those not read).
   */
  vouchOwn?: boolean;
  /**
   * The chunk each claim takes, in turn (a permutation of the chunks), for a search that may
   * answer with any matches (see `searchOrder` in `search.ts`); default, path order.
   */
  order?: Int32Array;
  /**
   * With `order`: files (indices into the listing) to read before the chunks, where the latest
   * search of the same pattern found matches (see `recall.ts`). They are claimed as chunks of
   * their own, numbered from the listing's chunk count on, and skipped in their listing chunks.
   */
  first?: Int32Array;
  /** Most matching lines a chunk needs to report (the caller's limit + 1). */
  limit: number;
  spec: MatcherSpec;
  control: SharedArrayBuffer;
  slot: number;
  /** How much work one file may take before the search is stopped (regular expressions only). */
  stallMs: number;
  /** After this long without a message the worker posts `idle` (it may then be terminated). */
  idleMs: number;
  /** Once idle for {@linkcode SKETCH_IDLE_MS}, the worker goes on sketching the listing's files. */
  sketch?: boolean;
  /** With `sketch`: see {@linkcode SketchRequest.busy}. */
  busy?: SharedArrayBuffer;
}

/** Skip counts, in the order binary, too large, not UTF-8. */
export type SkipCounts = [number, number, number];

/** How many skipped files an answer names (and a chunk reports), with their sizes. */
export const SKIPPED_NAMED = 5;

/** What a worker posts back. */
export type WorkerReply =
  | {
    type: "chunk";
    job: number;
    chunk: number;
    lines: string[];
    /** For each line, the index of its file in the listing. */
    at: number[];
    /** For each line, the size of its file in bytes. */
    bytes: number[];
    skipped: SkipCounts;
    /**
     * The chunk's first {@linkcode SKIPPED_NAMED} skipped files, flat: index in the listing, kind
     * (the order of `SkipCounts`), size in bytes; three numbers a file.
     */
    named: number[];
    /** Files of the chunk that passed the glob. */
    files: number;
    /** Files of the chunk that were opened and read (the rest were ruled out by their summary). */
    read: number;
    /** The chunk stopped at the job's `limit`: it may hold more matching lines than it sent. */
    cut: boolean;
    /** A folder of this chunk changed since the listing was made (or may have). */
    stale: boolean;
  }
  | { type: "done"; job: number; slot: number }
  /** Nothing asked of this worker for the job's `idleMs`: the pool may end it, memory and all. */
  | { type: "idle"; job: number }
  /** The pattern overran its budget on file `file` (an index into the listing). */
  | { type: "stalled"; job: number; file: number }
  | { type: "failed"; job: number; message: string }
  /** The worker has started (its imports loaded, its handler installed). */
  | { type: "online" };

/** A reply about a job (every reply but `online`). */
export type JobReply = Exclude<WorkerReply, { type: "online" }>;
