/**
 * A listing's paths packed into shared memory, and read back one at a time.
 *
 * The workers read the packed paths (`ListingMessage`); the main thread reads the same bytes
 * ({@linkcode PathNames}) instead of keeping a string per path: on a 59k-file tree, 53k strings
 * were 5.3 MB of its heap for as long as the listing was kept, to name the files of the few
 * lines an answer shows and to find the files `git grep` names.
 */
import { Buffer } from "node:buffer";
import type { PackedPaths } from "./protocol.ts";

/** Paths packed between two chances for the event loop to run (a few milliseconds). */
const PACK_SLICE = 4096;

/**
 * The sorted `files` packed for the workers, each path followed by a NUL (paths hold none);
 * yields every {@linkcode PACK_SLICE} paths (run it with `yielding`, or `atOnce`).
 */
export function* packPaths(files: string[]): Generator<void, PackedPaths> {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let i = 0; i < files.length; i += PACK_SLICE) {
    const part = encoder.encode(files.slice(i, i + PACK_SLICE).join("\0") + "\0");
    parts.push(part);
    size += part.length;
    yield;
  }
  const paths = new SharedArrayBuffer(size);
  const bytes = new Uint8Array(paths);
  const ends = new SharedArrayBuffer(4 * files.length);
  const at = new Int32Array(ends);
  let k = 0;
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    for (let i = part.indexOf(0); i >= 0; i = part.indexOf(0, i + 1)) at[k++] = offset + i + 1;
    offset += part.length;
    yield;
  }
  return { paths, ends };
}

/**
 * Path `i` of packed paths (`bytes`, `ends`: see {@linkcode packPaths}): each ends one byte before
 * the next starts (the NUL between them); plain ASCII is made into a string in JavaScript, a third
 * of a decoder call's cost. Also used in the search worker.
 */
export function packedPath(
  bytes: Uint8Array,
  ends: Int32Array,
  i: number,
  decoder: TextDecoder,
): string {
  const path = bytes.subarray(i ? ends[i - 1] : 0, ends[i] - 1);
  for (let k = 0; k < path.length; k++) {
    if (path[k] > 127) return decoder.decode(path);
  }
  return String.fromCharCode.apply(null, path as unknown as number[]);
}

/**
 * The first index from `from` (below `to`) where `holds` is false, when it holds for a run of
 * indices from `from` and for none after (the sorted paths with a prefix): gallops, then halves.
 */
export function runEnd(from: number, to: number, holds: (i: number) => boolean): number {
  let lo = from;
  let hi = from;
  for (let step = 1; hi < to && holds(hi); step *= 2) {
    lo = hi + 1;
    hi = Math.min(to, hi + step);
  }
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (holds(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The sorted paths of a listing, read from their packed bytes ({@linkcode packPaths}): each one
 * made a string only when asked for.
 */
export class PathNames {
  readonly length: number;
  #bytes: Uint8Array;
  #ends: Int32Array;
  #decoder = new TextDecoder();

  constructor(packed: PackedPaths) {
    this.#bytes = new Uint8Array(packed.paths);
    this.#ends = new Int32Array(packed.ends);
    this.length = this.#ends.length;
  }

  /** Path `i`. */
  at(i: number): string {
    return packedPath(this.#bytes, this.#ends, i, this.#decoder);
  }

  /** Where `path` sorts: the index of the first path, from `from` on, not before it. */
  seek(path: string, from = 0): number {
    // Galloping from `from` (paths asked in order are mostly near the last), then halving.
    return runEnd(from, this.length, (i) => this.at(i) < path);
  }

  /** The index of `path`, or -1 (links and submodules are not listed); searched from `from` on. */
  indexOf(path: string, from = 0): number {
    const at = this.seek(path, from);
    return at < this.length && this.at(at) === path ? at : -1;
  }

  /**
   * The index of the first path from `from` on (where one starting with `prefix` sorts: see
   * {@linkcode PathNames.seek}) that does not start with `prefix` (see {@linkcode runEnd}).
   */
  prefixEnd(prefix: string, from: number): number {
    return runEnd(from, this.length, (i) => this.at(i).startsWith(prefix));
  }

  /**
   * Paths `lo` to `hi` (not included), each a string of its own, decoded at once: for all 53k
   * paths of a 59k-file tree 5–12 ms, where one at a time took 80–100.
   */
  slice(lo: number, hi: number): string[] {
    if (hi <= lo) return [];
    const bytes = this.#bytes.subarray(lo ? this.#ends[lo - 1] : 0, this.#ends[hi - 1]);
    let text: string;
    try {
      text = this.#decoder.decode(bytes);
    } catch {
      text = this.#decoder.decode(bytes.slice()); // (a decoder that refuses shared memory)
    }
    const out = text.split("\0");
    out.pop(); // (after the last NUL)
    return out;
  }

  /** Every path (a walk over all of them): {@linkcode PathNames.slice} of the whole listing. */
  all(): string[] {
    return this.slice(0, this.length);
  }

  /**
   * The sorted indices of the paths whose name, or one of whose folders' names, ends with one of
   * `suffixes` (texts without `/`: what a glob `*.py` passes, see `nameSuffixes`); with
   * `negate`, of the others. The bytes are read as one one-byte string (a character a byte), where
   * the native `indexOf` finds each suffix followed by the NUL that ends a path or by a `/`: for
   * the 4.3 MB of paths of a 59k-file tree about 5 ms, where a loop over the bytes took 8–18 (and
   * 18–30 in a fresh process, before V8 had compiled it); decoding them all as strings took 6–12
   * and left 53k strings of garbage. The one string is freed whole.
   */
  withSuffix(suffixes: string[], negate = false): Int32Array {
    const bytes = this.#bytes;
    const ends = this.#ends;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
    const encoder = new TextEncoder();
    let found: number[] = [];
    for (const suffix of suffixes) {
      const tail = String.fromCharCode(...encoder.encode(suffix));
      if (!tail) continue;
      // (A suffix holds no NUL and no `/`, so a match lies within one path; paths hold the
      // matches in order.)
      let i = 0;
      for (let at = text.indexOf(tail); at >= 0; at = text.indexOf(tail, at + 1)) {
        const after = text.charCodeAt(at + tail.length);
        if (after !== 0 && after !== 47) continue;
        while (ends[i] <= at) i++;
        if (found.at(-1) !== i) found.push(i);
      }
    }
    // (A path can hold the matches of several suffixes: in order, each once.)
    if (suffixes.length > 1) found = [...new Set(found)].sort((a, b) => a - b);
    if (!negate) return Int32Array.from(found);
    const out = new Int32Array(this.length - found.length);
    for (let i = 0, k = 0, n = 0; i < this.length; i++) {
      if (found[k] === i) k++;
      else out[n++] = i;
    }
    return out;
  }
}
