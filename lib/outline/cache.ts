/**
 * The outlines of files already outlined, so an unchanged file is not parsed again: an entry is
 * reused when the file has the same size and modification time and its bytes the same SHA-256.
 * At most {@linkcode MAX_ENTRIES} files are kept, the least recently used going first.
 */
import type { Outline } from "./source.ts";

/** How many files' outlines are kept. */
export const MAX_ENTRIES = 256;

interface Entry {
  size: number;
  mtime: number;
  hash: string;
  outline: Outline;
}

/** Outlines by absolute path; see the module comment. */
export class OutlineCache {
  #entries = new Map<string, Entry>();

  /** The outline kept for `path` when it was made from the same bytes. */
  get(path: string, size: number, mtime: number, hash: string): Outline | undefined {
    const entry = this.#entries.get(path);
    if (!entry || entry.size !== size || entry.mtime !== mtime || entry.hash !== hash) {
      return undefined;
    }
    this.#entries.delete(path); // most recently used last
    this.#entries.set(path, entry);
    return entry.outline;
  }

  /** Whether an outline is kept for `path` at this size and time (its hash not yet compared). */
  mayHold(path: string, size: number, mtime: number): boolean {
    const entry = this.#entries.get(path);
    return entry !== undefined && entry.size === size && entry.mtime === mtime;
  }

  /** Keeps `outline` for `path`. */
  set(path: string, size: number, mtime: number, hash: string, outline: Outline): void {
    this.#entries.delete(path);
    this.#entries.set(path, { size, mtime, hash, outline });
    if (this.#entries.size > MAX_ENTRIES) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }

  /** Forgets everything. */
  clear(): void {
    this.#entries.clear();
  }
}
