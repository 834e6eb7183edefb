/**
 * find's long-lived worker pool: runs a search over a listing and gathers the first matches in
 * file order.
 *
 * The workers (web workers: see `#slot`) start on the first search (or ahead of it:
 * {@linkcode SearchPool.warm}) and stay while searches keep coming; a live one keeps the process
 * up, so a process done with find ends them ({@linkcode SearchPool.close}). A worker idle for
 * {@linkcode WORKER_IDLE_MS} offers to end and is ended, which gives its heap back, except the
 * first one of a pool that keeps it (the server's: starting a worker holds the calling thread until
 * the worker's runtime exists, 15–40 ms, more on a loaded machine, and a call beside it waits as
 * long); the others start only while no other call runs. Each keeps the last listing it was sent
 * (shared memory, see `protocol.ts`), so a warm search sends only the pattern. The
 * listing is cut into chunks that workers claim one at a time; the main thread keeps the results
 * of finished chunks in order and stops every worker as soon as the chunks before the first
 * unfinished one hold more than `maxResults` matches. A search of a large listing (over
 * {@linkcode SPREAD_MIN_FILES} files) claims its chunks spread over the listing and stops as soon
 * as the chunks done, wherever they are, hold that many: its lines are sorted, but need not be the
 * first in path order. Before the chunks, it reads the files where the latest search of the same
 * pattern found matches (`recall.ts`). Searches run one at a time.
 *
 * A regular expression that spends more than `stallMs` of work on one file is stopped by its
 * worker (see `worker.ts`), and the search fails with a clear error naming the file; a watchdog
 * reading the workers' heartbeats is the backstop for a worker that stops answering. The main
 * thread never runs the pattern, so the server keeps answering meanwhile.
 */
import { ToolError } from "../errors.ts";
import {
  CHUNK_FILES,
  controlSlots,
  CTL_STOP,
  CTL_WORKERS,
  type JobReply,
  type ListingMessage,
  type PackedPaths,
  type SearchJob,
  SKETCH_FIRST_FILES,
  SKETCH_MAX_BYTES_PER_FILE,
  SKETCH_MAX_FILES,
  SKETCH_ROOM_BYTES,
  type SketchRequest,
  type SkipCounts,
  SKIPPED_NAMED,
  SPREAD_MIN_FILES,
  SPREAD_STRIPES,
  SUMMARY_BYTES,
  SUMMARY_MAX_FILES,
  WORKER_IDLE_MS,
  type WorkerReply,
} from "./protocol.ts";
import type { GlobSpec } from "../glob/mod.ts";
import type { MatcherSpec } from "./scan.ts";
import { Recall, recallKey } from "./recall.ts";
import { HELP_REMEMBERED_MS, helpSearch, mayHelp } from "./help.ts";
import { callsRunning } from "../quiet.ts";
import { atOnce } from "./walk.ts";
import { packPaths, PathNames } from "./packed.ts";
import { workerUrl } from "./worker_source.ts";
import type { Weights } from "./weights.ts";
import { sketchBase, sketchHolding } from "./sketch.ts";

/** Options for one search. */
export interface SearchOptions {
  /** How much work one file may take before the search is stopped; default 1,000 ms. */
  stallMs?: number;
  signal?: AbortSignal;
  /** Only paths this glob passes. */
  glob?: GlobSpec;
  /** Only these files: sorted indices into the listing (see {@linkcode SearchJob.only}). */
  only?: Int32Array;
  /** At most this many workers (default: the pool's size). */
  workers?: number;
  /** With `only`: the part of the listing it vouches for (see {@linkcode SearchJob.vouch}). */
  vouch?: [number, number];
  /** With `only`: each chunk vouches for its own files' folders (see {@linkcode SearchJob.vouchOwn}). */
  vouchOwn?: boolean;
  /**
   * The first chunk found stale ends the search, its answer stale: a kept listing's, which is
   * then made good again or made anew, and the search run again (`engine.ts`).
   */
  staleStops?: boolean;
}

/** A file find skipped: its path, why (binary, too large, not UTF-8) and its size in bytes. */
export interface SkippedFile {
  path: string;
  kind: "binary" | "too_large" | "not_utf8";
  bytes: number;
}

/** The kinds of skipped files, in the order of `SkipCounts`. */
export const SKIP_KINDS = ["binary", "too_large", "not_utf8"] as const;

/** The first {@linkcode SKIPPED_NAMED} of `files`, in path order. */
export function firstSkipped(files: SkippedFile[]): SkippedFile[] {
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, SKIPPED_NAMED);
}

/** What a search found. */
export interface SearchOutcome {
  lines: string[];
  /** The file of each line. */
  paths: string[];
  /** More matching lines exist than were returned. */
  truncated: boolean;
  /** Matching lines found in all (including beyond the cut): a lower bound when truncated. */
  found: number;
  /** Every file was searched (so `found` is exact). */
  complete: boolean;
  skipped: { binary: number; too_large: number; not_utf8: number };
  /** The first skipped files in path order (at most {@linkcode SKIPPED_NAMED}), with why. */
  skippedFiles: SkippedFile[];
  /** Files that passed the glob, in the chunks searched. */
  files: number;
  /** Of those, the files opened and read (the others' summaries ruled the text out). */
  read: number;
  /** A folder that vouches for the searched part of the listing has changed. */
  stale: boolean;
}

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

/**
 * The order in which a search that may answer with any matches claims the `chunks` of a listing
 * (see {@linkcode SPREAD_MIN_FILES}). With `weights` (each chunk's worth for the time reading it
 * takes, `weights.ts`): two of the best chunks left for one of the stripes. Without: the chunks
 * where earlier searches found matches (`hits`), most first, then the stripes. The stripes go
 * round {@linkcode SPREAD_STRIPES} parts of the listing (chunk 0 of each stripe, then chunk 1…).
 *
 * With weights, `hits` no longer count: they tell where earlier patterns matched, and a pattern of
 * another language is elsewhere. After eleven searches of JavaScript words on the 59k-file tree,
 * a first `raise ` read 2,536 files before its 31st line (151 ms) where it reads 92 without them;
 * `→` 1,712 against 580. (Each pattern's own files are remembered apart: `recall.ts`.)
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

export type { PackedPaths };
export { packPaths };

/**
 * The files of a spread search to read first by their sketches (`sketch.ts`): in the search's
 * `order`, the files whose sketches hold the text the pattern requires (`sketchHolding`), at most
 * {@linkcode SKETCH_FIRST_FILES}. Undefined when the pattern requires no text of
 * `SKETCH_MIN_TEXT` bytes or more (or, with ignore_case, text beyond ASCII, which a sketch does
 * not fold), when no sketch that counts holds it, or when it is common (`SKETCH_COMMON`).
 */
export function sketchFirst(
  listing: PoolListing,
  spec: MatcherSpec,
  order: Int32Array,
): Int32Array | undefined {
  return _sketched(listing, spec, order, CHUNK_FILES, SKETCH_FIRST_FILES);
}

/**
 * Of `files` (a narrow glob's), those whose sketches hold the text the pattern requires, in that
 * order, however many hold it (see {@linkcode sketchFirst}).
 */
export function sketchHeld(
  listing: PoolListing,
  spec: MatcherSpec,
  files: Int32Array,
): Int32Array | undefined {
  return _sketched(listing, spec, files, 1, files.length, 1);
}

function _sketched(
  listing: PoolListing,
  spec: MatcherSpec,
  order: Int32Array,
  chunkFiles: number,
  max: number,
  common?: number,
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
    new Uint8Array(listing.sketch, 0, listing.sketch.byteLength),
    new Uint32Array(listing.sketchEnds!),
    listing.names.length,
    text,
    order,
    chunkFiles,
    max,
    common,
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

/** What workers keep of `listing`: the shared memory, not what this thread learns of it. */
function _message(listing: PoolListing): ListingMessage {
  const { names: _, hits: _h, weights: _w, recall: _r, ...shared } = listing;
  return { type: "listing", ...shared };
}

const WATCH_MS = 250;
const FILES_PER_EXTRA_WORKER = 500;

/**
 * How long a worker other than the first waits for the next search before it offers to end: the
 * extra workers serve the searches that read many files themselves (a cold listing, a regular
 * expression git cannot help with), and each costs the server about 20 MB while it lives.
 */
export const EXTRA_IDLE_MS = 2_000;

let _url: string | undefined;

/** The worker's code, made on the first search or {@linkcode SearchPool.prepare} (not at start). */
function _workerUrl(): string {
  return _url ??= workerUrl();
}

function _stallError(stallMs: number, file: string | undefined): ToolError {
  return new ToolError(
    `the pattern took over ${stallMs / 1000} s on one file (${JSON.stringify(file)}) and was ` +
      "stopped: it backtracks catastrophically (nested quantifiers such as (a+)+, lookahead or " +
      "backreferences) or crawls over very long lines; simplify it, add a plain word it must " +
      "contain, or narrow the search with glob",
  );
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
 * Builds the listing workers keep: `checks` are assigned to the chunk where their files sort.
 * `summarize`: a listing kept for later searches holds the files' summaries (when small enough).
 * `packed`: the same `files` already packed ({@linkcode packPaths}, or an earlier listing of them,
 * made in the same listing of the tree: what its searches learnt, `hits` and `recall`, holds for
 * these files too).
 */
export function poolListing(
  id: number,
  files: string[],
  checks: string[],
  root: string,
  startedAt: number,
  summarize = false,
  packed: PackedPaths & Pick<PoolListing, "hits" | "recall"> = atOnce(packPaths(files)),
): PoolListing {
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

interface Slot {
  worker: Worker;
  /** Settles when the worker has started (or failed to). */
  online: Promise<void>;
  up: boolean;
  listing: number;
  onReply?: (reply: JobReply) => void;
  onError?: (error: Error) => void;
}

/** A set of long-lived search workers; see the module comment. */
export class SearchPool {
  #slots: Slot[] = [];
  #max: number;
  #jobs = 0;
  #queue: Promise<unknown> = Promise.resolve();

  #idleMs: number;
  #keepFirst: boolean;
  /** Set while a search runs: the first worker stops sketching at once (`SketchRequest.busy`). */
  #busy = new Int32Array(new SharedArrayBuffer(4));
  #help = true;

  /** Whether this thread helps the workers with plain text (`help.ts`); tests turn it off. */
  set help(on: boolean) {
    this.#help = on;
  }

  /** `keepFirst`: the first worker never ends for being idle (see the module comment). */
  constructor(
    maxWorkers = Math.min(navigator.hardwareConcurrency || 1, 4),
    idleMs = WORKER_IDLE_MS,
    keepFirst = false,
  ) {
    this.#max = Math.max(1, maxWorkers);
    this.#idleMs = idleMs;
    this.#keepFirst = keepFirst;
  }

  /** How many workers are running. */
  get size(): number {
    return this.#slots.length;
  }

  /** At least `workers` workers (default: all) have started (see {@linkcode warm}). */
  ready(workers = this.#max): boolean {
    return this.#slots.length >= Math.min(workers, this.#max) && this.#slots.every((s) => s.up);
  }

  /** Terminates every worker (new ones start on the next search); safe to call more than once. */
  close(): void {
    for (const s of this.#slots) s.worker.terminate();
    this.#slots = [];
  }

  /**
   * A web worker (Deno's own): it costs the server about 6 MB less than a `node:worker_threads`
   * one, and `new Worker` holds this thread for 15–40 ms instead of 90–250 (it returns once the
   * worker's runtime exists). It cannot be unreferenced: a live one keeps the process up, so a
   * process that is done ends it ({@linkcode close}, `resetFind`) or exits (`main.ts`).
   */
  #slot(): Slot {
    const worker = new Worker(_workerUrl(), { type: "module" });
    const { promise: online, resolve } = Promise.withResolvers<void>();
    const slot: Slot = { worker, online, up: false, listing: -1 };
    const up = () => {
      slot.up = true;
      resolve();
    };
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const reply = event.data;
      if (reply.type === "online") return up();
      if (reply.type !== "idle") return slot.onReply?.(reply);
      // Ended only between searches (a search sets onReply); one that starts later starts anew.
      if (slot.onReply || !this.#slots.includes(slot)) return;
      if (this.#keepFirst && this.#slots[0] === slot) return;
      this.#slots = this.#slots.filter((s) => s !== slot);
      worker.terminate();
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault(); // (not passed on to this thread, where it would end the process)
      up();
      slot.onError?.(new Error(event.message));
    };
    return slot;
  }

  /** Loads what starting a worker needs (the Worker class, the worker's code), starting none. */
  prepare(): Promise<void> {
    _workerUrl();
    return Promise.resolve();
  }

  /**
   * Starts `workers` workers (default: all) ahead of a search; settles when they have started.
   * Each `new Worker` holds this thread until that worker is up: while another call runs besides
   * the search's own, only the first is started (see {@linkcode SearchPool.search}).
   */
  warm(workers = this.#max): Promise<void> {
    const start = Math.min(workers, this.#max, callsRunning() <= 1 ? Infinity : 1);
    try {
      while (this.#slots.length < start) this.#slots.push(this.#slot());
    } catch {
      // the search that needs a worker will say why it could not start one
    }
    return Promise.all(this.#slots.map((s) => s.online)).then(() => {});
  }

  /**
   * Has the pool's first worker, which stays (`keepFirst`), sketch `listing`'s files once idle
   * (`sketch.ts`): sends it the listing now, so that the sketches are made before the listing's
   * first warm search rather than only after it. Between searches; nothing without a worker.
   */
  sketch(root: string, listing: PoolListing): void {
    if (!this.#keepFirst || !listing.sketch) return;
    this.#queue = this.#queue.then(() => {
      const slot = this.#slots[0];
      if (!slot?.up) return;
      if (slot.listing !== listing.id) {
        slot.worker.postMessage(_message(listing));
        slot.listing = listing.id;
      }
      const busy = this.#busy.buffer as SharedArrayBuffer;
      slot.worker.postMessage({ type: "sketch", root, busy } satisfies SketchRequest);
    });
  }

  /** Searches `listing` for the first `maxResults` (≥ 0) matching lines; one search at a time. */
  search(
    root: string,
    listing: PoolListing,
    spec: MatcherSpec,
    maxResults: number,
    options: SearchOptions = {},
  ): Promise<SearchOutcome> {
    const run = this.#queue.then(() => this.#run(root, listing, spec, maxResults, options));
    this.#queue = run.catch(() => {});
    return run;
  }

  #run(
    root: string,
    listing: PoolListing,
    spec: MatcherSpec,
    maxResults: number,
    options: SearchOptions,
  ): Promise<SearchOutcome> {
    const files = listing.names;
    const only = options.only;
    const chunks = only
      ? Math.max(1, Math.ceil(only.length / CHUNK_FILES))
      : Math.ceil(files.length / CHUNK_FILES);
    const skipped: SkipCounts = [0, 0, 0];
    const named: SkippedFile[] = [];
    const lines: string[] = [];
    const paths: string[] = [];
    let found = 0;
    let searched = 0;
    let read = 0;
    let cut = false; // a chunk stopped at its limit: its count is a lower bound
    let stale = false;
    // (A listing cut short by the cancel is empty: cancelled all the same, not "no match".)
    if (options.signal?.aborted) return Promise.reject(new DOMException("cancelled", "AbortError"));
    if (files.length === 0) {
      return Promise.resolve(
        this.#outcome(lines, paths, 0, true, [0, 0, 0], 0, 0, false, 0, named),
      );
    }
    const count = only?.length ?? files.length;
    const wanted = Math.min(
      options.workers ?? this.#max,
      this.#max,
      1 + Math.floor(count / FILES_PER_EXTRA_WORKER),
    );
    // A worker is started only while no other call runs (`new Worker` holds this thread until the
    // worker is up, and that call would wait): the search then makes do with those running.
    const start = callsRunning() <= 1 ? wanted : 1;
    while (this.#slots.length < start) this.#slots.push(this.#slot());
    const slots = this.#slots.slice(0, wanted);
    const stallMs = options.stallMs ?? 1000;

    const pending = new Map<number, Extract<WorkerReply, { type: "chunk" }>>();
    const beats = slots.map(() => ({ value: -1, since: performance.now() }));
    let next = 0; // the first chunk not yet taken into `lines`
    // A large listing's search takes each chunk as it comes (see the module comment).
    const spread = !only && files.length > SPREAD_MIN_FILES;
    if (spread) listing.hits ??= new Uint16Array(chunks);
    const recalled = spread ? recallKey(spec, options.glob) : undefined;
    const recall = spread ? listing.recall ??= new Recall() : undefined;
    // (With weights the order is the listing's own: made once.)
    const weights = spread ? weightsOf(listing) : undefined;
    const order = !spread
      ? undefined
      : weights && weights.chunks.length === chunks
      ? weights.order ??= searchOrder(chunks, undefined, weights.chunks)
      : searchOrder(chunks, listing.hits);
    // Read first: the files where the latest search of the pattern (or of one holding it) found
    // matches, else those whose sketches hold its text (`sketch.ts`).
    // (Where only a search of another pattern or glob left files, its sketches' files follow.)
    const same = recall?.files(recalled!);
    const related = same ? undefined : recall?.related(spec);
    const remembered = same ?? related;
    const sketched = spread && !same ? sketchFirst(listing, spec, order!) : undefined;
    const first = related && sketched ? _union(related, sketched) : remembered ?? sketched;
    // This thread searches plain text beside the worker (`help.ts`), in the control slot after
    // the workers' (not watched: this thread answering is its sign of life): a spread search's,
    // at once, but only after a while when remembered files are read first (few, where the
    // answer most likely is: a second reader would read a chunk of the rest beside them, for
    // nothing; yet where they hold too few lines the rest of the tree is read, `café -i` took 1.3
    // s alone against 0.8), and one over some files of a large listing (a narrow glob's, those
    // git names) with one worker, in order, after a while.
    const few = same ?? (sketched ? undefined : related);
    const helped = (spread || only !== undefined && slots.length === 1) &&
      mayHelp(spec) && callsRunning() <= 1 && this.#help;
    const claims = chunks + (first ? Math.ceil(first.length / CHUNK_FILES) : 0);
    const counted = new Set<number>(); // chunks whose hit this search has counted (spread)
    let taken = 0; // chunks taken, in any order (spread)
    const hits: { at: number; line: string; bytes: number }[] = []; // their lines (spread)
    const shared = new SharedArrayBuffer(4 * controlSlots(slots.length + (helped ? 1 : 0)));
    const control = new Int32Array(shared);
    for (let i = 0; i < slots.length; i++) control[CTL_WORKERS + 2 * i + 1] = -1;
    let running = slots.length + (helped ? 1 : 0);
    let settled = false;
    const id = ++this.#jobs;
    const { promise, resolve, reject } = Promise.withResolvers<SearchOutcome>();

    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      Atomics.store(this.#busy, 0, 0);
      clearInterval(watchdog);
      options.signal?.removeEventListener("abort", onAbort);
      Atomics.store(control, CTL_STOP, 1);
      for (const s of slots) s.onReply = s.onError = undefined;
      if (error) return reject(error);
      for (const r of pending.values()) found += r.lines.length; // chunks beyond the cut
      if (spread) {
        recall!.remember(recalled!, hits, spec);
        hits.sort((a, b) => a.at - b.at); // stable: a file's lines stay in order
        for (const h of hits.slice(0, maxResults + 1)) {
          lines.push(h.line);
          paths.push(files.at(h.at));
        }
      }
      resolve(
        this.#outcome(
          lines,
          paths,
          maxResults,
          (spread ? taken >= claims : next >= chunks) && !cut,
          skipped,
          searched,
          read,
          stale,
          found,
          named,
        ),
      );
    };
    const fail = (error: Error) => {
      this.close(); // a worker in an unknown state is not reused
      finish(error);
    };
    const onAbort = () => finish(new DOMException("cancelled", "AbortError"));
    // The backstop: a worker that shows no sign of life for long (stuck, or gone without a word).
    const literal = spec.literal !== undefined;
    const silentMs = literal ? 30_000 : Math.max(10_000, 10 * stallMs);
    const finished = new Set<number>();
    const watchdog = setInterval(() => {
      const now = performance.now();
      for (let i = 0; i < slots.length; i++) {
        const file = control[CTL_WORKERS + 2 * i + 1];
        const beat = control[CTL_WORKERS + 2 * i];
        if (finished.has(i) || beat !== beats[i].value) beats[i] = { value: beat, since: now };
        else if (now - beats[i].since > silentMs) {
          return fail(
            !literal && file >= 0
              ? _stallError(stallMs, files.at(file))
              : new Error("a search worker stopped answering"),
          );
        }
      }
    }, WATCH_MS);
    // Adds a chunk taken into the answer to the counts.
    const tally = (r: Extract<WorkerReply, { type: "chunk" }>) => {
      found += r.lines.length;
      for (let k = 0; k < 3; k++) skipped[k] += r.skipped[k];
      for (let n = 0; n < r.named.length; n += 3) {
        named.push({
          path: files.at(r.named[n]),
          kind: SKIP_KINDS[r.named[n + 1]],
          bytes: r.named[n + 2],
        });
      }
      searched += r.files;
      read += r.read;
      cut ||= r.cut;
      stale ||= r.stale;
    };
    const onReply = (reply: JobReply) => {
      if (reply.job !== id || reply.type === "idle") return; // late news from an earlier search
      if (reply.type === "failed") return fail(new Error(`search failed: ${reply.message}`));
      if (reply.type === "stalled") return finish(_stallError(stallMs, files.at(reply.file)));
      if (reply.type === "done") {
        finished.add(reply.slot);
        return --running === 0 ? finish() : undefined;
      }
      if (reply.stale && options.staleStops) {
        stale = true;
        return finish();
      }
      if (spread) {
        taken++;
        for (let k = 0; k < reply.lines.length; k++) {
          hits.push({ at: reply.at[k], line: reply.lines[k], bytes: reply.bytes[k] });
          const chunk = Math.floor(reply.at[k] / CHUNK_FILES);
          if (!counted.has(chunk) && listing.hits![chunk] < 0xffff) listing.hits![chunk]++;
          counted.add(chunk);
        }
        tally(reply);
        return found > maxResults ? finish() : undefined;
      }
      pending.set(reply.chunk, reply);
      for (let r = pending.get(next); r && next < chunks; r = pending.get(next)) {
        pending.delete(next++);
        for (let k = 0; k < r.lines.length; k++) {
          if (lines.length <= maxResults) {
            lines.push(r.lines[k]);
            paths.push(files.at(r.at[k]));
          }
        }
        tally(r);
        if (found > maxResults) return finish();
      }
    };

    if (options.signal?.aborted) {
      onAbort();
      return promise;
    }
    Atomics.store(this.#busy, 0, 1); // (before the job is posted: see SketchRequest.busy)
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const job: Omit<SearchJob, "slot"> = {
      type: "search",
      id,
      listing: listing.id,
      root,
      glob: options.glob,
      only,
      vouch: options.vouch,
      vouchOwn: options.vouchOwn,
      limit: maxResults + 1,
      order,
      sketch: this.#keepFirst && listing.sketch !== undefined,
      first,
      spec,
      control: shared,
      stallMs,
      idleMs: this.#idleMs,
    };
    slots.forEach((slot, i) => {
      slot.onReply = onReply;
      slot.onError = (err) => {
        fail(new Error(`search worker failed: ${err.message}`));
      };
      if (slot.listing !== listing.id) {
        slot.worker.postMessage(_message(listing));
        slot.listing = listing.id;
      }
      // The first worker stays for a burst of searches; the others, for the search at hand.
      const idleMs = i === 0 ? this.#idleMs : Math.min(this.#idleMs, EXTRA_IDLE_MS);
      // The first worker sketches the listing's files once idle (it stays: the others end).
      const sketch = i === 0 && job.sketch;
      const busy = sketch ? this.#busy.buffer as SharedArrayBuffer : undefined;
      slot.worker.postMessage({ ...job, slot: i, idleMs, sketch, busy } satisfies SearchJob);
    });
    if (helped) {
      const job1 = { ...job, slot: slots.length, idleMs: 0 };
      const fault = (err: Error) => fail(new Error(`search failed: ${err.message}`));
      const after = !spread ? undefined : few ? HELP_REMEMBERED_MS : 0;
      helpSearch(job1, _message(listing), onReply, fault, () => !settled, spread, after);
    }
    return promise;
  }

  #outcome(
    lines: string[],
    paths: string[],
    max: number,
    complete: boolean,
    skipped: SkipCounts,
    files: number,
    read: number,
    stale: boolean,
    found: number,
    named: SkippedFile[],
  ): SearchOutcome {
    return {
      lines: lines.slice(0, max),
      paths: paths.slice(0, max),
      truncated: found > max,
      found,
      complete,
      skipped: { binary: skipped[0], too_large: skipped[1], not_utf8: skipped[2] },
      skippedFiles: firstSkipped(named),
      files,
      read,
      stale,
    };
  }
}

/** Merges two outcomes over disjoint file sets, each in path order, keeping the first `max`. */
export function mergeOutcomes(a: SearchOutcome, b: SearchOutcome, max: number): SearchOutcome {
  const lines: string[] = [];
  const paths: string[] = [];
  let i = 0;
  let j = 0;
  while ((i < a.lines.length || j < b.lines.length) && lines.length < max) {
    const fromA = j >= b.lines.length || (i < a.lines.length && a.paths[i] < b.paths[j]);
    lines.push(fromA ? a.lines[i] : b.lines[j]);
    paths.push(fromA ? a.paths[i++] : b.paths[j++]);
  }
  const found = a.found + b.found;
  return {
    lines,
    paths,
    truncated: found > max,
    found,
    complete: a.complete && b.complete,
    skipped: {
      binary: a.skipped.binary + b.skipped.binary,
      too_large: a.skipped.too_large + b.skipped.too_large,
      not_utf8: a.skipped.not_utf8 + b.skipped.not_utf8,
    },
    skippedFiles: firstSkipped([...a.skippedFiles, ...b.skippedFiles]),
    files: a.files + b.files,
    read: a.read + b.read,
    stale: a.stale || b.stale,
  };
}
