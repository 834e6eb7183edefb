/**
 * Syntax errors of a file, with the tree-sitter grammars outline embeds: the 1-based lines that
 * hold an ERROR or a MISSING node. implement_task's syntax backstop (lib/implement/reply.ts) uses
 * it to refuse an edit that breaks a file which parsed cleanly before.
 *
 * Cost: the tree of a file as it was is kept (a few, most recent first), so the file after an
 * edit is parsed incrementally from it: only the changed region is read again. Parsing the file
 * as it was can be done ahead ({@linkcode primeSyntax}), while the model writes its reply.
 */
import type { Node, Tree } from "web-tree-sitter";
import { type LanguageId, languageOf } from "./languages.ts";
import { parserFor } from "./parser.ts";
import type { OutlineItem } from "./items.ts";
import { outlineTree } from "./source.ts";

/** At most this many broken lines are listed. */
const MAX_LINES = 20;
/** Trees of files as they were, kept for incremental parses. */
const MAX_KEPT = 6;

const _kept = new Map<string, Tree>();

function _collect(node: Node, out: number[]): void {
  if (out.length >= MAX_LINES) return;
  if (node.isError || node.isMissing) {
    out.push(node.startPosition.row + 1);
    if (node.isMissing) return;
  }
  for (const child of node.children) {
    if (child && (child.hasError || child.isMissing)) _collect(child, out);
  }
}

function _errors(tree: Tree): number[] {
  if (!tree.rootNode.hasError) return [];
  const out: number[] = [];
  _collect(tree.rootNode, out);
  return [...new Set(out)].sort((a, b) => a - b);
}

function _key(language: LanguageId, text: string): string {
  return `${language}\0${text}`;
}

async function _tree(language: LanguageId, text: string): Promise<Tree> {
  const key = _key(language, text);
  const kept = _kept.get(key);
  if (kept) {
    _kept.delete(key);
    _kept.set(key, kept);
    return kept;
  }
  const tree = (await parserFor(language)).parse(text);
  if (!tree) throw new Error(`the ${language} parser returned no tree`);
  return _keep(key, tree);
}

/** Keeps `tree` as the tree of `key`, dropping the oldest beyond {@linkcode MAX_KEPT}. */
function _keep(key: string, tree: Tree): Tree {
  _kept.get(key)?.delete();
  _kept.delete(key);
  _kept.set(key, tree);
  while (_kept.size > MAX_KEPT) {
    const [oldest, old] = _kept.entries().next().value!;
    _kept.delete(oldest);
    old.delete();
  }
  return tree;
}

function _point(text: string, index: number): { row: number; column: number } {
  let row = 0;
  let start = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) {
    row++;
    start = i + 1;
  }
  return { row, column: index - start };
}

/**
 * Parses `text` as the language of `path` ahead of time and keeps its tree, so that
 * {@linkcode syntaxErrorLines} on it, and on an edit of it, is quick. Does nothing for a file with
 * no grammar.
 */
export async function primeSyntax(path: string, text: string): Promise<void> {
  const language = languageOf(path, text);
  if (language) await _tree(language, text);
}

/**
 * The lines of `text` with syntax errors when read as the language of `path` (sorted, unique, at
 * most 20), `[]` when it parses cleanly, or `null` when no grammar reads that kind of file. With
 * `before`, the text as it was before an edit, `text` is parsed incrementally from its tree.
 */
export async function syntaxErrorLines(
  path: string,
  text: string,
  before?: string,
): Promise<number[] | null> {
  const language = languageOf(path, text);
  if (!language) return null;
  if (before === undefined || before === text) return _errors(await _tree(language, text));
  const old = (await _tree(language, before)).copy();
  try {
    let start = 0;
    const most = Math.min(before.length, text.length);
    while (start < most && before[start] === text[start]) start++;
    let tail = 0;
    while (
      tail < most - start && before[before.length - 1 - tail] === text[text.length - 1 - tail]
    ) tail++;
    const { Edit } = await import("web-tree-sitter");
    old.edit(
      new Edit({
        startIndex: start,
        oldEndIndex: before.length - tail,
        newEndIndex: text.length - tail,
        startPosition: _point(before, start),
        oldEndPosition: _point(before, before.length - tail),
        newEndPosition: _point(text, text.length - tail),
      }),
    );
    const tree = (await parserFor(language)).parse(text, old);
    if (!tree) throw new Error(`the ${language} parser returned no tree`);
    const found = _errors(tree);
    // An incremental parse that finds errors is confirmed by a full one; a clean one is kept,
    // so the definitions of the new text (`definitionsOf`) need no parse of their own.
    if (!found.length) {
      _keep(_key(language, text), tree);
      return found;
    }
    tree.delete();
  } finally {
    old.delete();
  }
  const full = (await parserFor(language)).parse(text);
  if (!full) throw new Error(`the ${language} parser returned no tree`);
  return _errors(_keep(_key(language, text), full));
}

/**
 * The outline items of `text` read as the language of `path` (`null`: no grammar, or the text
 * does not parse cleanly), from the kept tree when there is one.
 */
export async function definitionsOf(path: string, text: string): Promise<OutlineItem[] | null> {
  const language = languageOf(path, text);
  if (!language) return null;
  const tree = await _tree(language, text);
  if (tree.rootNode.hasError) return null;
  return outlineTree(tree, language, text).items;
}
