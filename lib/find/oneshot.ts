/**
 * find in a process that answers one call and exits (`localexec call find`): plain text is
 * searched on the calling thread, with no worker to start (starting two costs a one-shot call
 * about 50 ms, more than its search). A regular expression still goes to the workers, whose
 * timeout stops one that backtracks; plain text cannot backtrack.
 *
 * The answer is the one a warm server gives over the same listing: the files in path order
 * (tracked and untracked merged), cut into the pool's chunks of {@linkcode CHUNK_FILES}, each
 * searched until it holds `maxResults + 1` lines, the search ending after the chunk that brings
 * the count past `maxResults`; each file is read, skipped and decoded as a worker does
 * (`worker.ts`). The tracked files are searched while git still lists the untracked ones; those
 * results are kept and used once the untracked files are known and the order is final.
 */
import { globMatches, type GlobSpec } from "./glob.ts";
import { listProject } from "./list.ts";
import { BINARY_PROBE_BYTES, CHUNK_FILES, COMMON_BYTES, MAX_FILE_BYTES } from "./protocol.ts";
import { makeScanner, type MatcherSpec, type Scanner } from "./scan.ts";
import type { SearchOutcome } from "./search.ts";

/** What one file gave: its matching lines (at most the search's limit), or why it was skipped. */
interface FileResult {
  lines: string[];
  /** 0 binary, 1 too large, 2 not UTF-8 (the order of `SkipCounts`). */
  skip?: 0 | 1 | 2;
}

/** How long the tracked files are searched before the event loop gets a turn (git's output). */
const TURN_MS = 2;

/** Whether the first `size` bytes of `hay` hold `needle`, sought by its rarest byte. */
function _holds(hay: Uint8Array, size: number, needle: Uint8Array, rare: number): boolean {
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
class FileSearch {
  #buffer = new Uint8Array(MAX_FILE_BYTES + 1);
  #decoder = new TextDecoder("utf-8", { fatal: true });
  #needle: Uint8Array;
  #rare: number;
  #scanner: Scanner;

  constructor(private root: string, spec: MatcherSpec, private limit: number) {
    this.#needle = new TextEncoder().encode(spec.literal!);
    this.#rare = _rarest(this.#needle);
    this.#scanner = makeScanner(spec);
  }

  /** One read: a regular file reads short only at its end. -1 when it cannot be read. */
  #read(path: string): number {
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(path);
    } catch {
      return -1;
    }
    try {
      return file.readSync(this.#buffer) ?? 0;
    } catch {
      return -1;
    } finally {
      file.close();
    }
  }

  /** The file `rel`'s first `limit` matching lines, or why it is skipped. */
  search(rel: string): FileResult {
    const size = this.#read(`${this.root}/${rel}`);
    if (size < 0) return { lines: [] };
    const holds = (n: number) => _holds(this.#buffer, n, this.#needle, this.#rare);
    if (size > MAX_FILE_BYTES) {
      return holds(MAX_FILE_BYTES) ? { lines: [], skip: 1 } : { lines: [] };
    }
    if (!holds(size)) return { lines: [] }; // (binary or not: it cannot match)
    if (this.#buffer.subarray(0, Math.min(size, BINARY_PROBE_BYTES)).indexOf(0) >= 0) {
      return { lines: [], skip: 0 };
    }
    let text: string;
    try {
      text = this.#decoder.decode(this.#buffer.subarray(0, size));
    } catch {
      return { lines: [], skip: 2 };
    }
    const hits = this.#scanner.scan(text, this.limit);
    return { lines: hits.map((hit) => `${rel}:${hit.line}:${hit.text}`) };
  }
}

/** What {@linkcode findOnce} needs besides the pattern. */
export interface OnceOptions {
  maxResults: number;
  glob?: GlobSpec;
  signal?: AbortSignal;
  useGit?: boolean;
}

/** The next file of two sorted lists merged, or undefined at the end. */
function _merged(a: string[], b: string[]): () => string | undefined {
  let i = 0;
  let j = 0;
  return () => {
    if (i < a.length && (j >= b.length || a[i] < b[j])) return a[i++];
    return j < b.length ? b[j++] : undefined;
  };
}

/** Searches `root` for the plain text of `spec` (`spec.literal` is set); see the module comment. */
export async function findOnce(
  root: string,
  spec: MatcherSpec,
  options: OnceOptions,
): Promise<SearchOutcome> {
  const max = options.maxResults;
  const signal = options.signal;
  const globRe = options.glob ? new RegExp(options.glob.source) : undefined;
  const passes = (rel: string) => !globRe || globMatches(globRe, options.glob!, rel);
  const files = new FileSearch(root, spec, max + 1);
  const listing = await listProject(root, signal, options.useGit ?? true);
  try {
    // While git lists the untracked files, the tracked ones are searched ahead, in order, until
    // they alone hold more lines than any answer can use.
    const ahead = new Map<string, FileResult>();
    let untracked: string[] | undefined = listing.untracked ? undefined : [];
    listing.untracked?.then((u) => (untracked = u), () => (untracked = []));
    let aheadLines = 0;
    let turn = performance.now();
    for (const rel of listing.files) {
      if (untracked || aheadLines > max) break;
      signal?.throwIfAborted();
      if (!passes(rel)) continue;
      const result = files.search(rel);
      ahead.set(rel, result);
      aheadLines += result.lines.length;
      if (performance.now() - turn > TURN_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        turn = performance.now();
      }
    }
    const rest = untracked ?? await listing.untracked!;
    const next = _merged(listing.files, rest);
    const chunks = Math.ceil((listing.files.length + rest.length) / CHUNK_FILES);
    const outcome: SearchOutcome = {
      lines: [],
      paths: [],
      truncated: false,
      found: 0,
      complete: true,
      skipped: { binary: 0, too_large: 0, not_utf8: 0 },
      files: 0,
      stale: false,
    };
    const kinds = ["binary", "too_large", "not_utf8"] as const;
    for (let chunk = 0; chunk < chunks && outcome.found <= max; chunk++) {
      signal?.throwIfAborted();
      let lines = 0;
      for (let k = 0; k < CHUNK_FILES && lines <= max; k++) {
        const rel = next();
        if (rel === undefined) break;
        if (!passes(rel)) continue;
        outcome.files++;
        const result = ahead.get(rel) ?? files.search(rel);
        if (result.skip !== undefined) outcome.skipped[kinds[result.skip]]++;
        for (const line of result.lines.slice(0, max + 1 - lines)) {
          if (outcome.lines.length < max) {
            outcome.lines.push(line);
            outcome.paths.push(rel);
          }
          lines++;
        }
      }
      outcome.found += lines;
      outcome.complete = chunk + 1 >= chunks;
    }
    outcome.truncated = outcome.found > max;
    return outcome;
  } finally {
    listing.cancel();
    await listing.untracked;
  }
}
