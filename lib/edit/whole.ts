/**
 * Whole-file replacement and the guards that keep an excerpt or an elided file from being
 * written: `...` and "rest unchanged" markers, a block far shorter than the file, dropped
 * top-level definitions, and files the model saw only in part.
 */
import { findElision } from "./elision.ts";
import { type DeletionAllowance, destructiveMessage } from "./guard.ts";
import { tabsForSpaces } from "./indent.ts";
import { isWeak } from "./resolve.ts";
import { type LineFile, textLines } from "./lines.ts";
import { EditRefusal, quoteValue } from "./refusal.ts";
import type { WholeEdit } from "./types.ts";

/** A whole-file reply shorter than this share of a file's lines is taken for an excerpt. */
const PARTIAL_SHARE = 0.4;
/** Files with fewer non-blank lines than this are never judged excerpts by size. */
const PARTIAL_MIN_LINES = 15;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const DEFINITION =
  /^(?:export\s+)?(?:default\s+)?(?:pub(?:\([\w\s]+\))?\s+)?(?:async\s+)?(?:def|class|function\*?|fn|interface|type|enum|struct|trait)\s+([A-Za-z_$][\w$]*)|^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/;

function _nonBlank(lines: readonly string[]): number {
  return lines.filter((l) => l.trim()).length;
}

function _definitions(lines: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const line of lines) {
    const m = line.length < 300 ? line.match(DEFINITION) : null;
    if (m) names.add(m[1] ?? m[2]);
  }
  return names;
}

function _checkWhole(
  edit: WholeEdit,
  lines: string[],
  original: LineFile | null,
  symbolsOnly: boolean,
  deletion: DeletionAllowance,
): void {
  const { path } = edit;
  const file = quoteValue(path);
  const before = original?.lines.map((l) => l.text) ?? [];
  if (edit.looseEnd && (/\.(md|markdown|mdx)$/i.test(path) || before.some((l) => FENCE.test(l)))) {
    throw new EditRefusal(
      `The code block at line ${edit.line} for ${file} holds fences of its own, so where the ` +
        `file ends is ambiguous (line ${edit.looseEnd} may close it or open an inner block); ` +
        "nothing was written. Send the file inside a four-backtick fence, which its ``` fences " +
        `cannot close:\n${path}\n\`\`\`\`\n(the whole file, with its \`\`\` blocks)\n\`\`\`\``,
      "partial",
      path,
    );
  }
  if (symbolsOnly) {
    throw new EditRefusal(
      `Whole-file content for ${file} was refused: you were shown only parts of that file; ` +
        "use SEARCH/REPLACE blocks that quote the lines you change",
      "symbols-only",
      path,
    );
  }
  const elided = findElision(lines, path, before);
  if (elided) {
    const text = quoteValue(elided.text);
    throw new EditRefusal(
      `The content for ${file} leaves code out at its line ${elided.line} (${text}), so ` +
        "nothing was written; send the complete file with every line, or use SEARCH/REPLACE " +
        "blocks",
      "elided",
      path,
    );
  }
  const had = _nonBlank(before);
  const has = _nonBlank(lines);
  if (had && !has) {
    throw new EditRefusal(
      `The whole-file block for ${file} is empty, so nothing was written; send the complete ` +
        "file, or use SEARCH/REPLACE blocks",
      "partial",
      path,
    );
  }
  if (had >= PARTIAL_MIN_LINES && has < had * PARTIAL_SHARE) {
    throw new EditRefusal(
      `The whole-file content for ${file} has ${has} lines of code where the file has ${had}; ` +
        "it looks like an excerpt, so nothing was written. Send the complete file, or use " +
        "SEARCH/REPLACE blocks for the part that changes",
      "partial",
      path,
    );
  }
  _checkDropped(edit, lines, before, deletion);
  const refusal = destructiveMessage(
    path,
    before,
    lines,
    `The whole-file content for ${file}`,
    deletion,
  );
  if (refusal) throw new EditRefusal(refusal, "destructive", path);
}

/**
 * An excerpt sent as a whole file silently deletes the rest. When the path was only inferred, any
 * dropped top-level definition gives it away; when the path was written, dropping two or more
 * definitions and at least half of them does (removing one function whole-file stays possible),
 * unless the task asks for a deletion: then the definitions validator judges each name.
 */
function _checkDropped(
  edit: WholeEdit,
  lines: string[],
  before: string[],
  deletion: DeletionAllowance,
): void {
  const had = [..._definitions(before)];
  const kept = _definitions(lines);
  const dropped = had.filter((n) => !kept.has(n));
  const inferred = edit.source !== undefined && isWeak(edit.source);
  const excerpt = inferred
    ? dropped.length > 0
    : !deletion.most && dropped.length >= 2 && dropped.length * 2 >= had.length;
  if (!excerpt) return;
  const what = inferred ? "The code block taken as the whole of" : "The whole-file content for";
  const names = dropped.slice(0, 6).map((n) => quoteValue(n)).join(", ");
  throw new EditRefusal(
    `${what} ${quoteValue(edit.path)} drops ${names}, which the file defines, so it looks like ` +
      "an excerpt and nothing was written; write the path alone on the line before a block with " +
      "the complete file, or use SEARCH/REPLACE blocks (an empty REPLACE part deletes lines)",
    "partial",
    edit.path,
  );
}

/**
 * The file after replacing it whole with `edit.content`, or an {@linkcode EditRefusal} when the
 * content leaves code out, is an excerpt, or the model saw only parts of the file. Keeps the
 * file's line ending, byte-order mark, trailing blank lines and missing final newline.
 */
export function applyWhole(
  edit: WholeEdit,
  current: LineFile | null,
  options: {
    symbolsOnly: boolean;
    newEol: string;
    deletion?: DeletionAllowance;
    warnings?: string[];
  },
): LineFile {
  let lines = textLines(edit.content);
  const tabbed = current ? tabsForSpaces(lines, current.lines.map((l) => l.text), edit.path) : null;
  if (tabbed) {
    lines = tabbed;
    options.warnings?.push(
      `Re-indented the content for ${quoteValue(edit.path)} with tabs, as the file is indented`,
    );
  }
  const first = current?.lines[0]?.text;
  if (edit.header && first !== undefined && first.trim() === edit.header.trim()) {
    const second = current?.lines[1]?.text;
    if (second !== undefined && !second.trim() && lines[0]?.trim()) lines.unshift(second);
    lines.unshift(first);
  }
  _checkWhole(
    edit,
    lines,
    current,
    options.symbolsOnly,
    options.deletion ?? { most: false, all: false },
  );
  // A fenced block cannot show trailing blank lines reliably: keep the file's own.
  const old = current?.lines ?? [];
  let blanks = 0;
  while (blanks < old.length && !old[old.length - 1 - blanks].text.trim()) blanks++;
  if (lines.length && lines[lines.length - 1].trim() && blanks < old.length) {
    lines.push(...Array<string>(blanks).fill(""));
  }
  const eol = current?.eol ?? options.newEol;
  const last = current?.lines[current.lines.length - 1];
  const finalEol = last && last.eol === "" ? "" : eol;
  const out = lines.map((text, i) => ({ text, eol: i === lines.length - 1 ? finalEol : eol }));
  return { lines: out, eol, bom: current?.bom ?? "" };
}
