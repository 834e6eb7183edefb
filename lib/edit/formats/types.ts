/**
 * A reply format as a plug-in: what the prompt asks for, how a refusal shows the shape, how much
 * reply to budget, and — for a format whose shape the shared reader does not know — how to read
 * and apply its edits. The guards are not a format's business: every format's result goes through
 * the validation stage (`../validate/`).
 */
import type { FormatEdit } from "../types.ts";

/** One reply format. */
export interface FormatPlugin {
  /** Its name: in `edit_format`, the prompt's file sections and the task log. */
  name: string;
  /** The prompt's rules for replies in this format; `fence` is the code fence asked for. */
  instructions(fence: string): string;
  /** The shape a refusal shows for `file`. */
  shape(file: string, fence: string): string;
  /** How a file section marks a file asked in this format ("" for none). */
  mark: string;
  /** What a file section adds for a file that does not exist yet ("" for nothing). */
  create: string;
  /** The file is shown whole (a reply rewrites it), never in ranges. */
  showsWhole: boolean;
  /** Reply tokens to budget for a file of `fileTokens` tokens. */
  replyTokens(fileTokens: number): number;
  /**
   * Edits of this format's own shape in `reply` (`null`: none there). Whole files and
   * SEARCH/REPLACE blocks are read by the shared reader and need no `read`.
   */
  read?(reply: string, known: readonly string[]): FormatEdit[] | null;
  /** Applies one of its own edits to a file's lines (throws `EditRefusal` when it cannot). */
  apply?(edit: FormatEdit, lines: readonly string[]): string[];
}
