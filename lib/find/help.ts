/**
 * find's main thread helping its worker with a plain-text search of a large listing.
 *
 * A search of a large listing runs on one worker (a second costs the server about 25 MB while it
 * lives, and starting one holds this thread 0.1–0.4 s), so on a machine of two cores half of it
 * sat idle while `rg` read with both: a word's first 30 on the 59k-file tree took 30–90 ms where
 * `rg | head -30` took 20–40 ms. The main thread waits for the worker meanwhile: in a search that
 * may answer with any matches (spread, see `SPREAD_MIN_FILES`) at once (after
 * `HELP_REMEMBERED_MS` when it reads first the files where its pattern matched before), and in
 * one over some files in order (a narrow glob's) once it has run for `HELP_AFTER_MS` (both
 * `plan.ts`'s), it claims
 * chunks of the same job from the same shared counter (`searchSteps` in `worker.ts`, the worker's
 * own code) {@linkcode HELP_SLICE_MS} at a time, and answers other calls between its slices; it stops as
 * soon as the chunks reported by all hold enough lines (`CTL_FOUND`), so the workers' replies
 * that end the search are read at once. Once another call runs, it finishes the chunk it holds
 * and claims no more.
 *
 * Only a pattern that cannot backtrack much is searched here (plain text, with or without
 * ignore_case, or a regular expression {@linkcode linearRegex} passes), so a slice cannot overrun;
 * any other regular expression stays with the worker, which can stop it (`worker.ts`).
 */
import { literalOf } from "./literal.ts";
import { readInto } from "./read.ts";
import type { JobReply, ListingMessage, SearchJob } from "./protocol.ts";
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

/** Whether the main thread may search for `spec` (see the module comment). */
export function mayHelp(spec: MatcherSpec): boolean {
  return spec.literal !== undefined || literalOf(spec.source) !== undefined ||
    linearRegex(spec.source);
}

/** The largest count {@linkcode linearRegex} lets through (`{n}`, `{n,}`, `{n,m}`). */
const MAX_COUNT = 100;

/** A quantifier at the start of the text: `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, maybe lazy. */
const QUANTIFIER = /^(?:[*+?]|\{(\d+)(,\d*)?\})\??/;

/**
 * Whether the regular expression `source` cannot backtrack beyond a bounded amount at each
 * position, so it runs in time linear in the text: no group, alternation, backreference or
 * lookaround, no quantifier but an exact count (`{n}`, n ≤ 100) except on its last atom
 * (`[A-Z]{12}`, `\bfoo\d+`, `\d{4}-\d{2}-\d{2}`, `console\.log\(\w+`; not `\w+Error`).
 */
export function linearRegex(source: string): boolean {
  let open = false; // an atom with a quantifier other than {n} was read: nothing may follow
  for (let i = 0; i < source.length;) {
    if (open) return false;
    const ch = source[i];
    let end = i + 1;
    if ("()|*+?".includes(ch)) return false;
    if (ch === "{" && QUANTIFIER.test(source.slice(i))) return false;
    if (ch === "\\") {
      const next = source[i + 1];
      if (next === undefined || /[1-9k]/.test(next)) return false; // a backreference
      if (next === "x") end = i + 4;
      else if (next === "c") end = i + 3;
      else if (next === "u" || next === "p" || next === "P") {
        const close = source[i + 2] === "{" ? source.indexOf("}", i) + 1 : i + 6;
        if (close <= i) return false;
        end = next === "u" ? close : source[i + 2] === "{" ? close : i + 2;
      } else end = i + 2;
    } else if (ch === "[") {
      end = _classEnd(source, i);
      if (end < 0) return false;
    }
    const q = QUANTIFIER.exec(source.slice(end));
    if (q) {
      if (Number(q[1] ?? 0) > MAX_COUNT) return false; // a{100000}: that much work at each place
      if (!(q[0][0] === "{" && q[2] === undefined)) open = true;
      end += q[0].length;
    }
    i = end;
  }
  return true;
}

/** Index just after the `]` that closes the class opening at `i`, or -1. */
function _classEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === "^") j++;
  if (p[j] === "]") j++;
  for (; j < p.length; j++) {
    if (p[j] === "\\") j++;
    else if (p[j] === "]") return j + 1;
  }
  return -1;
}

let _chunks = 0;

/** Chunks this thread has searched so far (tests). */
export function helpedChunks(): number {
  return _chunks;
}

let _reader: FileReader | undefined;

/**
 * The main thread's reader: one buffer, kept (1 MB). Text is decoded as UTF-8 (the worker makes
 * plain ASCII a one-byte string, faster once V8 has compiled it; on this thread, which helps now
 * and then, it stays cold: a narrow glob's first search took 26 ms against 18–22).
 */
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

/** How this thread helps one search (see {@linkcode helpSearch}). */
export interface HelpOptions {
  /** Each reply, while `live()` says the search still listens. */
  onReply: (reply: JobReply) => void;
  /** An error (the search fails as when a worker fails). */
  onError: (error: Error) => void;
  live: () => boolean;
  /** Any lines will do (see the module comment). */
  spread: boolean;
  /** Milliseconds before it starts. */
  after: number;
}

/**
 * Searches `job` (slot `job.slot`) on this thread beside the workers, in slices; settles when its
 * share is done.
 */
export function helpSearch(
  job: SearchJob,
  listing: ListingMessage,
  options: HelpOptions,
): Promise<void> {
  const { onReply, onError, live, spread, after } = options;
  _reader ??= _fileReader();
  const state: WorkerState = {
    reader: _reader,
    view: listingView(listing), // not kept: it would keep a listing dropped since
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
      // A search in order takes the chunks' lines in order: a chunk left unreported would hold
      // back the ones after it, so this thread stops only between chunks (when the search does).
      const enough = spread ? job.limit : Infinity;
      if (steps.slice(HELP_SLICE_MS, callsRunning() <= 1, enough)) {
        state.post({ type: "done", job: job.id, slot: job.slot });
        return resolve();
      }
      // Enough lines reported: the search ends once this thread reads the workers' replies.
      if (Atomics.load(control, CTL_FOUND) >= enough) return resolve();
    } catch (err) {
      if (live()) onError(err instanceof Error ? err : new Error(String(err)));
      return resolve();
    }
    setTimeout(turn, 0); // the calls, the workers' replies and the timers waiting go first
  };
  // A spread search at once: each reader stops where it is once enough lines are found between
  // them. One in order only after a while: this thread finishes the chunk it holds before the
  // answer, and most end within the worker's first chunk (see HELP_AFTER_MS).
  setTimeout(turn, after);
  return promise;
}
