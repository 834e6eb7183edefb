/**
 * One pass over a reply's lines that finds SEARCH/REPLACE blocks and fenced code blocks, with the
 * path hint written before each, and names the first structural problem (a truncated block, an
 * unclosed fence, a stray marker) precisely enough for the model to fix it.
 */
import { pathFromInfo, pathFromLine } from "./path_line.ts";

const SEARCH = /^\s*<{5,9}\s*(SEARCH|ORIGINAL|FIND)\s*:?\s*$/i;
const DIVIDER = /^\s*={5,9}\s*$/;
const REPLACE = /^\s*>{5,9}\s*(REPLACE|UPDATED?|REPLACEMENT)\s*:?\s*$/i;
const LOOSE_MARKER = /^\s*(<{2,}|>{2,}|={2,})\s*(SEARCH|REPLACE|ORIGINAL|UPDATED?)\b/i;
const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;
const MARKDOWN_INFO = /^(md|markdown|mdx)$/i;
const DIVIDER_TEXT = '"======="';
const REPLACE_TEXT = '">>>>>>> REPLACE"';

/** A SEARCH/REPLACE block as written; `line` is the 0-based line of its SEARCH marker. */
export interface RawBlock {
  kind: "block";
  line: number;
  path: string | null;
  search: string[];
  replace: string[];
}

/** A fenced code block that holds no SEARCH/REPLACE block; `line` is its opening fence. */
export interface RawCode {
  kind: "code";
  line: number;
  info: string;
  path: string | null;
  /** True when the path came from a sentence that mentions the file, not a path line. */
  mentioned: boolean;
  body: string[];
}

/** What {@linkcode scanReply} found. */
export interface Scan {
  items: (RawBlock | RawCode)[];
  warnings: string[];
  problem?: string;
}

type LineKind = "blank" | "prose" | "open" | "close" | "marker" | "content";

interface Fence {
  char: string;
  len: number;
  info: string;
}

interface State {
  lines: string[];
  kinds: LineKind[];
  infos: Map<number, string>;
  /** Closing-fence line → the path its block held alone (the block is a label, not code). */
  labels: Map<number, string>;
  known: readonly string[];
}

class ScanProblem extends Error {}

function _fence(line: string): Fence | null {
  const m = line.match(FENCE);
  if (!m) return null;
  const info = m[2].trim();
  return info.includes(m[1][0]) ? null : { char: m[1][0], len: m[1].length, info };
}

function _closes(line: string, open: Fence): boolean {
  const f = _fence(line);
  return !!f && !f.info && f.char === open.char && f.len >= open.len;
}

function _show(line: string): string {
  const t = line.trim();
  return JSON.stringify(t.length > 60 ? `${t.slice(0, 60)}…` : t);
}

/** The path written before line `at`: skips blank lines and fence openings, reads ≤ 2 lines. */
function _lookBack(s: State, at: number): { path: string | null; mentioned: boolean } {
  let prose = 0;
  for (let k = at - 1; k >= 0; k--) {
    const kind = s.kinds[k];
    if (kind === "blank") continue;
    if (kind === "open") {
      const p = pathFromInfo(s.infos.get(k) ?? "", s.known);
      if (p) return { path: p, mentioned: false };
      continue;
    }
    if (kind === "close" && s.labels.has(k)) return { path: s.labels.get(k)!, mentioned: false };
    if (kind !== "prose") break;
    const strict = pathFromLine(s.lines[k], s.known);
    if (strict) return { path: strict, mentioned: false };
    if (prose === 0) {
      const loose = pathFromLine(s.lines[k], s.known, true);
      if (loose) return { path: loose, mentioned: true };
    }
    if (++prose >= 2) break;
  }
  return { path: null, mentioned: false };
}

/** Reads the block whose SEARCH marker is at `start`; returns it and the line after it. */
function _readBlock(s: State, start: number): { block: RawBlock; next: number } {
  const { lines, kinds } = s;
  const { path } = _lookBack(s, start);
  const parts: string[][] = [[], []];
  const at = `The SEARCH/REPLACE block at line ${start + 1}`;
  kinds[start] = "marker";
  let i = start + 1;
  for (const part of [0, 1]) {
    const ends = part === 0 ? DIVIDER : REPLACE;
    for (; i < lines.length && !ends.test(lines[i]); i++) {
      if (SEARCH.test(lines[i]) || (part === 0 ? REPLACE : DIVIDER).test(lines[i])) {
        throw new ScanProblem(
          part === 0
            ? `${at} has no ${DIVIDER_TEXT} divider before the marker at line ${i + 1}; write ` +
              `SEARCH lines, ${DIVIDER_TEXT}, REPLACE lines, ${REPLACE_TEXT}`
            : `${at} has no ${REPLACE_TEXT} marker before the marker at line ${i + 1}; close ` +
              `every block with ${REPLACE_TEXT}`,
        );
      }
      parts[part].push(lines[i]);
      kinds[i] = "content";
    }
    if (i >= lines.length) {
      throw new ScanProblem(
        part === 0
          ? `The reply ends inside the SEARCH part of the block at line ${start + 1} (no ` +
            `${DIVIDER_TEXT} and no ${REPLACE_TEXT} follow); it looks cut off, send the whole ` +
            "block again"
          : `The reply ends inside the REPLACE part of the block at line ${start + 1} (no ` +
            `${REPLACE_TEXT} marker); it looks cut off, send the whole block again`,
      );
    }
    kinds[i++] = "marker";
  }
  return {
    block: { kind: "block", line: start, path, search: parts[0], replace: parts[1] },
    next: i,
  };
}

/**
 * Where the fence opened at `open` closes (-1: never), and whether blocks stand inside it. Only a
 * fence at least as long as the opening one counts: inside ```` a ``` line is plain text. A fence
 * line with a language (```` ```bash ````) cannot close a block, so inside one it opens a nested
 * block, which the next bare fence closes: a README whose ``` blocks each name a language reads
 * whole.
 */
function _fenceEnd(
  lines: string[],
  open: number,
  fence: Fence,
): { end: number; hasBlock: boolean } {
  let depth = 0;
  let hasBlock = false;
  for (let end = open + 1; end < lines.length; end++) {
    if (SEARCH.test(lines[end])) {
      hasBlock = true;
      while (end < lines.length && !REPLACE.test(lines[end])) end++;
      continue;
    }
    const inner = _fence(lines[end]);
    // Only fences as long as the outer one can close it; shorter ones are plain content.
    if (!inner || inner.char !== fence.char || inner.len < fence.len) continue;
    if (!inner.info) {
      if (depth === 0) return { end, hasBlock };
      depth--;
    } else depth++;
  }
  return { end: -1, hasBlock };
}

/**
 * The path a code block holds when it holds nothing else and another fence follows it: small
 * models write ```` ```plaintext ```` / ```` ```python ```` / ```` ``` ```` around the file name alone,
 * then the code in a second fence. Such a block is a label, never a one-line file.
 */
function _labelPath(s: State, body: string[], end: number): string | null {
  const text = body.filter((l) => l.trim());
  if (text.length !== 1) return null;
  const path = pathFromLine(text[0], s.known);
  if (!path) return null;
  for (let k = end + 1; k < s.lines.length; k++) {
    if (!s.lines[k].trim()) continue;
    return _fence(s.lines[k]) ? path : null;
  }
  return null;
}

/**
 * A Markdown file sent in a ``` fence that holds bare ``` fences of its own cannot be read safely:
 * the first inner fence seems to close the file. When the block ends right after a heading or a
 * line ending in ":" (text that introduces a block) and more fences follow before the next path,
 * the file's end is ambiguous, and the model is asked for a longer outer fence.
 */
function _checkMarkdownEnd(s: State, open: number, end: number, path: string | null, fence: Fence) {
  const markdown = MARKDOWN_INFO.test(fence.info.split(/\s/)[0]) ||
    (!!path && /\.(md|markdown|mdx)$/i.test(path));
  if (!markdown) return;
  const last = s.lines.slice(open + 1, end).findLast((l) => l.trim())?.trim() ?? "";
  if (!/^#{1,6}\s/.test(last) && !last.endsWith(":")) return;
  for (let k = end + 1; k < s.lines.length; k++) {
    if (pathFromLine(s.lines[k], s.known)) return;
    if (!_fence(s.lines[k])) continue;
    const name = path ?? "the Markdown file";
    const outer = fence.char.repeat(fence.len + 1);
    throw new ScanProblem(
      `The code block at line ${open + 1} for ${JSON.stringify(name)} holds ${
        fence.char.repeat(3)
      } ` +
        `fences of its own, so where the file ends is ambiguous (line ${
          end + 1
        } may close it or open ` +
        `an inner block); nothing was written. Send the file inside a four-backtick fence, whose ` +
        `inner ${fence.char.repeat(3)} fences cannot close it:\n${
          path ?? "README.md"
        }\n${outer}markdown\n` +
        `(the whole file, with its ${fence.char.repeat(3)} blocks)\n${outer}`,
    );
  }
}

/** Splits `text` (LF line endings, reasoning already removed) into blocks and code blocks. */
export function scanReply(text: string, known: readonly string[]): Scan {
  const s: State = {
    lines: text.split("\n"),
    kinds: [],
    infos: new Map(),
    labels: new Map(),
    known,
  };
  const { lines, kinds } = s;
  const items: (RawBlock | RawCode)[] = [];
  const warnings: string[] = [];
  let wrapper: { line: number; closeAt: number; fence: Fence } | null = null;
  try {
    for (let i = 0; i < lines.length;) {
      const line = lines[i];
      if (SEARCH.test(line)) {
        const { block, next } = _readBlock(s, i);
        items.push(block);
        i = next;
        continue;
      }
      if (DIVIDER.test(line) || REPLACE.test(line)) {
        const prev = kinds.findLastIndex((k) => k !== "blank" && k !== "close");
        if (prev < 0 || kinds[prev] !== "marker") {
          throw new ScanProblem(
            `Line ${i + 1} holds a stray ${_show(line)} marker with no "<<<<<<< SEARCH" before ` +
              "it; every block needs all three markers",
          );
        }
        warnings.push(`Ignored a stray marker ${_show(line)} at line ${i + 1}`);
        kinds[i++] = "blank";
        continue;
      }
      if (LOOSE_MARKER.test(line)) {
        throw new ScanProblem(
          `Line ${i + 1}, ${_show(line)}, is not a valid marker; write "<<<<<<< SEARCH", ` +
            `${DIVIDER_TEXT} and ${REPLACE_TEXT} on lines of their own`,
        );
      }
      const fence = _fence(line);
      if (!fence) {
        kinds[i++] = line.trim() ? "prose" : "blank";
        continue;
      }
      if (wrapper && i === wrapper.closeAt) {
        kinds[i++] = "close";
        wrapper = null;
        continue;
      }
      kinds[i] = "open";
      s.infos.set(i, fence.info);
      if (wrapper) {
        i++;
        continue;
      }
      const { end, hasBlock } = _fenceEnd(lines, i, fence);
      if (hasBlock) {
        wrapper = { line: i++, closeAt: end, fence };
        continue;
      }
      if (end < 0 && lines.slice(i + 1).every((l) => !l.trim())) {
        warnings.push(`Ignored a stray fence at line ${i + 1} with nothing after it`);
        kinds[i++] = "blank";
        continue;
      }
      if (end < 0) {
        throw new ScanProblem(
          `The reply ends inside the code block opened at line ${i + 1} (no closing fence); it ` +
            "looks cut off, send the whole block again",
        );
      }
      const body = lines.slice(i + 1, end);
      const stray = body.findIndex((l) => REPLACE.test(l));
      if (stray >= 0) {
        throw new ScanProblem(
          `The code block at line ${i + 1} holds a ${REPLACE_TEXT} marker (line ` +
            `${i + stray + 2}) but no "<<<<<<< SEARCH" marker; write all three markers`,
        );
      }
      const { path, mentioned } = _lookBack(s, i);
      for (let k = i + 1; k < end; k++) kinds[k] = "content";
      kinds[end] = "close";
      const label = path && !mentioned ? null : _labelPath(s, body, end);
      if (label) {
        s.labels.set(end, label);
        warnings.push(
          `Took the code block at line ${
            i + 1
          }, which holds only "${label}", as the path of the block after it`,
        );
      } else {
        _checkMarkdownEnd(s, i, end, path, fence);
        items.push({ kind: "code", line: i, info: fence.info, path, mentioned, body });
      }
      i = end + 1;
    }
    // A wrapper fence may be closed inside the last REPLACE part (` ``` ` before the marker).
    const last = items[items.length - 1];
    const tail = last?.kind === "block" ? last.replace[last.replace.length - 1] : undefined;
    if (wrapper && !(tail !== undefined && _closes(tail, wrapper.fence))) {
      throw new ScanProblem(
        `The reply ends inside the code fence opened at line ${wrapper.line + 1} (no closing ` +
          "fence); it looks cut off, send the whole reply again",
      );
    }
  } catch (e) {
    if (!(e instanceof ScanProblem)) throw e;
    return { items, warnings, problem: e.message };
  }
  return { items, warnings };
}
