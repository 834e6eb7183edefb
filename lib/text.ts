/**
 * Bytes and text: whether bytes are text, splitting text into lines, comparing and hashing bytes.
 * Every module that needs one of these uses this one; none keeps a copy.
 */

/** Bytes looked at for a NUL byte when deciding whether a file is binary. */
export const SNIFF_BYTES = 8192;

/**
 * The text of `bytes` when they are text: no NUL byte in the first {@linkcode SNIFF_BYTES}, and
 * valid UTF-8 throughout (a leading byte-order mark is kept). `undefined` for a binary.
 */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** True when `bytes` are not text (see {@linkcode decodeText}). */
export function isBinary(bytes: Uint8Array): boolean {
  return decodeText(bytes) === undefined;
}

/**
 * Whether the first bytes of a file mark it as binary: a NUL byte, or bytes that cannot start
 * valid UTF-8 (a character cut at the end of `head` does not count).
 */
export function looksBinary(head: Uint8Array): boolean {
  if (head.subarray(0, SNIFF_BYTES).includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return false;
  } catch {
    return true;
  }
}

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
  /** `"\uFEFF"` when the text starts with a byte-order mark, else `""`. */
  bom: string;
}

/**
 * Splits `content` into lines that each keep their own ending, so LF, CRLF, mixed endings, a
 * byte-order mark and a missing final newline all survive an edit; `fallbackEol` is the ending
 * for new lines when the text has none yet.
 */
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

/** The lines of `text` split at `\n` (a `\r` before it is kept); a final newline ends no line. */
export function splitLines(text: string): string[] {
  if (!text) return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** The lines of `text` without their endings (`\n` or `\r\n`); a final newline ends no line. */
export function textLines(text: string): string[] {
  return splitLines(text).map((l) => l.endsWith("\r") ? l.slice(0, -1) : l);
}

/** True when two byte arrays hold the same bytes; `null` (no file) equals only `null`. */
export function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** SHA-256 of `bytes`, as lowercase hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
