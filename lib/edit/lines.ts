/**
 * A file as lines that each keep their own line ending, so LF, CRLF, mixed endings, a byte-order
 * mark and a missing final newline all survive an edit untouched outside the edited lines.
 */

/** One line of a file: its text without the line ending, and the ending (`""` on a last line). */
export interface Line {
  text: string;
  eol: string;
}

/** A file split into lines, plus what to put back around them. */
export interface LineFile {
  lines: Line[];
  /** `"\r\n"` when most line endings are CRLF, else `"\n"`: the ending for new lines. */
  eol: string;
  bom: string;
}

/** Splits `content` into lines; `fallbackEol` is the ending used when the file has none yet. */
export function toLines(content: string, fallbackEol = "\n"): LineFile {
  const bom = content.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = bom ? content.slice(1) : content;
  const lines: Line[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  while (start < body.length) {
    const nl = body.indexOf("\n", start);
    if (nl < 0) {
      lines.push({ text: body.slice(start), eol: "" });
      break;
    }
    const cr = nl > start && body[nl - 1] === "\r";
    if (cr) crlf++;
    else lf++;
    lines.push({ text: body.slice(start, cr ? nl - 1 : nl), eol: cr ? "\r\n" : "\n" });
    start = nl + 1;
  }
  const eol = crlf + lf === 0 ? fallbackEol : crlf > lf ? "\r\n" : "\n";
  return { lines, eol, bom };
}

/** Joins lines back into text. */
export function fromLines(file: LineFile): string {
  return file.bom + file.lines.map((l) => l.text + l.eol).join("");
}

/** Splits edit text (whole lines ending in `\n`, see `types.ts`) into line texts. */
export function textLines(text: string): string[] {
  if (text === "") return [];
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return body.split("\n").map((l) => l.replace(/\r$/, ""));
}

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
