/**
 * What a large listing remembers of its spread searches (see `SPREAD_MIN_FILES` in
 * `protocol.ts`): per pattern, the files where its latest search found matching lines, so that the
 * next search of the same pattern reads those files first. A model often searches the same word
 * again (a wider `max_results`, after an edit, to check a rename); the files are still read from
 * disk each time, so a file changed since is searched as it is now (one that no longer matches is
 * not reported, and drops out of the memory), and the rest of the listing is read after them in
 * the usual order, as far as the answer needs. A pattern searched for the first time reads first
 * the files remembered for patterns whose text holds its own ({@linkcode Recall.related}).
 *
 * Bounded: the latest {@linkcode RECALL_PATTERNS} patterns, {@linkcode RECALL_FILES} files each
 * (indices into the listing, 4 bytes a file). It lives on the listing: a listing made again (the
 * tree changed) starts with none.
 */
import type { GlobSpec } from "../glob/mod.ts";
import type { MatcherSpec } from "./scan.ts";

/** Patterns remembered per listing (the least recently searched is forgotten first). */
export const RECALL_PATTERNS = 64;

/** Files remembered per pattern: those that give the most lines for the least reading. */
export const RECALL_FILES = 256;

/**
 * What opening a file costs, in bytes read: a file of a few lines is not worth more than a large
 * one of many (opening a file takes a worker about as long as reading and scanning 16 KiB).
 */
export const OPEN_BYTES = 16_384;

/** What a search is remembered by: the pattern as compiled (flags included) and the glob. */
export function recallKey(spec: MatcherSpec, glob?: GlobSpec): string {
  const g = glob ? `${glob.negate ? "!" : ""}${glob.anchored ? "/" : ""}${glob.source}` : "";
  return `${spec.flags}\0${spec.source}\0${g}`;
}

/** The files remembered for one pattern, and the text every match of it holds (if any). */
interface Entry {
  files: Int32Array;
  needle?: string;
  fold: boolean;
}

/** Per pattern, the files where its latest search found matches; see the module comment. */
export class Recall {
  #byKey = new Map<string, Entry>();

  /** Patterns remembered. */
  get size(): number {
    return this.#byKey.size;
  }

  /** The files to read first for `key` (most matching lines first), if any are remembered. */
  files(key: string): Int32Array | undefined {
    const entry = this.#byKey.get(key);
    if (entry) {
      this.#byKey.delete(key); // the most recently used goes last
      this.#byKey.set(key, entry);
    }
    return entry?.files;
  }

  /**
   * For a pattern searched for the first time: the files remembered for other patterns whose
   * text holds all of the text `spec` requires (`TODO` for `TO`, `foo(` for `foo`, a word for
   * itself with ignore_case), as such a file holds it too; the most recently searched first. Only
   * an order: the files are read like any other.
   */
  related(spec: MatcherSpec): Int32Array | undefined {
    const needle = spec.literal ?? spec.prefilter;
    if (!needle) return undefined;
    const fold = spec.flags.includes("i");
    const lower = needle.toLowerCase();
    const files = new Set<number>();
    for (const entry of [...this.#byKey.values()].reverse()) {
      const holds = fold
        ? entry.needle?.toLowerCase().includes(lower)
        : !entry.fold && entry.needle?.includes(needle);
      if (!holds) continue;
      for (const i of entry.files) {
        if (files.size >= RECALL_FILES) break;
        files.add(i);
      }
    }
    return files.size ? Int32Array.from(files) : undefined;
  }

  /**
   * Remembers the files of a search's matching lines (`at`: the file of each line, as an index
   * into the listing; `bytes`: that file's size) in place of what was remembered for `key`; a
   * search that found none forgets it. The files that give the most lines for the least reading
   * go first: lines per byte, counting {@linkcode OPEN_BYTES} more for each file. `spec`: the
   * pattern (for {@linkcode related}).
   */
  remember(
    key: string,
    lines: Iterable<{ at: number; bytes: number }>,
    spec?: MatcherSpec,
  ): void {
    const byFile = new Map<number, { lines: number; cost: number }>();
    for (const { at, bytes } of lines) {
      const file = byFile.get(at);
      if (file) file.lines++;
      else byFile.set(at, { lines: 1, cost: bytes + OPEN_BYTES });
    }
    this.#byKey.delete(key);
    if (!byFile.size) return;
    const worth = (i: number) => byFile.get(i)!.lines / byFile.get(i)!.cost;
    const files = [...byFile.keys()].sort((a, b) => worth(b) - worth(a) || a - b);
    this.#byKey.set(key, {
      files: Int32Array.from(files.slice(0, RECALL_FILES)),
      needle: spec?.literal ?? spec?.prefilter,
      fold: spec?.flags.includes("i") ?? false,
    });
    for (const old of this.#byKey.keys()) {
      if (this.#byKey.size <= RECALL_PATTERNS) break;
      this.#byKey.delete(old);
    }
  }
}
