/**
 * The reply tokenizer: it only tokenizes. A reply becomes prose lines, fenced code blocks and
 * SEARCH/REPLACE blocks, and reasoning (`<think>…</think>`) outside code is dropped. Which file a
 * token belongs to is decided elsewhere, once (`resolve.ts`); what the tokens mean as a whole is
 * decided by `parse.ts` (docs/REPLIES.md).
 *
 * Fences follow CommonMark: an opening fence is three or more backticks (or tildes) indented by at
 * most three spaces; it closes at a fence of the same character, at least as long, with no info
 * string. A reply that did not use the fence the prompt asked for (`asked`, longer than the one
 * it opened) is read with nesting instead — a fence line with an info string opens an inner block,
 * a bare one closes the innermost — because the file it holds may contain fences of its own;
 * such a block is marked `loose` when more fence lines follow it, so where it ends is a guess.
 * A SEARCH marker inside a fence makes the fence a wrapper of blocks, not code.
 */

export const SEARCH = /^\s*<{5,9}\s*(SEARCH|ORIGINAL|FIND)\s*:?\s*$/i;
export const DIVIDER = /^\s*={5,9}\s*$/;
/**
 * In a REPLACE part only Aider's own divider (exactly seven `=`) is out of place; a longer or
 * shorter run of `=` there is content (a reStructuredText underline).
 */
const SECOND_DIVIDER = /^\s*={7}\s*$/;
export const REPLACE = /^\s*>{5,9}\s*(REPLACE|UPDATED?|REPLACEMENT)\s*:?\s*$/i;
const LOOSE_MARKER = /^\s*(<{2,}|>{2,}|={2,})\s*(SEARCH|REPLACE|ORIGINAL|UPDATED?)\b/i;
const FENCE = /^( *)(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^( *)([-*+]|\d{1,3}[.)])( +)\S/;
const THINK_OPEN = /<(think|thinking|reasoning)>/i;
const THINK_START = /^\s*<(think|thinking|reasoning)>/i;
const DIVIDER_TEXT = '"======="';
const REPLACE_TEXT = '">>>>>>> REPLACE"';

/** A fence line: its character, its length, its info string and its indentation. */
export interface Fence {
  char: string;
  len: number;
  info: string;
  indent: number;
}

/** A line of prose (blank lines included); `line` is 0-based. */
export interface ProseToken {
  kind: "prose";
  line: number;
  text: string;
}

/** A fenced code block that holds no SEARCH/REPLACE block. */
export interface FenceToken extends Fence {
  kind: "fence";
  line: number;
  /** The closing fence's line. */
  end: number;
  body: string[];
  /** Read by nesting (not the asked fence) and more fence lines follow: its end is a guess. */
  loose: boolean;
}

/** A SEARCH/REPLACE block; `line` is its SEARCH marker. */
export interface BlockToken {
  kind: "block";
  line: number;
  search: string[];
  replace: string[];
}

/** The opening or closing line of a fence that wraps SEARCH/REPLACE blocks. */
export interface WrapToken {
  kind: "wrap";
  line: number;
  info: string;
  open: boolean;
}

/** One token of a reply. */
export type Token = ProseToken | FenceToken | BlockToken | WrapToken;

/** What {@linkcode tokenize} makes of a reply. */
export interface Tokens {
  tokens: Token[];
  warnings: string[];
  /** The first structural problem (a cut-off block or fence, a stray marker), for the model. */
  problem?: string;
  /** The reply opened `<think>` and never closed it. */
  unclosedThink: boolean;
  /** The reply without its reasoning. */
  visible: string;
}

/**
 * The fence `line` is, or `null`: at most `maxIndent` spaces of indentation (3, plus the content
 * indentation of the list item it stands in).
 */
export function parseFence(line: string, maxIndent = 3): Fence | null {
  const m = line.match(FENCE);
  if (!m || m[1].length > maxIndent) return null;
  const info = m[3].trim();
  if (m[2][0] === "`" && info.includes("`")) return null;
  return { char: m[2][0], len: m[2].length, info, indent: m[1].length };
}

/** True when `line` closes a block opened by `open`. */
export function closesFence(line: string, open: Fence): boolean {
  const f = parseFence(line, open.indent + 3);
  return !!f && !f.info && f.char === open.char && f.len >= open.len;
}

class Problem extends Error {}

/** True when a fence's "info" is a sentence glued to a closing fence (```` ```This fixes it. ````). */
function _glued(info: string): boolean {
  return info.split(/\s+/).length >= 3 && /[a-z]{2}/.test(info) && !/[={}]/.test(info);
}

function _show(line: string): string {
  const t = line.trim();
  return JSON.stringify(t.length > 60 ? `${t.slice(0, 60)}…` : t);
}

/** Where the fence opened at `open` closes (-1: never), and whether a SEARCH marker comes first. */
function _fenceEnd(
  lines: readonly string[],
  open: number,
  fence: Fence,
  nested: boolean,
  glued: boolean,
): { end: number; wraps: boolean } {
  let depth = 0;
  for (let k = open + 1; k < lines.length; k++) {
    if (SEARCH.test(lines[k])) return { end: -1, wraps: true };
    const inner = parseFence(lines[k], fence.indent + 3);
    if (!inner || inner.char !== fence.char || inner.len < fence.len) continue;
    if (!inner.info || (glued && _glued(inner.info))) {
      if (depth === 0) return { end: k, wraps: false };
      depth--;
    } else if (nested) depth++;
  }
  return { end: -1, wraps: false };
}

/**
 * True when the next fence line after `end`, before any SEARCH marker or path line, is a bare
 * one: it may close an inner block of the block that just ended, so that end is a guess. (A
 * fence with an info string opens a block of its own.)
 */
function _fencesFollow(lines: readonly string[], end: number, isPath: (l: string) => boolean) {
  for (let k = end + 1; k < lines.length; k++) {
    if (SEARCH.test(lines[k]) || isPath(lines[k])) return false;
    const fence = parseFence(lines[k], Infinity);
    if (fence) return !fence.info;
  }
  return false;
}

/** Reads the block whose SEARCH marker is at `start`. */
function _block(lines: readonly string[], start: number): { token: BlockToken; next: number } {
  const parts: string[][] = [[], []];
  const at = `The SEARCH/REPLACE block at line ${start + 1}`;
  let i = start + 1;
  for (const part of [0, 1]) {
    const ends = part === 0 ? DIVIDER : REPLACE;
    for (; i < lines.length && !ends.test(lines[i]); i++) {
      if (SEARCH.test(lines[i]) || (part === 0 ? REPLACE : SECOND_DIVIDER).test(lines[i])) {
        throw new Problem(
          part === 0
            ? `${at} has no ${DIVIDER_TEXT} divider before the marker at line ${i + 1}; write ` +
              `SEARCH lines, ${DIVIDER_TEXT}, REPLACE lines, ${REPLACE_TEXT}`
            : `${at} has no ${REPLACE_TEXT} marker before the marker at line ${i + 1}; close ` +
              `every block with ${REPLACE_TEXT}`,
        );
      }
      parts[part].push(lines[i]);
    }
    if (i >= lines.length) {
      throw new Problem(
        part === 0
          ? `The reply ends inside the SEARCH part of the block at line ${start + 1} (no ` +
            `${DIVIDER_TEXT} and no ${REPLACE_TEXT} follow); it looks cut off, send the whole ` +
            "block again"
          : `The reply ends inside the REPLACE part of the block at line ${start + 1} (no ` +
            `${REPLACE_TEXT} marker); it looks cut off, send the whole block again`,
      );
    }
    i++;
  }
  return { token: { kind: "block", line: start, search: parts[0], replace: parts[1] }, next: i };
}

/**
 * Reasoning outside code: a line of prose that starts with `<think>` opens it, and everything up
 * to the closing tag (possibly lines later) is dropped. A tag inside a sentence (``the `<think>`
 * tags``) is a mention, not reasoning. Returns the line to go on from and the text left on it, or
 * `null` when the line opens no reasoning.
 */
function _think(
  lines: string[],
  i: number,
): { line: number; rest: string; unclosed: boolean } | null {
  const line = lines[i];
  const open = line.match(THINK_START);
  if (!open) return null;
  const close = new RegExp(`</${open[1]}>`, "i");
  let from = open[0].length;
  for (let k = i; k < lines.length; k++) {
    const text = k === i ? line.slice(from) : lines[k];
    const m = text.match(close);
    if (m && m.index !== undefined) {
      from = m.index + m[0].length;
      return { line: k, rest: text.slice(from), unclosed: false };
    }
  }
  return { line: i, rest: line.slice(from), unclosed: true };
}

/** How {@linkcode _scan} reads fences. */
interface Reading {
  /** Fences shorter than this are read by nesting (Infinity: all of them). */
  askedLen: number;
  /** A fence followed by a sentence on its line closes a block. */
  glued: boolean;
  isPath: (line: string) => boolean;
}

/**
 * Splits `text` into tokens. `asked` is the fence the prompt asked for (a reply opened with a
 * shorter one is read by nesting); `isPath` tells a path line, which ends a loose block's reach.
 * When the CommonMark reading leaves a fence unpaired, the lenient reading (every fence nested,
 * a sentence glued to a closing fence closes it) is taken instead if it pairs every fence.
 */
export function tokenize(
  text: string,
  asked: string | undefined,
  isPath: (line: string) => boolean,
): Tokens {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const kept = lines.map(() => true);
  const work = [...lines];
  // A closing tag at the start of a line with no opening tag before it: all before was reasoning.
  const close = lines.findIndex((l) => /^\s*<\/(think|thinking|reasoning)>/i.test(l));
  if (close >= 0 && !lines.slice(0, close + 1).some((l) => THINK_OPEN.test(l))) {
    kept.fill(false, 0, close);
    work.fill("", 0, close);
    work[close] = work[close].replace(/^\s*<\/(think|thinking|reasoning)>/i, "");
  }
  const strict = _scan([...work], [...kept], {
    askedLen: asked?.length ?? Infinity,
    glued: false,
    isPath,
  });
  if (!strict.problem && !strict.stray) return strict;
  const lenient = _scan(work, kept, { askedLen: Infinity, glued: true, isPath });
  return !lenient.problem && !lenient.stray ? lenient : strict;
}

/** What {@linkcode _scan} has read so far. */
interface _Scan {
  tokens: Token[];
  warnings: string[];
  unclosedThink: boolean;
  stray: boolean;
  /** The fence that wraps the whole reply, while it is open. */
  wrapper: { line: number; fence: Fence } | null;
  /** The indentation of the list item the lines are in (0: none). */
  listIndent: number;
}

function _scan(
  work: string[],
  kept: boolean[],
  reading: Reading,
): Tokens & { stray: boolean } {
  const s: _Scan = {
    tokens: [],
    warnings: [],
    unclosedThink: false,
    stray: false,
    wrapper: null,
    listIndent: 0,
  };
  try {
    for (let i = 0; i < work.length;) {
      const line = work[i];
      const after = _marker(s, work, i);
      if (after !== undefined) {
        i = after;
        continue;
      }
      const item = line.match(LIST_ITEM);
      if (item) s.listIndent = item[0].length - 1;
      else if (line.trim() && line.length - line.trimStart().length < s.listIndent) {
        s.listIndent = 0;
      }
      const fence = parseFence(line, 3 + s.listIndent);
      i = fence ? _fence(s, work, i, fence, reading) : _prose(s, work, kept, i);
    }
    _wrapperClosed(s);
  } catch (e) {
    if (!(e instanceof Problem)) throw e;
    const { tokens, warnings, unclosedThink, stray } = s;
    return { tokens, warnings, problem: e.message, unclosedThink, visible: "", stray };
  }
  const visible = work.filter((_, k) => kept[k]).join("\n");
  const { tokens, warnings, unclosedThink, stray } = s;
  return { tokens, warnings, unclosedThink, visible, stray };
}

/**
 * A line of the block markers: a whole block read from it, a stray divider or REPLACE marker
 * ignored after a block, or a Problem. The line to go on from; undefined for any other line.
 */
function _marker(s: _Scan, work: string[], i: number): number | undefined {
  const line = work[i];
  if (SEARCH.test(line)) {
    const { token, next } = _block(work, i);
    s.tokens.push(token);
    return next;
  }
  if (DIVIDER.test(line) || REPLACE.test(line)) {
    const prev = s.tokens.findLast((t) => !(t.kind === "prose" && !t.text.trim()));
    if (prev?.kind !== "block" && !(prev?.kind === "wrap" && !prev.open)) {
      throw new Problem(
        `Line ${i + 1} holds a stray ${_show(line)} marker with no "<<<<<<< SEARCH" before ` +
          "it; every block needs all three markers",
      );
    }
    s.warnings.push(`Ignored a stray marker ${_show(line)} at line ${i + 1}`);
    return i + 1;
  }
  if (LOOSE_MARKER.test(line)) {
    throw new Problem(
      `Line ${i + 1}, ${_show(line)}, is not a valid marker; write "<<<<<<< SEARCH", ` +
        `${DIVIDER_TEXT} and ${REPLACE_TEXT} on lines of their own`,
    );
  }
  return undefined;
}

/** A line of prose, or the start of reasoning (dropped up to its end); the line to go on from. */
function _prose(s: _Scan, work: string[], kept: boolean[], i: number): number {
  const line = work[i];
  const think = line.includes("<") ? _think(work, i) : null;
  if (think) {
    s.unclosedThink ||= think.unclosed;
    if (!think.unclosed) kept.fill(false, i, think.line);
    work[think.line] = think.rest;
    return think.line;
  }
  s.tokens.push({ kind: "prose", line: i, text: line });
  return i + 1;
}

/**
 * A fence line: the wrapper's opening or closing, or a code block read to its closing fence
 * (a Problem when it has none, or holds a REPLACE marker without SEARCH); the line to go on from.
 */
function _fence(s: _Scan, work: string[], i: number, fence: Fence, reading: Reading): number {
  const line = work[i];
  if (s.wrapper) {
    const closes = closesFence(line, s.wrapper.fence);
    s.tokens.push({ kind: "wrap", line: i, info: fence.info, open: !closes });
    if (closes) s.wrapper = null;
    return i + 1;
  }
  const nested = fence.char === "`" && fence.len < reading.askedLen;
  const { end, wraps } = _fenceEnd(work, i, fence, nested, reading.glued);
  if (wraps) {
    s.wrapper = { line: i, fence };
    s.tokens.push({ kind: "wrap", line: i, info: fence.info, open: true });
    return i + 1;
  }
  if (end < 0 && work.slice(i + 1).every((l) => !l.trim())) {
    s.warnings.push(`Ignored a stray fence at line ${i + 1} with nothing after it`);
    s.stray = true;
    return i + 1;
  }
  if (end < 0) {
    throw new Problem(
      `The reply ends inside the code block opened at line ${i + 1} (no closing fence); it ` +
        "looks cut off, send the whole block again",
    );
  }
  // Content lines lose up to the fence's own indentation (a fence inside a list item).
  const cut = new RegExp(`^ {0,${fence.indent}}`);
  const body = work.slice(i + 1, end).map((l) => fence.indent ? l.replace(cut, "") : l);
  const marker = body.findIndex((l) => REPLACE.test(l));
  if (marker >= 0) {
    throw new Problem(
      `The code block at line ${i + 1} holds a ${REPLACE_TEXT} marker (line ` +
        `${i + marker + 2}) but no "<<<<<<< SEARCH" marker; write all three markers`,
    );
  }
  const loose = _fencesFollow(work, end, reading.isPath);
  s.tokens.push({ kind: "fence", line: i, end, ...fence, body, loose });
  return end + 1;
}

/** A Problem when the reply ends inside its wrapping fence. */
function _wrapperClosed(s: _Scan): void {
  if (!s.wrapper) return;
  // A wrapper may be closed inside the last REPLACE part (` ``` ` before the marker).
  const last = s.tokens.findLast((t) => t.kind === "block");
  const tail = last?.kind === "block" ? last.replace[last.replace.length - 1] : undefined;
  if (!(tail !== undefined && closesFence(tail, s.wrapper.fence))) {
    throw new Problem(
      `The reply ends inside the code fence opened at line ${s.wrapper.line + 1} (no closing ` +
        "fence); it looks cut off, send the whole reply again",
    );
  }
}
