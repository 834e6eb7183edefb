/**
 * find's long-lived worker pool: executes one batch of the planner's (`plan.ts`) at a time over a
 * listing, and hands every chunk its readers report to a `Collector` (`collect.ts`). It decides
 * no order: the batch says which files, in which order, and when this thread helps.
 *
 * The workers (web workers: see `#slot`) start on the first search (or ahead of it:
 * {@linkcode SearchPool.warm}) and stay while searches keep coming; a live one keeps the process
 * up, so a process done with find ends them ({@linkcode SearchPool.close}). A worker idle for
 * `WORKER_IDLE_MS` offers to end and is ended, which gives its heap back, except the first one of
 * a pool that keeps it (the server's: starting a worker holds the calling thread until the
 * worker's runtime exists, 15–40 ms, more on a loaded machine, and a call beside it waits as
 * long); the others start only while no other call runs. Each keeps the last listing it was sent
 * (shared memory, see `protocol.ts`), so a warm search sends only the pattern. The files are cut
 * into chunks that readers claim one at a time, and every reader stops as soon as the collector
 * has enough.
 *
 * A regular expression that spends more than `stallMs` of work on one file is stopped by its
 * worker (see `worker_main.ts`), and the search fails with a clear error naming the file; a
 * watchdog reading the workers' heartbeats is the backstop for a worker that stops answering. The
 * main thread never runs a pattern that can backtrack, so the server keeps answering meanwhile.
 */
import { ToolError } from "../errors.ts";
import {
  CHUNK_FILES,
  controlSlots,
  CTL_STOP,
  CTL_WORKERS,
  type JobReply,
  type ListingMessage,
  type SearchJob,
  type SketchRequest,
  WORKER_IDLE_MS,
  type WorkerReply,
} from "./protocol.ts";
import type { GlobSpec } from "../glob/mod.ts";
import type { MatcherSpec } from "./scan.ts";
import { helpSearch, mayHelp } from "./help.ts";
import { callsRunning } from "../quiet.ts";
import { workerUrl } from "./worker_source.ts";
import { Collector, emptyOutcome, type SearchOutcome } from "./collect.ts";
import { type Batch, planTuning } from "./plan.ts";
import type { PoolListing } from "./pool_listing.ts";

/** One search the pool runs: a batch of the planner's over a listing, and how to run it. */
export interface SearchRequest {
  root: string;
  listing: PoolListing;
  spec: MatcherSpec;
  /** The first this many (≥ 0) matching lines are wanted. */
  maxResults: number;
  /**
   * Which files, in which order (`plan.ts`); a function is asked when the search starts, once the
   * searches queued before it are over (and what they learnt is known).
   */
  batch: Batch | (() => Batch);
  /** How much work one file may take before the search is stopped; default 1,000 ms. */
  stallMs?: number;
  signal?: AbortSignal;
  /** Only paths this glob passes. */
  glob?: GlobSpec;
  /** At most this many workers (default: the pool's size). */
  workers?: number;
  /**
   * The first chunk found stale ends the search, its answer stale: a kept listing's, which is
   * then made good again or made anew, and the search run again (`engine.ts`).
   */
  staleStops?: boolean;
}

/** How a pool runs (see {@linkcode SearchPool}). */
export interface PoolOptions {
  /** At most this many workers; default the cores, at most 4. */
  maxWorkers?: number;
  /** How long a worker waits for the next search before it offers to end. */
  idleMs?: number;
  /** The first worker never ends for being idle (see the module comment). */
  keepFirst?: boolean;
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

  constructor(options: PoolOptions = {}) {
    const { maxWorkers = Math.min(navigator.hardwareConcurrency || 1, 4) } = options;
    this.#max = Math.max(1, maxWorkers);
    this.#idleMs = options.idleMs ?? WORKER_IDLE_MS;
    this.#keepFirst = options.keepFirst ?? false;
  }

  /** How many workers are running. */
  get size(): number {
    return this.#slots.length;
  }

  /** At least `workers` workers (default: all) have started (see {@linkcode warm}). */
  ready(workers = this.#max): boolean {
    return this.#slots.length >= Math.min(workers, this.#max) && this.#slots.every((s) => s.up);
  }

  /**
   * Terminates every worker, and with them the listings they keep (new ones start on the next
   * search); safe to call more than once. The one place a pool's workers end, but for an extra
   * worker's idle end (`#slot`).
   */
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

  /** Runs `request`'s batch for its first `maxResults` matching lines; one search at a time. */
  search(request: SearchRequest): Promise<SearchOutcome> {
    const run = this.#queue.then(() => this.#run(request));
    this.#queue = run.catch(() => {});
    return run;
  }

  #run(planned: SearchRequest): Promise<SearchOutcome> {
    const batch = typeof planned.batch === "function" ? planned.batch() : planned.batch;
    const request = { ...planned, batch };
    const listing = request.listing;
    // (A listing cut short by the cancel is empty: cancelled all the same, not "no match".)
    if (request.signal?.aborted) return Promise.reject(new DOMException("cancelled", "AbortError"));
    if (listing.names.length === 0) return Promise.resolve(emptyOutcome());
    const count = batch.only?.length ?? listing.names.length;
    const wanted = Math.min(
      request.workers ?? this.#max,
      this.#max,
      1 + Math.floor(count / FILES_PER_EXTRA_WORKER),
    );
    // A worker is started only while no other call runs (`new Worker` holds this thread until the
    // worker is up, and that call would wait): the search then makes do with those running.
    const start = callsRunning() <= 1 ? wanted : 1;
    while (this.#slots.length < start) this.#slots.push(this.#slot());
    const slots = this.#slots.slice(0, wanted);
    // This thread searches plain text beside the worker (`help.ts`), in the control slot after
    // the workers' (not watched: this thread answering is its sign of life): a spread search's,
    // and one over some files of a large listing (a narrow glob's, those git names) with one
    // worker, in order; when, the batch says.
    const helped = (batch.spread || batch.only !== undefined && slots.length === 1) &&
      mayHelp(request.spec) && callsRunning() <= 1 && planTuning.help;
    const run = new _Run(request, slots, ++this.#jobs, helped, () => {
      Atomics.store(this.#busy, 0, 0);
      this.close(); // a worker in an unknown state is not reused
    });
    if (request.signal?.aborted) return run.cancel();
    Atomics.store(this.#busy, 0, 1); // (before the job is posted: see SketchRequest.busy)
    const job = run.job(this.#idleMs, this.#keepFirst && listing.sketch !== undefined);
    slots.forEach((slot, i) => {
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
    if (helped) run.help(job, _message(listing));
    return run.promise.finally(() => Atomics.store(this.#busy, 0, 0));
  }
}

/**
 * One search in flight: its control memory, the watchdog over its workers' heartbeats, and the
 * replies, handed to its {@linkcode Collector} until it has enough, every reader is done, or it
 * fails or is cancelled.
 */
class _Run {
  readonly promise: Promise<SearchOutcome>;
  #r: SearchRequest & { batch: Batch };
  #slots: Slot[];
  #id: number;
  #stallMs: number;
  #collect: Collector;
  #control: Int32Array;
  #running: number;
  #settled = false;
  #finished = new Set<number>();
  #watchdog: ReturnType<typeof setInterval>;
  #resolve: (outcome: SearchOutcome) => void;
  #reject: (error: Error) => void;
  #broken: () => void;
  #onAbort = () => this.#finish(new DOMException("cancelled", "AbortError"));

  constructor(
    r: SearchRequest & { batch: Batch },
    slots: Slot[],
    id: number,
    helped: boolean,
    broken: () => void,
  ) {
    this.#r = r;
    this.#slots = slots;
    this.#id = id;
    this.#broken = broken;
    this.#stallMs = r.stallMs ?? 1000;
    const { batch, listing } = r;
    const chunks = batch.only
      ? Math.max(1, Math.ceil(batch.only.length / CHUNK_FILES))
      : Math.ceil(listing.names.length / CHUNK_FILES);
    const claims = chunks + (batch.first ? Math.ceil(batch.first.length / CHUNK_FILES) : 0);
    this.#collect = new Collector({
      names: listing.names,
      maxResults: r.maxResults,
      chunks,
      claims,
      spread: batch.spread,
      chunkHits: batch.spread ? listing.hits : undefined,
    });
    const readers = slots.length + (helped ? 1 : 0);
    this.#control = new Int32Array(new SharedArrayBuffer(4 * controlSlots(readers)));
    for (let i = 0; i < slots.length; i++) this.#control[CTL_WORKERS + 2 * i + 1] = -1;
    this.#running = readers;
    const { promise, resolve, reject } = Promise.withResolvers<SearchOutcome>();
    [this.promise, this.#resolve, this.#reject] = [promise, resolve, reject];
    this.#watchdog = this.#watch();
    for (const slot of slots) {
      slot.onReply = (reply) => this.#reply(reply);
      slot.onError = (err) => this.#fail(new Error(`search worker failed: ${err.message}`));
    }
    r.signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** The job every reader runs (each with its own slot). */
  job(idleMs: number, sketch: boolean): Omit<SearchJob, "slot"> {
    const { root, listing, spec, glob, batch, maxResults } = this.#r;
    return {
      type: "search",
      id: this.#id,
      listing: listing.id,
      root,
      glob,
      only: batch.only,
      vouch: batch.vouch,
      vouchOwn: batch.vouchOwn,
      limit: maxResults + 1,
      order: batch.order,
      sketch,
      first: batch.first,
      spec,
      control: this.#control.buffer as SharedArrayBuffer,
      stallMs: this.#stallMs,
      idleMs,
    };
  }

  /** This thread reads beside the workers (`help.ts`), in the slot after theirs. */
  help(job: Omit<SearchJob, "slot">, listing: ListingMessage): void {
    const { batch } = this.#r;
    void helpSearch({ ...job, slot: this.#slots.length, idleMs: 0 }, listing, {
      onReply: (reply) => this.#reply(reply),
      onError: (err) => this.#fail(new Error(`search failed: ${err.message}`)),
      live: () => !this.#settled,
      spread: batch.spread,
      after: batch.spread ? batch.helpAfter ?? 0 : planTuning.helpAfterMs,
    });
  }

  /** Ends a search cancelled before it began. */
  cancel(): Promise<SearchOutcome> {
    this.#onAbort();
    return this.promise;
  }

  /** The backstop: a worker that shows no sign of life for long (stuck, or gone without a word). */
  #watch(): ReturnType<typeof setInterval> {
    const literal = this.#r.spec.literal !== undefined;
    const silentMs = literal ? 30_000 : Math.max(10_000, 10 * this.#stallMs);
    const beats = this.#slots.map(() => ({ value: -1, since: performance.now() }));
    const control = this.#control;
    return setInterval(() => {
      const now = performance.now();
      for (let i = 0; i < beats.length; i++) {
        const file = control[CTL_WORKERS + 2 * i + 1];
        const beat = control[CTL_WORKERS + 2 * i];
        if (this.#finished.has(i) || beat !== beats[i].value) {
          beats[i] = { value: beat, since: now };
        } else if (now - beats[i].since > silentMs) {
          return this.#fail(
            !literal && file >= 0
              ? _stallError(this.#stallMs, this.#r.listing.names.at(file))
              : new Error("a search worker stopped answering"),
          );
        }
      }
    }, WATCH_MS);
  }

  #reply(reply: JobReply): void {
    if (reply.job !== this.#id || reply.type === "idle") return; // late news from an earlier search
    if (reply.type === "failed") return this.#fail(new Error(`search failed: ${reply.message}`));
    if (reply.type === "stalled") {
      return this.#finish(_stallError(this.#stallMs, this.#r.listing.names.at(reply.file)));
    }
    if (reply.type === "done") {
      this.#finished.add(reply.slot);
      return --this.#running === 0 ? this.#finish() : undefined;
    }
    if (reply.stale && this.#r.staleStops) {
      this.#collect.stale = true;
      return this.#finish();
    }
    if (this.#collect.add(reply)) this.#finish();
  }

  #fail(error: Error): void {
    this.#broken();
    this.#finish(error);
  }

  #finish(error?: Error): void {
    if (this.#settled) return;
    this.#settled = true;
    clearInterval(this.#watchdog);
    this.#r.signal?.removeEventListener("abort", this.#onAbort);
    Atomics.store(this.#control, CTL_STOP, 1);
    for (const s of this.#slots) s.onReply = s.onError = undefined;
    if (error) return this.#reject(error);
    this.#r.batch.learn?.(this.#collect.hits);
    this.#resolve(this.#collect.outcome());
  }
}
