/**
 * Re-parsing a file that changed a little: the worker keeps the last trees it made (a few files),
 * tells the old tree what changed (one edit: the text between the common start and the common end)
 * and lets tree-sitter reuse everything outside it, which is what makes outline after an edit cheap.
 */
import type { Edit, Point, Tree } from "web-tree-sitter";
import type { LanguageId } from "./languages.ts";
import { parserFor } from "./parser.ts";

/** How many files' trees are kept, and how much text they may cover together. */
const KEEP = 4;
const KEEP_CHARS = 1_000_000;

const _kept = new Map<string, { language: LanguageId; text: string; tree: Tree }>();

/** Row and column (UTF-16 code units, as web-tree-sitter counts) of `index` in `text`. */
function _point(text: string, index: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

/** The one edit that turns `before` into `after`. */
export function editBetween(before: string, after: string): Edit {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let oldEnd = before.length;
  let newEnd = after.length;
  while (
    oldEnd > start && newEnd > start &&
    before.charCodeAt(oldEnd - 1) === after.charCodeAt(newEnd - 1)
  ) {
    oldEnd--;
    newEnd--;
  }
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: _point(before, start),
    oldEndPosition: _point(before, oldEnd),
    newEndPosition: _point(after, newEnd),
  } as Edit;
}

/**
 * Parses `text` as `language`, reusing the tree kept under `key` when there is one, and hands the
 * tree to `use`; the tree is kept for the next call (the oldest kept ones are freed past four
 * files or a million characters, so a huge file's tree is not kept at all).
 */
export async function withKeptTree<T>(
  key: string,
  language: LanguageId,
  text: string,
  use: (tree: Tree) => T,
): Promise<T> {
  const parser = await parserFor(language);
  const old = _kept.get(key);
  _kept.delete(key);
  let tree: Tree | null;
  if (old && old.language === language) {
    old.tree.edit(editBetween(old.text, text));
    tree = parser.parse(text, old.tree);
    old.tree.delete();
  } else {
    old?.tree.delete();
    tree = parser.parse(text);
  }
  if (!tree) throw new Error(`the ${language} parser returned no tree`);
  _kept.set(key, { language, text, tree });
  try {
    return use(tree);
  } finally {
    let chars = 0;
    for (const entry of _kept.values()) chars += entry.text.length;
    while (_kept.size > KEEP || chars > KEEP_CHARS) {
      const [oldest, entry] = _kept.entries().next().value!;
      entry.tree.delete();
      _kept.delete(oldest);
      chars -= entry.text.length;
    }
  }
}
