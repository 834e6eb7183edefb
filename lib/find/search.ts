/**
 * Runs a search over a file list in worker threads and gathers the first matches in file order.
 *
 * The list is cut into chunks that workers claim one at a time; the main thread keeps the results
 * of finished chunks in order and stops every worker as soon as the chunks before the first
 * unfinished one hold more than `maxResults` matches. A worker that spends more than `stallMs` on
 * one file (a pattern that backtracks catastrophically) interrupts itself and reports it; a
 * watchdog reading each worker's heartbeat is the backstop. Either way the search fails with a
 * clear error naming the file. The main thread never runs the pattern, so the server keeps
 * answering meanwhile.
 */
import { ToolError } from "../errors.ts";
import {
  controlSlots,
  CTL_STOP,
  CTL_WORKERS,
  type SearchJob,
  type SkipCounts,
  type WorkerReply,
} from "./protocol.ts";
import type { MatcherSpec } from "./scan.ts";
import { workerUrl } from "./worker_source.ts";

/** Options for {@linkcode SearchPool}. */
export interface PoolOptions {
  /** Most workers to use; default: the machine's cores, at most 4. */
  maxWorkers?: number;
  /** How long one file may take before the search is stopped; default 1,000 ms. */
  stallMs?: number;
  signal?: AbortSignal;
}

/** What a search found. */
export interface SearchOutcome {
  lines: string[];
  /** The file of each line. */
  paths: string[];
  /** More matching lines exist than were returned. */
  truncated: boolean;
  skipped: { binary: number; too_large: number; not_utf8: number };
}

const WATCH_MS = 100;
const FILES_PER_EXTRA_WORKER = 2000;

let _url: string | undefined;

function _newWorker(): Worker {
  _url ??= workerUrl();
  return new Worker(_url, { type: "module" });
}

function _stallError(stallMs: number, file: string | undefined): ToolError {
  return new ToolError(
    `the pattern took over ${stallMs / 1000} s on one file (${JSON.stringify(file)}) and was ` +
      "stopped: it backtracks catastrophically (nested quantifiers such as (a+)+, lookahead or " +
      "backreferences) or crawls over very long lines; simplify it, add a plain word it must " +
      "contain, or narrow the search with glob",
  );
}

/**
 * A set of search workers. Create it before listing the files, so the first worker starts while
 * the listing runs; run one search after the other with {@linkcode SearchPool.search}, and
 * {@linkcode SearchPool.close} it at the end (a stopped or failed search closes it at once).
 */
export class SearchPool {
  #workers: Worker[] = [];
  #jobs = 0;
  #max: number;
  #stallMs: number;
  #signal?: AbortSignal;

  constructor(options: PoolOptions = {}) {
    this.#max = Math.max(1, options.maxWorkers ?? Math.min(navigator.hardwareConcurrency || 1, 4));
    this.#stallMs = options.stallMs ?? 1000;
    this.#signal = options.signal;
    this.#workers.push(_newWorker());
  }

  /** Terminates every worker; safe to call more than once. */
  close(): void {
    for (const w of this.#workers) w.terminate();
    this.#workers = [];
  }

  /** Searches `files` (relative to `root`) for the first `maxResults` (≥ 0) matching lines. */
  search(
    root: string,
    files: string[],
    spec: MatcherSpec,
    maxResults: number,
  ): Promise<SearchOutcome> {
    if (files.length === 0) {
      return Promise.resolve({
        lines: [],
        paths: [],
        truncated: false,
        skipped: { binary: 0, too_large: 0, not_utf8: 0 },
      });
    }
    const wanted = Math.min(this.#max, 1 + Math.floor(files.length / FILES_PER_EXTRA_WORKER));
    while (this.#workers.length < wanted) this.#workers.push(_newWorker());
    const workers = this.#workers.slice(0, wanted);
    const chunkSize = Math.min(256, Math.max(16, Math.ceil(files.length / (workers.length * 16))));
    const chunks = Math.ceil(files.length / chunkSize);
    const shared = new SharedArrayBuffer(4 * controlSlots(workers.length));
    const control = new Int32Array(shared);
    for (let i = 0; i < workers.length; i++) control[CTL_WORKERS + 2 * i + 1] = -1;

    const pending = new Map<number, { lines: string[]; at: number[]; skipped: SkipCounts }>();
    const lines: string[] = [];
    const paths: string[] = [];
    const skipped: SkipCounts = [0, 0, 0];
    const beats = workers.map(() => ({ value: -1, since: performance.now() }));
    let next = 0; // the first chunk not yet taken into `lines`
    let running = workers.length;
    let settled = false;
    const id = ++this.#jobs;

    const { promise, resolve, reject } = Promise.withResolvers<SearchOutcome>();
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      this.#signal?.removeEventListener("abort", onAbort);
      Atomics.store(control, CTL_STOP, 1);
      if (error) {
        this.close();
        return reject(error);
      }
      resolve({
        lines: lines.slice(0, maxResults),
        paths: paths.slice(0, maxResults),
        truncated: lines.length > maxResults,
        skipped: { binary: skipped[0], too_large: skipped[1], not_utf8: skipped[2] },
      });
    };
    const onAbort = () => finish(new DOMException("cancelled", "AbortError"));
    const watchdog = setInterval(() => {
      const now = performance.now();
      for (let i = 0; i < workers.length; i++) {
        const file = control[CTL_WORKERS + 2 * i + 1];
        const beat = control[CTL_WORKERS + 2 * i];
        if (file < 0 || beat !== beats[i].value) {
          beats[i] = { value: beat, since: now };
        } else if (now - beats[i].since > this.#stallMs) {
          return finish(_stallError(this.#stallMs, files[file]));
        }
      }
    }, WATCH_MS);
    const onReply = (reply: WorkerReply) => {
      if (reply.job !== id) return; // late news from an earlier search
      if (reply.type === "failed") return finish(new Error(`search failed: ${reply.message}`));
      if (reply.type === "stalled") return finish(_stallError(this.#stallMs, files[reply.file]));
      if (reply.type === "done") return --running === 0 ? finish() : undefined;
      pending.set(reply.chunk, reply);
      for (let r = pending.get(next); r && next < chunks; r = pending.get(next)) {
        pending.delete(next++);
        for (let k = 0; k < r.lines.length; k++) {
          lines.push(r.lines[k]);
          paths.push(files[r.at[k]]);
        }
        for (let k = 0; k < 3; k++) skipped[k] += r.skipped[k];
        if (lines.length > maxResults) return finish();
      }
    };

    if (this.#signal?.aborted) {
      onAbort();
      return promise;
    }
    this.#signal?.addEventListener("abort", onAbort, { once: true });
    const job = {
      id,
      root,
      files,
      chunkSize,
      limit: maxResults + 1,
      spec,
      control: shared,
      stallMs: this.#stallMs,
    };
    workers.forEach((worker, slot) => {
      worker.onmessage = (e: MessageEvent<WorkerReply>) => onReply(e.data);
      worker.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        finish(new Error(`search worker failed: ${e.message}`));
      };
      worker.postMessage({ ...job, slot } satisfies SearchJob);
    });
    return promise;
  }
}
