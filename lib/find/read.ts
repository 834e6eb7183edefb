/**
 * Reading and searching one file for plain text on the calling thread, as a search worker does it
 * (`worker.ts`, whose code must stay self-contained): one read into a reused buffer, files over
 * {@linkcode MAX_FILE_BYTES} skipped as too large when they hold the text (anywhere), the
 * raw bytes searched first (a file without the text is neither decoded nor counted), then the NUL
 * test for binary files and strict UTF-8 decoding.
 */
import { BINARY_PROBE_BYTES, COMMON_BYTES, MAX_FILE_BYTES } from "./protocol.ts";
import { makeScanner, type MatcherSpec, type Scanner } from "./scan.ts";

/** What one file gave: its matching lines (at most the search's limit), or why it was skipped. */
export interface FileResult {
  lines: string[];
  /** 0 binary, 1 too large, 2 not UTF-8 (the order of `SkipCounts`). */
  skip?: 0 | 1 | 2;
  /** With `skip`: the file's size in bytes. */
  bytes?: number;
}

/**
 * Whether the first `size` bytes of `buffer` hold `needle`, sought by its rarest byte. Only those
 * bytes are searched: `indexOf` over the whole 1 MB buffer made a file without the text cost a
 * scan of 1 MB (a no-match `call find` over 30,000 small files took 10 s instead of 0.3 s).
 */
function _holds(buffer: Uint8Array, size: number, needle: Uint8Array, rare: number): boolean {
  const hay = buffer.subarray(0, size);
  const byte = needle[rare];
  const end = size - needle.length + rare;
  for (let i = hay.indexOf(byte, rare); i >= 0 && i <= end; i = hay.indexOf(byte, i + 1)) {
    const start = i - rare;
    let k = 0;
    while (k < needle.length && hay[start + k] === needle[k]) k++;
    if (k === needle.length) return true;
  }
  return false;
}

/**
 * Reads `path` into `buffer` in one read, up to {@linkcode MAX_FILE_BYTES} + 1 bytes (a regular
 * file reads short only at its end, so a full read means too large); -1 when it cannot be read
 * (gone, a folder). With `opened`, the open file's own stat (exactly what was read) is put in
 * `opened.info`. Also used in the search worker.
 */
export function readInto(
  path: string,
  buffer: Uint8Array,
  opened?: { info?: Deno.FileInfo },
): number {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path);
  } catch {
    return -1;
  }
  try {
    const size = file.readSync(buffer.subarray(0, MAX_FILE_BYTES + 1)) ?? 0;
    if (opened) opened.info = file.statSync();
    return size;
  } catch {
    return -1;
  } finally {
    file.close();
  }
}

/**
 * Whether the file at `path`, read past its first {@linkcode MAX_FILE_BYTES}, holds what `test`
 * looks for in the first `size` bytes of `buffer` (at least {@linkcode MAX_FILE_BYTES} long): a
 * file too large to search still counts as skipped when it holds the text anywhere. `width` is
 * how many bytes the text may span (each read overlaps the last by that much). Also written into
 * the worker's source: it may use nothing but its arguments, the constant and globals.
 */
export function holdsPast(
  path: string,
  buffer: Uint8Array,
  width: number,
  test: (size: number) => boolean,
): boolean {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path);
  } catch {
    return false;
  }
  try {
    for (let at = MAX_FILE_BYTES - width;; at += MAX_FILE_BYTES - width) {
      file.seekSync(at, Deno.SeekMode.Start);
      const size = file.readSync(buffer.subarray(0, MAX_FILE_BYTES)) ?? 0;
      if (size > 0 && test(size)) return true;
      if (size < MAX_FILE_BYTES) return false; // a regular file reads short only at its end
    }
  } catch {
    return false;
  } finally {
    file.close();
  }
}

/**
 * Whether `path` (`realRoot`'s file `rel`, where `realRoot` is the real path of the folder searched)
 * is reached without a symbolic link: find does not follow links, yet a listing can name a path
 * that became one (git lists a tracked file by its index entry, even when a link to a file outside
 * the project replaced it on disk, or a folder on its way did). Asked only of a file that gave
 * lines, so a search pays one `realpath` per file shown. Also used in the search worker.
 */
export function direct(path: string, realRoot: string, rel: string): boolean {
  try {
    return Deno.realPathSync(path) === `${realRoot}/${rel}`;
  } catch {
    return false;
  }
}

/** Index in `needle` of its rarest byte in source code. */
function _rarest(needle: Uint8Array): number {
  let rare = 0;
  let rank = -1;
  for (let k = 0; k < needle.length; k++) {
    const common = COMMON_BYTES.indexOf(String.fromCharCode(needle[k]));
    const r = common < 0 ? COMMON_BYTES.length : common;
    if (r > rank) [rare, rank] = [k, r];
  }
  return rare;
}

/** Reads and searches one file at a time, as a worker does, for one plain-text pattern. */
export class FileSearch {
  #buffer = new Uint8Array(MAX_FILE_BYTES + 1);
  #decoder = new TextDecoder("utf-8", { fatal: true });
  #needle: Uint8Array;
  #rare: number;
  #scanner: Scanner;
  #done = new Map<string, FileResult>();
  #realRoot: string | undefined;

  constructor(private root: string, spec: MatcherSpec, private limit: number) {
    this.#needle = new TextEncoder().encode(spec.literal!);
    this.#rare = _rarest(this.#needle);
    this.#scanner = makeScanner(spec);
  }

  /** The file `rel`'s first `limit` matching lines, or why it is skipped; each file read once. */
  search(rel: string): FileResult {
    let result = this.#done.get(rel);
    if (!result) this.#done.set(rel, result = this.#search(rel));
    return result;
  }

  #search(rel: string): FileResult {
    const size = readInto(`${this.root}/${rel}`, this.#buffer);
    if (size < 0) return { lines: [] };
    const holds = (n: number) => _holds(this.#buffer, n, this.#needle, this.#rare);
    if (size > MAX_FILE_BYTES) {
      const path = `${this.root}/${rel}`;
      const anywhere = holds(MAX_FILE_BYTES) ||
        holdsPast(path, this.#buffer, this.#needle.length, holds);
      if (!anywhere) return { lines: [] };
      let bytes = size;
      try {
        bytes = Deno.statSync(path).size;
      } catch {
        // gone meanwhile: what was read
      }
      return { lines: [], skip: 1, bytes };
    }
    if (!holds(size)) return { lines: [] }; // (binary or not: it cannot match)
    if (this.#buffer.subarray(0, Math.min(size, BINARY_PROBE_BYTES)).indexOf(0) >= 0) {
      return { lines: [], skip: 0, bytes: size };
    }
    let text: string;
    try {
      text = this.#decoder.decode(this.#buffer.subarray(0, size));
    } catch {
      return { lines: [], skip: 2, bytes: size };
    }
    const hits = this.#scanner.scan(text, this.limit);
    if (hits.length) {
      this.#realRoot ??= Deno.realPathSync(this.root);
      if (!direct(`${this.root}/${rel}`, this.#realRoot, rel)) return { lines: [] };
    }
    return { lines: hits.map((hit) => `${rel}:${hit.line}:${hit.text}`) };
  }
}
