/**
 * The grammar of code fences and SEARCH/REPLACE markers in a reply: what opens a fence, what closes
 * it (nested fences included), a fence that holds only a file name, and a Markdown file whose end
 * is ambiguous.
 */
import { pathFromLine } from "./path_line.ts";

export const SEARCH = /^\s*<{5,9}\s*(SEARCH|ORIGINAL|FIND)\s*:?\s*$/i;
export const DIVIDER = /^\s*={5,9}\s*$/;
export const REPLACE = /^\s*>{5,9}\s*(REPLACE|UPDATED?|REPLACEMENT)\s*:?\s*$/i;
const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;
const MARKDOWN_INFO = /^(md|markdown|mdx)$/i;
const MARKDOWN_PATH = /\.(md|markdown|mdx)$/i;

/** A fence line: its character, its length and its info string (language, maybe a path). */
export interface Fence {
  char: string;
  len: number;
  info: string;
}

/** The fence `line` is, or `null`. */
export function parseFence(line: string): Fence | null {
  const m = line.match(FENCE);
  if (!m) return null;
  const info = m[2].trim();
  return info.includes(m[1][0]) ? null : { char: m[1][0], len: m[1].length, info };
}

/** True when `line` closes a block opened by `open`. */
export function closesFence(line: string, open: Fence): boolean {
  const f = parseFence(line);
  return !!f && !f.info && f.char === open.char && f.len >= open.len;
}

/** True when a fence's "info" is a sentence glued to a closing fence (```` ```This fixes it. ````). */
function _glued(info: string): boolean {
  return info.split(/\s+/).length >= 3 && /[a-z]{2}/.test(info) && !/[={}]/.test(info);
}

/**
 * Where the fence opened at `open` closes (-1: never), and whether blocks stand inside it. Only a
 * fence at least as long as the opening one counts: inside ```` a ``` line is plain text. A fence
 * line with a language (```` ```bash ````) cannot close a block, so inside one it opens a nested
 * block, which the next bare fence closes: a README whose ``` blocks each name a language reads
 * whole. A fence followed by a sentence on the same line closes.
 */
export function fenceEnd(
  lines: readonly string[],
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
    const inner = parseFence(lines[end]);
    if (!inner || inner.char !== fence.char || inner.len < fence.len) continue;
    if (!inner.info || _glued(inner.info)) {
      if (depth === 0) return { end, hasBlock };
      depth--;
    } else depth++;
  }
  return { end: -1, hasBlock };
}

/**
 * The path a code block holds when it holds nothing else and another fence follows it (`end` is
 * its closing fence): small models write ```` ```plaintext ````, ```` ```python ```` or a bare
 * ```` ``` ```` around the file name alone, then the code in a second fence. Such a block is a
 * label, never a one-line file.
 */
export function labelPath(
  lines: readonly string[],
  body: readonly string[],
  end: number,
  known: readonly string[],
): string | null {
  const text = body.filter((l) => l.trim());
  if (text.length !== 1) return null;
  const path = pathFromLine(text[0], known);
  if (!path) return null;
  for (let k = end + 1; k < lines.length; k++) {
    if (lines[k].trim()) return parseFence(lines[k]) ? path : null;
  }
  return null;
}

/**
 * A Markdown file sent in a ``` fence that holds bare ``` fences of its own cannot be read safely:
 * its first inner fence seems to close it. When the block (`open`…`end`) ends right after a
 * heading or a line ending in ":" (text that introduces a block) and more fences follow before
 * the next path, where the file ends is ambiguous: returns the message asking for a longer outer
 * fence, else `null`.
 */
export function markdownEndProblem(
  lines: readonly string[],
  open: number,
  end: number,
  fence: Fence,
  path: string | null,
  known: readonly string[],
): string | null {
  const markdown = MARKDOWN_INFO.test(fence.info.split(/\s/)[0]) ||
    (!!path && MARKDOWN_PATH.test(path));
  if (!markdown) return null;
  const last = lines.slice(open + 1, end).findLast((l) => l.trim())?.trim() ?? "";
  if (!/^#{1,6}\s/.test(last) && !last.endsWith(":")) return null;
  for (let k = end + 1; k < lines.length; k++) {
    if (pathFromLine(lines[k], known)) return null;
    if (!parseFence(lines[k])) continue;
    const name = path ?? "README.md";
    const inner = fence.char.repeat(3);
    const outer = fence.char.repeat(Math.max(4, fence.len + 1));
    return `The code block at line ${open + 1} for ${JSON.stringify(name)} holds ${inner} ` +
      `fences of its own, so where the file ends is ambiguous (line ${end + 1} may close it ` +
      "or open an inner block); nothing was written. Send the file inside a four-backtick " +
      `fence, which its ${inner} fences cannot close:\n${name}\n${outer}markdown\n` +
      `(the whole file, with its ${inner} blocks)\n${outer}`;
  }
  return null;
}
