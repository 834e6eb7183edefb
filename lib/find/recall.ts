/**
 * What a large listing remembers of its spread searches (see `SPREAD_MIN_FILES` in
 * `protocol.ts`): per pattern, the files where its latest search found matching lines, so that the
 * next search of the same pattern reads those files first. A model often searches the same word
 * again (a wider `max_results`, after an edit, to check a rename); the files are still read from
 * disk each time, so a file changed since is searched as it is now (one that no longer matches is
 * not reported, and drops out of the memory), and the rest of the listing is read after them in
 * the usual order, as far as the answer needs.
 *
 * Bounded: the latest {@linkcode RECALL_PATTERNS} patterns, {@linkcode RECALL_FILES} files each
 * (indices into the listing, 4 bytes a file). It lives on the listing: a listing made again (the
 * tree changed) starts with none.
 */
import type { GlobSpec } from "../glob/mod.ts";
import type { MatcherSpec } from "./scan.ts";

/** Patterns remembered per listing (the least recently searched is forgotten first). */
export const RECALL_PATTERNS = 64;

/** Files remembered per pattern: those with the most matching lines. */
export const RECALL_FILES = 256;

/** What a search is remembered by: the pattern as compiled (flags included) and the glob. */
export function recallKey(spec: MatcherSpec, glob?: GlobSpec): string {
  const g = glob ? `${glob.negate ? "!" : ""}${glob.anchored ? "/" : ""}${glob.source}` : "";
  return `${spec.flags}\0${spec.source}\0${g}`;
}

/** Per pattern, the files where its latest search found matches; see the module comment. */
export class Recall {
  #byKey = new Map<string, Int32Array>();

  /** Patterns remembered. */
  get size(): number {
    return this.#byKey.size;
  }

  /** The files to read first for `key` (most matching lines first), if any are remembered. */
  files(key: string): Int32Array | undefined {
    const files = this.#byKey.get(key);
    if (files) {
      this.#byKey.delete(key); // the most recently used goes last
      this.#byKey.set(key, files);
    }
    return files;
  }

  /**
   * Remembers the files of a search's matching lines (`at`: the file of each line, as indices into
   * the listing) in place of what was remembered for `key`; a search that found none forgets it.
   */
  remember(key: string, at: Iterable<number>): void {
    const lines = new Map<number, number>();
    for (const i of at) lines.set(i, (lines.get(i) ?? 0) + 1);
    this.#byKey.delete(key);
    if (!lines.size) return;
    const files = [...lines.keys()].sort((a, b) => lines.get(b)! - lines.get(a)! || a - b);
    this.#byKey.set(key, Int32Array.from(files.slice(0, RECALL_FILES)));
    for (const old of this.#byKey.keys()) {
      if (this.#byKey.size <= RECALL_PATTERNS) break;
      this.#byKey.delete(old);
    }
  }
}
