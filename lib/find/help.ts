/**
 * find's main thread helping its worker with a plain-text search of a large listing.
 *
 * A search of a large listing runs on one worker (a second costs the server about 25 MB while it
 * lives, and starting one holds this thread 0.1–0.4 s), so on a machine of two cores half of it
 * sat idle while `rg` read with both: a word's first 30 on the 59k-file tree took 30–90 ms where
 * `rg | head -30` took 20–40 ms. The main thread waits for the worker meanwhile: in a search that
 * may answer with any matches (spread, see `SPREAD_MIN_FILES`), it claims chunks of the same job
 * from the same shared counter (`searchSteps` in `worker.ts`, the worker's own code)
 * {@linkcode HELP_SLICE_MS} at a time, and answers other calls between its slices; it stops as
 * soon as the chunks reported by all hold enough lines (`CTL_FOUND`), so the workers' replies
 * that end the search are read at once. Once another call runs, it finishes the chunk it holds
 * and claims no more.
 *
 * Only a pattern that is plain text (with or without ignore_case) is searched here: it cannot
 * backtrack, so a slice cannot overrun. A regular expression stays with the worker, which can stop
 * it (`worker.ts`).
 */
import { literalOf } from "./literal.ts";
import { readInto } from "./read.ts";
import type { ListingMessage, SearchJob, WorkerReply } from "./protocol.ts";
import { CTL_FOUND, MAX_FILE_BYTES } from "./protocol.ts";
import type { MatcherSpec } from "./scan.ts";
import { type FileReader, listingView, searchSteps, type WorkerState } from "./worker.ts";
import { callsRunning } from "../quiet.ts";

/**
 * How long the main thread searches before it lets other work run (a call that arrives waits at
 * most that long). Each slice is a timer of its own, run a few milliseconds after the last: the
 * ways to yield without that pause starved what waited (`MessageChannel` the timers; Deno's
 * `setImmediate` the workers' replies and the input, delivered only once the search was over).
 */
export const HELP_SLICE_MS = 8;

/** Whether the main thread may search for `spec` (plain text: see the module comment). */
export function mayHelp(spec: MatcherSpec): boolean {
  return spec.literal !== undefined || literalOf(spec.source) !== undefined;
}

let _chunks = 0;

/** Chunks this thread has searched so far (tests). */
export function helpedChunks(): number {
  return _chunks;
}

let _reader: FileReader | undefined;
let _view: ReturnType<typeof listingView> | undefined;

/** The main thread's reader: one buffer, kept (1 MB). */
function _fileReader(): FileReader {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const buffer = new Uint8Array(MAX_FILE_BYTES + 4);
  const reader: FileReader = {
    buffer,
    opened: undefined,
    read: (path: string) => readInto(path, buffer),
    text: (size: number) => decoder.decode(buffer.subarray(0, size)),
  };
  return reader;
}

/**
 * Searches `job` (slot `job.slot`) on this thread beside the workers, in slices, handing each
 * reply to `onReply` while `live()` says the search still listens; settles when its share is
 * done. An error is handed to `onError` (the search fails as when a worker fails).
 */
export function helpSearch(
  job: SearchJob,
  listing: ListingMessage,
  onReply: (reply: WorkerReply) => void,
  onError: (error: Error) => void,
  live: () => boolean,
): Promise<void> {
  _reader ??= _fileReader();
  if (_view?.message.id !== listing.id || _view.message.paths !== listing.paths) {
    _view = listingView(listing);
  }
  const state: WorkerState = {
    reader: _reader,
    view: _view,
    sums: undefined,
    post: (reply) => {
      if (!live()) return;
      if (reply.type === "chunk") _chunks++;
      onReply(reply);
    },
  };
  const { promise, resolve } = Promise.withResolvers<void>();
  const control = new Int32Array(job.control);
  let steps: ReturnType<typeof searchSteps>;
  const turn = () => {
    try {
      steps ??= searchSteps(job, state);
      if (steps.slice(HELP_SLICE_MS, callsRunning() <= 1, job.limit)) {
        state.post({ type: "done", job: job.id, slot: job.slot });
        return resolve();
      }
      // Enough lines reported: the search ends once this thread reads the workers' replies.
      if (Atomics.load(control, CTL_FOUND) >= job.limit) return resolve();
    } catch (err) {
      if (live()) onError(err instanceof Error ? err : new Error(String(err)));
      return resolve();
    }
    setTimeout(turn, 0); // the calls, the workers' replies and the timers waiting go first
  };
  turn(); // at once: the workers are still receiving the job
  return promise;
}
