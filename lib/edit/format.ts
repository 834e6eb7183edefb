/**
 * Which reply format to ask the model for, and the instructions that ask for it.
 *
 * `edit_format` "auto" asks for the whole file when the file is small and the model sees all of
 * it, and for SEARCH/REPLACE blocks otherwise; after two SEARCH parts that failed to match on a
 * small file it switches to the whole file (the prompt must then show that file whole).
 */
import { type BuiltinFormat, formatOf, FORMATS } from "./formats/mod.ts";
import type { EditFormat, ReplyFormat } from "./types.ts";

/** Files up to this many lines count as small for `edit_format: "auto"`. */
export const SMALL_FILE_LINES = 200;
/** Files up to this many characters count as small for `edit_format: "auto"`. */
export const SMALL_FILE_CHARS = 8_000;
/** Failed SEARCH matches on a small file after which "auto" switches to whole-file. */
export const SWITCH_AFTER_FAILED_MATCHES = 2;

/** What {@linkcode chooseReplyFormat} needs to know about one file to edit. */
export interface FormatFacts {
  /** Current content; `null` when the file does not exist yet. */
  content: string | null;
  /** True when the caller gave `symbols` for this file (the model sees only parts of it). */
  hasSymbols: boolean;
  /** How many earlier attempts of this task failed because a SEARCH part did not match it. */
  failedMatches?: number;
}

/** True when `content` is small enough to be sent and rewritten whole. */
export function isSmallFile(content: string | null): boolean {
  if (content === null) return true;
  return content.length <= SMALL_FILE_CHARS && content.split("\n").length <= SMALL_FILE_LINES;
}

/**
 * The reply format to ask for one file. "whole" and "diff" are taken as given, except that a
 * file shown only by `symbols` always gets "diff" (its whole content would be refused).
 */
export function chooseReplyFormat(setting: EditFormat, facts: FormatFacts): BuiltinFormat {
  switch (setting) {
    case "diff":
      return "diff";
    case "whole":
      return facts.hasSymbols ? "diff" : "whole";
    case "auto": {
      if (!isSmallFile(facts.content)) return "diff";
      if (!facts.hasSymbols) return "whole";
      return (facts.failedMatches ?? 0) >= SWITCH_AFTER_FAILED_MATCHES ? "whole" : "diff";
    }
    default: {
      const never: never = setting;
      throw new Error(`unknown edit_format ${JSON.stringify(never)}`);
    }
  }
}

const COMMON =
  `Write each path exactly as it is given to you; edit only the files listed as files to edit. Do not explain your changes.
If the task is unclear or cannot be done with those files, make the first line of your reply start with QUESTION: followed by your question, and send no edits.`;

/**
 * The reply-format section of the prompt: "diff" (SEARCH/REPLACE), "whole" (whole files), or
 * "both" when the files of one task were given different formats (say which file gets which).
 * `fence` is the fence whole files are asked in ({@linkcode chooseFence}).
 */
export function formatInstructions(format: ReplyFormat | "both", fence = "```"): string {
  if (format !== "both") return `${formatOf(format).instructions(fence)}\n${COMMON}`;
  const { whole, diff } = FORMATS;
  return `Files marked "whole file" —\n${whole.instructions(fence)}\n\nAll other files —\n` +
    `${diff.instructions(fence)}\n${COMMON}`;
}

/**
 * The code fence to ask for: the shortest run of backticks (at least three) that no line of any
 * shown file starts with, as Aider chooses its fence, so a file holding ``` cannot cut a reply.
 */
export function chooseFence(shown: readonly string[]): string {
  let len = 3;
  for (const text of shown) {
    for (const m of text.matchAll(/^ {0,3}(`{3,})/gm)) len = Math.max(len, m[1].length + 1);
  }
  return "`".repeat(len);
}
