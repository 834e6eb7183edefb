/**
 * Line helpers of the edit applier. A file is a `LineFile` (`lib/text.ts`): lines that each keep
 * their own ending, so LF, CRLF, mixed endings, a byte-order mark and a missing final newline all
 * survive an edit untouched outside the edited lines.
 */

export { fromLines, type Line, type LineFile, textLines, toLines } from "../text.ts";
import type { LineFile } from "../text.ts";

/** Joins line texts into edit text: each line ending in `\n`. */
export function joinLines(lines: readonly string[]): string {
  return lines.map((l) => `${l}\n`).join("");
}

/**
 * Replaces `file.lines[start, end)` with `texts`. New lines take the replaced lines' ending; a region that
 * ran to the end of the file hands its last ending (possibly none) to the new last line, so a
 * missing final newline stays missing.
 */
export function spliceLines(file: LineFile, start: number, end: number, texts: string[]): void {
  const atEnd = end === file.lines.length && end > start;
  const lastEol = atEnd ? file.lines[end - 1].eol : file.eol;
  // New lines take the ending of the first line they replace, so a mixed file keeps its local
  // ending; at the end of the file (or for a pure insertion) the file's usual ending.
  const local = start < file.lines.length && file.lines[start].eol
    ? file.lines[start].eol
    : file.eol;
  const fresh = texts.map((text) => ({ text, eol: local }));
  if (atEnd && fresh.length) {
    fresh[fresh.length - 1].eol = lastEol;
    if (lastEol === "" && texts[texts.length - 1] === "") {
      // The edit ends with a blank line at the end of the file: it adds the final newline.
      fresh.pop();
      if (fresh.length) fresh[fresh.length - 1].eol = local;
    }
  }
  file.lines.splice(start, end - start, ...fresh);
  if (atEnd && !texts.length && start > 0 && lastEol === "") file.lines[start - 1].eol = "";
}
