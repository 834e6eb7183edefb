/**
 * Re-parsing a file that changed a little: the worker keeps the last trees it made (a few files),
 * tells the old tree what changed (one edit: the text between the common start and the common end)
 * and lets tree-sitter reuse everything outside it, which is what makes outline after an edit cheap.
 *
 * A tree that is no longer kept is not freed at once: freeing a 10,000-line tree takes 4-20 ms,
 * which the caller would wait for. It waits for {@linkcode freeDropped} (the worker calls it once
 * its answer is sent), or is freed at once when the dropped trees cover more than a million
 * characters (a caller that never calls it).
 */
import type { Edit, Point, Tree } from "web-tree-sitter";
import type { LanguageId } from "./languages.ts";
import { parserFor } from "./parser.ts";

/** How many files' trees are kept, and how much text they may cover together. */
const KEEP = 4;
const KEEP_CHARS = 1_000_000;

const _kept = new Map<string, { language: LanguageId; text: string; tree: Tree }>();

/** Trees no longer kept, to free after the answer, and how much text they cover. */
const _dropped: Tree[] = [];
let _droppedChars = 0;

function _drop(tree: Tree, chars: number): void {
  _dropped.push(tree);
  _droppedChars += chars;
  if (_droppedChars > KEEP_CHARS) freeDropped();
}

/** Frees the trees dropped since the last call (their WASM memory is reused by the next parse). */
export function freeDropped(): void {
  for (const tree of _dropped.splice(0)) tree.delete();
  _droppedChars = 0;
}

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
 * tree to `use`; the tree is kept for the next call (the oldest kept ones are dropped past four
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
    _drop(old.tree, old.text.length);
  } else {
    if (old) _drop(old.tree, old.text.length);
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
      _drop(entry.tree, entry.text.length);
      _kept.delete(oldest);
      chars -= entry.text.length;
    }
  }
}
