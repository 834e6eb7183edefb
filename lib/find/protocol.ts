/**
 * The messages between find's search (main thread) and its workers, and the layout of the shared
 * control memory they use to split the work and to show that they are still making progress.
 */
import type { MatcherSpec } from "./scan.ts";

/** Files larger than this are skipped (counted as `too_large`). */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Only this many leading bytes are looked at for NUL when deciding a file is binary. */
export const BINARY_PROBE_BYTES = 8192;

/**
 * A worker searches in slices of about this many milliseconds, each under a timeout of the job's
 * `stallMs` plus this: a file that takes longer stops the search.
 */
export const SLICE_MS = 50;

/** Int32 slots of the shared control memory. */
export const CTL_NEXT_CHUNK = 0;
export const CTL_STOP = 1;
/** Per worker: slot `CTL_WORKERS + 2*i` is its heartbeat, the next one the file it is reading. */
export const CTL_WORKERS = 2;

/** Int32 slots needed for `workers` workers. */
export function controlSlots(workers: number): number {
  return CTL_WORKERS + 2 * workers;
}

/** The one message a worker receives: everything it needs to search. */
export interface SearchJob {
  /** Tells replies to this job from late replies to an earlier one. */
  id: number;
  root: string;
  files: string[];
  chunkSize: number;
  /** Most matching lines a chunk needs to report (the caller's limit + 1). */
  limit: number;
  spec: MatcherSpec;
  control: SharedArrayBuffer;
  slot: number;
  /** How long one file may take before the worker gives up on the search. */
  stallMs: number;
}

/** Skip counts, in the order binary, too large, not UTF-8. */
export type SkipCounts = [number, number, number];

/** What a worker posts back. */
export type WorkerReply =
  | {
    type: "chunk";
    job: number;
    chunk: number;
    lines: string[];
    /** For each line, the index of its file in the job's list. */
    at: number[];
    skipped: SkipCounts;
  }
  | { type: "done"; job: number }
  /** A slice overran its timeout on file `file` (an index into the job's list). */
  | { type: "stalled"; job: number; file: number }
  | { type: "failed"; job: number; message: string };
