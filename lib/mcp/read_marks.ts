/**
 * Read marks: the files this server last showed with line numbers, so `patch_file` never edits by
 * stale line numbers (one patch per read).
 */
import { quote, ToolError } from "../errors.ts";
import { sha256Hex } from "../text.ts";

/**
 * The "one patch per read" rule: which files this server last showed with line numbers, and
 * their fingerprint then. `read_file` marks, `patch_file` consumes the mark, `write_file` drops it,
 * so line numbers a patch relies on are never stale.
 */
export class ReadMarks {
  #marks = new Map<string, string>();

  /** Records that `abs` (a real path) was shown with line numbers as `bytes`. */
  async mark(abs: string, bytes: Uint8Array): Promise<void> {
    this.#marks.set(abs, await fingerprint(bytes));
  }

  /** Whether `abs` carries a mark. */
  has(abs: string): boolean {
    return this.#marks.has(abs);
  }

  /** The fingerprint `abs` was shown with, if any. */
  get(abs: string): string | undefined {
    return this.#marks.get(abs);
  }

  /** Forgets the mark of `abs`: its line numbers are stale. */
  forget(abs: string): void {
    this.#marks.delete(abs);
  }

  /** Throws unless `abs` was shown with line numbers; cheap, for a check before the real work. */
  require(abs: string, rel: string): void {
    if (!this.#marks.has(abs)) throw _unread(rel);
  }

  /**
   * Checks that `abs` was shown as exactly `bytes` and consumes the mark, with no await between
   * the check and the removal: two patches never both pass on one read.
   */
  consume(abs: string, rel: string, print: string): void {
    const mark = this.#marks.get(abs);
    if (mark === undefined) throw _unread(rel);
    if (mark !== print) {
      throw new ToolError(
        `${quote(rel)} changed since it was read with line numbers; read it again with ` +
          `line_numbers=true and patch with the new numbers`,
      );
    }
    this.#marks.delete(abs);
  }
}

function _unread(rel: string): ToolError {
  return new ToolError(
    `${quote(rel)} has not been read with line numbers since it was opened or last patched ` +
      `here; patch_file allows one patch per read: call read_file with line_numbers=true, ` +
      `then patch with the numbers it shows`,
  );
}

/**
 * The fingerprint a read mark stores for a file's bytes: size and SHA-256. It depends on the
 * content only, so touching a file without changing it does not invalidate a read.
 */
export async function fingerprint(bytes: Uint8Array): Promise<string> {
  return `${bytes.length}:${await sha256Hex(bytes)}`;
}
