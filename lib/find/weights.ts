/**
 * What reading each chunk of a listing is worth for the time it takes, from the file sizes git's
 * index keeps (no file is opened or stat'ed): a spread search reads the best chunks first, and a
 * narrow glob's files are read best first (`searchOrder` in `search.ts`, `searchKept` in
 * `warm.ts`).
 *
 * A first search for a pattern knows nothing of where it matches. A chunk of 64 real source files
 * holds far more lines than a chunk of 64 one-line test fixtures, each in its own folder; but each
 * file costs about 10 µs to open and read before its first byte is looked at, each folder of a
 * chunk is checked too, and each byte costs about a nanosecond (read, sought, decoded where it
 * holds the text). So a file is worth its bytes up to {@linkcode WEIGHT_CAP_BYTES} (one huge
 * generated file is not worth 64 real ones), and a chunk is ranked by its files' worth over its
 * cost. Replayed over 48 patterns' real hits on a 59k-file tree (deno, babel, mypy, prettier; the
 * patterns of BENCHMARKS.md and 31 more), reaching 31 lines took (geometric mean) 57 ms with the
 * stripes alone, 16.9 ms by worth alone and 13.6 ms by worth over cost. Words that live in tiny
 * fixture files (`use strict`, dates) are found
 * later, so every third chunk still comes from the stripes.
 *
 * The index format: https://git-scm.com/docs/index-format (versions 2, 3 and 4, SHA-1 or SHA-256
 * object names). Anything unexpected gives no weights, and the stripes alone are used.
 */
import { MAX_FILE_BYTES } from "./protocol.ts";
import type { PackedPaths } from "./protocol.ts";

/** A file counts for at most this many bytes in its chunk's weight. */
export const WEIGHT_CAP_BYTES = 32 * 1024;

/** What a file the index does not know (untracked, or not matched) is taken to hold. */
export const UNKNOWN_FILE_BYTES = 4096;

/** The time opening and reading a file takes before its first byte is looked at, in µs. */
export const FILE_COST_US = 10;
/** The time checking one folder that vouches for a chunk takes, in µs. */
export const FOLDER_COST_US = 10;
/** The time one byte of a file takes (read, sought, decoded where it holds the text), in µs. */
export const BYTE_COST_US = 0.001;

/** Index entries weighed between two chances for the event loop to run. */
const WEIGH_SLICE = 4096;

/** What one file of `size` bytes is worth to a search (a file too large to search: nothing). */
export function fileWorth(size: number): number {
  return size > MAX_FILE_BYTES ? 0 : Math.min(size, WEIGHT_CAP_BYTES);
}

/** The time reading one file of `size` bytes takes, in µs (a file too large: read to its limit). */
export function fileCost(size: number): number {
  return FILE_COST_US + Math.min(size, MAX_FILE_BYTES) * BYTE_COST_US;
}

/** What a listing's files are worth to a search, from git's index. */
export interface Weights {
  /** Each chunk's worth over its cost: {@linkcode fileWorth} summed over {@linkcode fileCost} and its folders'. */
  chunks: Float64Array;
  /** Each file's size as the index holds it ({@linkcode UNKNOWN_FILE_BYTES} when it does not). */
  sizes: Uint32Array;
  /** The order of a spread search over the chunks (`searchOrder`), once one is made. */
  order?: Int32Array;
}

/**
 * `files` (indices into the listing), best first: most worth for the time (see
 * {@linkcode fileWorth}, {@linkcode fileCost}), ties in the listing's order.
 */
export function bestFirst(files: Int32Array, sizes: Uint32Array): Int32Array {
  const rate = (i: number) => fileWorth(sizes[i]) / fileCost(sizes[i]);
  return Int32Array.from([...files].sort((a, b) => rate(b) - rate(a) || a - b));
}

/** The byte offset of each entry's path, its length, and its file size, as the index holds them. */
interface IndexEntries {
  /** Entries read. */
  count: number;
  /** Each entry's path, UTF-8 (version 4: rebuilt from the previous path). */
  path(k: number): Uint8Array;
  size: Uint32Array;
}

/**
 * Reads the entries of git's index file `bytes` (sizes and paths); undefined when it is not an
 * index of version 2 to 4 this reader understands. Yields every {@linkcode WEIGH_SLICE} entries.
 */
export function* indexEntries(bytes: Uint8Array): Generator<void, IndexEntries | undefined> {
  if (bytes.length < 12 || String.fromCharCode(...bytes.subarray(0, 4)) !== "DIRC") return;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4);
  const count = view.getUint32(8);
  if (version < 2 || version > 4 || count > bytes.length / 40) return;
  const size = new Uint32Array(count);
  const starts = new Uint32Array(count); // versions 2, 3: where each path starts
  const ends = new Uint32Array(count);
  const paths: Uint8Array[] = []; // version 4: each path rebuilt
  let previous = new Uint8Array(0);
  // SHA-1 or SHA-256: the one whose first entry ends where its flags say.
  const hashLength = [20, 32].find((h) => _fits(bytes, view, version, 12, h));
  if (hashLength === undefined) return;
  let at = 12;
  for (let k = 0; k < count; k++) {
    if (k % WEIGH_SLICE === WEIGH_SLICE - 1) yield;
    if (at + 40 + hashLength + 2 > bytes.length) return;
    size[k] = view.getUint32(at + 36);
    const flags = view.getUint16(at + 40 + hashLength);
    let from = at + 40 + hashLength + 2 + (version >= 3 && flags & 0x4000 ? 2 : 0);
    if (version === 4) {
      // The number of bytes to drop from the previous path (a varint), then the rest, NUL-ended.
      let strip = 0;
      let byte: number;
      let shift = 0;
      do {
        if (from >= bytes.length || shift > 28) return;
        byte = bytes[from++];
        strip = shift ? ((strip + 1) << 7) | (byte & 0x7f) : byte & 0x7f;
        shift += 7;
      } while (byte & 0x80);
      const nul = bytes.indexOf(0, from);
      if (nul < 0 || strip > previous.length) return;
      const path = new Uint8Array(previous.length - strip + nul - from);
      path.set(previous.subarray(0, previous.length - strip));
      path.set(bytes.subarray(from, nul), previous.length - strip);
      paths.push(previous = path);
      at = nul + 1;
    } else {
      const nul = bytes.indexOf(0, from);
      if (nul < 0) return;
      starts[k] = from;
      ends[k] = nul;
      // Padded with one to eight NULs to a multiple of eight bytes from the entry's start.
      at += (nul - at + 8) & ~7;
    }
  }
  return {
    count,
    size,
    path: version === 4 ? (k) => paths[k] : (k) => bytes.subarray(starts[k], ends[k]),
  };
}

/** Whether an entry at `at` with object names of `hashLength` bytes ends as its flags say. */
function _fits(
  bytes: Uint8Array,
  view: DataView,
  version: number,
  at: number,
  hashLength: number,
): boolean {
  const flagsAt = at + 40 + hashLength;
  if (flagsAt + 2 > bytes.length) return false;
  const flags = view.getUint16(flagsAt);
  const length = flags & 0xfff;
  if (length === 0xfff) return true; // a long name: no check possible, take the first guess
  if (version === 4) return true; // (its first path has nothing to strip: checked as it is read)
  const from = flagsAt + 2 + (version >= 3 && flags & 0x4000 ? 2 : 0);
  return bytes[from + length] === 0 && bytes.indexOf(0, from) === from + length;
}

/** -1, 0 or 1 as `a` sorts before, with or after `b`, byte by byte. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/**
 * What the listing's files are worth (see {@linkcode Weights}), in chunks of `chunkFiles` files,
 * for the listing whose paths are `packed` (sorted), from the index `bytes`. Both lists are sorted,
 * so they are walked side by side (a path beyond the Basic Multilingual Plane can sort differently
 * in the two: its file is then taken as unknown). Undefined when the index cannot be read. Yields
 * every few thousand entries (run it with `yielding`).
 */
export function* chunkWeights(
  bytes: Uint8Array,
  packed: PackedPaths,
  chunkFiles: number,
): Generator<void, Weights | undefined> {
  const entries = yield* indexEntries(bytes);
  if (!entries) return undefined;
  const pathBytes = new Uint8Array(packed.paths);
  const ends = new Int32Array(packed.ends);
  const files = ends.length;
  const sizes = new Uint32Array(files).fill(UNKNOWN_FILE_BYTES);
  let j = 0;
  for (let k = 0; k < entries.count && j < files; k++) {
    if (k % WEIGH_SLICE === WEIGH_SLICE - 1) yield;
    const path = entries.path(k);
    // The listing's paths before this entry are not in the index (untracked): skipped.
    for (; j < files; j++) {
      const file = pathBytes.subarray(j ? ends[j - 1] : 0, ends[j] - 1);
      const order = compareBytes(file, path);
      if (order > 0) break; // an entry the listing does not hold (a link, a later stage)
      if (order === 0) {
        sizes[j++] = entries.size[k];
        break;
      }
    }
  }
  return weighChunks(sizes, packed, chunkFiles);
}

/**
 * What the listing's files are worth (see {@linkcode Weights}), in chunks of `chunkFiles` files,
 * for the listing whose paths are `packed` (sorted), from each file's size (`sizes`, kept: from
 * git's index, or as the worker read the files to sketch them, see `ListingMessage.sizes`). Also
 * used in the search worker.
 */
export function weighChunks(sizes: Uint32Array, packed: PackedPaths, chunkFiles: number): Weights {
  const pathBytes = new Uint8Array(packed.paths);
  const ends = new Int32Array(packed.ends);
  const files = ends.length;
  const count = Math.max(1, Math.ceil(files / chunkFiles));
  const worth = new Float64Array(count);
  const cost = new Float64Array(count);
  let folder = -1; // where the previous path's folder ends (its last `/`), and its start
  let from = 0;
  for (let i = 0; i < files; i++) {
    const chunk = Math.floor(i / chunkFiles);
    worth[chunk] += fileWorth(sizes[i]);
    cost[chunk] += fileCost(sizes[i]);
    // A folder of its own (not the previous path's, or the first of its chunk): checked too.
    const start = i ? ends[i - 1] : 0;
    const slash = pathBytes.lastIndexOf(47, ends[i] - 1);
    const own = slash < start ? -1 : slash - start;
    if (
      i % chunkFiles === 0 || own !== folder ||
      compareBytes(
          pathBytes.subarray(start, start + own),
          pathBytes.subarray(from, from + folder),
        ) !==
        0
    ) cost[chunk] += FOLDER_COST_US;
    folder = own;
    from = start;
  }
  for (let k = 0; k < count; k++) worth[k] = cost[k] ? worth[k] / cost[k] : 0;
  return { chunks: worth, sizes };
}
