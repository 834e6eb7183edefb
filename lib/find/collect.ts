/**
 * find's results, collected in one place: the chunks a search's readers report
 * ({@linkcode Collector}: in path order, or, for a search that may answer with any matches, as
 * they come and sorted at the end), the counts, the skipped files named, and two searches' answers
 * merged ({@linkcode mergeOutcomes}). The pool (`search.ts`) hands every reply here and asks for
 * the outcome; nothing else adds a line to an answer.
 */
import { CHUNK_FILES, type SkipCounts, SKIPPED_NAMED, type WorkerReply } from "./protocol.ts";
import type { PathNames } from "./packed.ts";

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

/** One chunk's report, as a worker (or this thread's help) posts it. */
export type ChunkReply = Extract<WorkerReply, { type: "chunk" }>;

/** A line of a spread search, where it was found. */
export interface SpreadHit {
  at: number;
  line: string;
  bytes: number;
}

/** How a search's answer is collected (see {@linkcode Collector}). */
export interface CollectOptions {
  /** The listing's paths. */
  names: PathNames;
  maxResults: number;
  /** Chunks of the search's files (of `only`, or of the listing). */
  chunks: number;
  /** Chunks claimed in all, the files read first included (what a spread search counts). */
  claims: number;
  /** Any lines will do (a spread search): taken as they come, sorted at the end. */
  spread: boolean;
  /** Per listing chunk, how many searches found a match there: counted once per search. */
  chunkHits?: Uint16Array;
}

/**
 * One search's answer as its chunks come. In order: a chunk's lines are taken once every chunk
 * before it is in, and the search has enough once those hold more than `maxResults` lines. Spread:
 * every chunk's lines are taken as it comes, and the answer is the first in path order of those.
 */
export class Collector {
  readonly hits: SpreadHit[] = [];
  #o: CollectOptions;
  #lines: string[] = [];
  #paths: string[] = [];
  #pending = new Map<number, ChunkReply>();
  #next = 0; // the first chunk not yet taken into the lines (in order)
  #taken = 0; // chunks taken, in any order (spread)
  #counted = new Set<number>(); // listing chunks whose hit this search counted (spread)
  #skipped: SkipCounts = [0, 0, 0];
  #named: SkippedFile[] = [];
  #found = 0;
  #files = 0;
  #read = 0;
  #cut = false; // a chunk stopped at its limit: its count is a lower bound
  /** A folder that vouches for a chunk taken changed (or the search ended on a stale chunk). */
  stale = false;

  constructor(options: CollectOptions) {
    this.#o = options;
  }

  /** Takes a chunk's report; true once the answer has more than `maxResults` lines. */
  add(r: ChunkReply): boolean {
    const { maxResults, spread, names, chunkHits } = this.#o;
    if (spread) {
      this.#taken++;
      for (let k = 0; k < r.lines.length; k++) {
        this.hits.push({ at: r.at[k], line: r.lines[k], bytes: r.bytes[k] });
        const chunk = Math.floor(r.at[k] / CHUNK_FILES);
        if (chunkHits && !this.#counted.has(chunk) && chunkHits[chunk] < 0xffff) chunkHits[chunk]++;
        this.#counted.add(chunk);
      }
      this.#tally(r);
      return this.#found > maxResults;
    }
    this.#pending.set(r.chunk, r);
    for (let p = this.#pending.get(this.#next); p; p = this.#pending.get(this.#next)) {
      if (this.#next >= this.#o.chunks) break;
      this.#pending.delete(this.#next++);
      for (let k = 0; k < p.lines.length && this.#lines.length <= maxResults; k++) {
        this.#lines.push(p.lines[k]);
        this.#paths.push(names.at(p.at[k]));
      }
      this.#tally(p);
      if (this.#found > maxResults) return true;
    }
    return false;
  }

  /** The answer, once the search is over (called once). */
  outcome(): SearchOutcome {
    const { maxResults: max, spread, names } = this.#o;
    for (const r of this.#pending.values()) this.#found += r.lines.length; // beyond the cut
    if (spread) {
      this.hits.sort((a, b) => a.at - b.at); // stable: a file's lines stay in order
      for (const h of this.hits.slice(0, max + 1)) {
        this.#lines.push(h.line);
        this.#paths.push(names.at(h.at));
      }
    }
    const done = spread ? this.#taken >= this.#o.claims : this.#next >= this.#o.chunks;
    const skipped = this.#skipped;
    return {
      lines: this.#lines.slice(0, max),
      paths: this.#paths.slice(0, max),
      truncated: this.#found > max,
      found: this.#found,
      complete: done && !this.#cut,
      skipped: { binary: skipped[0], too_large: skipped[1], not_utf8: skipped[2] },
      skippedFiles: firstSkipped(this.#named),
      files: this.#files,
      read: this.#read,
      stale: this.stale,
    };
  }

  /** Adds a chunk taken into the answer to the counts. */
  #tally(r: ChunkReply): void {
    this.#found += r.lines.length;
    for (let k = 0; k < 3; k++) this.#skipped[k] += r.skipped[k];
    for (let n = 0; n < r.named.length; n += 3) {
      this.#named.push({
        path: this.#o.names.at(r.named[n]),
        kind: SKIP_KINDS[r.named[n + 1]],
        bytes: r.named[n + 2],
      });
    }
    this.#files += r.files;
    this.#read += r.read;
    this.#cut ||= r.cut;
    this.stale ||= r.stale;
  }
}

/** The answer of a search of no file. */
export function emptyOutcome(): SearchOutcome {
  return {
    lines: [],
    paths: [],
    truncated: false,
    found: 0,
    complete: true,
    skipped: { binary: 0, too_large: 0, not_utf8: 0 },
    skippedFiles: [],
    files: 0,
    read: 0,
    stale: false,
  };
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

/** `outcome` with its lines in path order (a file's own lines kept in their order). */
export function byPath(outcome: SearchOutcome): SearchOutcome {
  const order = outcome.paths.map((_, k) => k).sort((a, b) =>
    outcome.paths[a] < outcome.paths[b] ? -1 : outcome.paths[a] > outcome.paths[b] ? 1 : a - b
  );
  return {
    ...outcome,
    lines: order.map((k) => outcome.lines[k]),
    paths: order.map((k) => outcome.paths[k]),
  };
}
