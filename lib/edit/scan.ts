/**
 * One pass over a reply's lines that finds SEARCH/REPLACE blocks and fenced code blocks, with the
 * path hint written before each, and names the first structural problem (a truncated block, an
 * unclosed fence, a stray marker) precisely enough for the model to fix it.
 */
import {
  closesFence,
  DIVIDER,
  type Fence,
  fenceEnd,
  labelPath,
  markdownEndProblem,
  parseFence,
  REPLACE,
  SEARCH,
} from "./fences.ts";
import { pathFromInfo, pathFromLine } from "./path_line.ts";

const LOOSE_MARKER = /^\s*(<{2,}|>{2,}|={2,})\s*(SEARCH|REPLACE|ORIGINAL|UPDATED?)\b/i;
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

interface State {
  lines: string[];
  kinds: LineKind[];
  infos: Map<number, string>;
  /** Closing-fence line → the path its block held alone (the block is a label, not code). */
  labels: Map<number, string>;
  known: readonly string[];
}

class ScanProblem extends Error {}

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
      const fence = parseFence(line);
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
      const { end, hasBlock } = fenceEnd(lines, i, fence);
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
      const label = path && !mentioned ? null : labelPath(lines, body, end, s.known);
      if (label) {
        s.labels.set(end, label);
        warnings.push(`Took the block at line ${i + 1}, which holds only "${label}", as a path`);
      } else {
        const ambiguous = markdownEndProblem(lines, i, end, fence, path, s.known);
        if (ambiguous) throw new ScanProblem(ambiguous);
        items.push({ kind: "code", line: i, info: fence.info, path, mentioned, body });
      }
      i = end + 1;
    }
    // A wrapper fence may be closed inside the last REPLACE part (` ``` ` before the marker).
    const last = items[items.length - 1];
    const tail = last?.kind === "block" ? last.replace[last.replace.length - 1] : undefined;
    if (wrapper && !(tail !== undefined && closesFence(tail, wrapper.fence))) {
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
