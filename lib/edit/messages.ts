/**
 * The message for a SEARCH part that matches nowhere: the closest lines of the file with their
 * numbers, the first line that differs, and a hint when the cause is recognisable (tabs, an edit
 * that was applied already). Small models fix their block from exactly this.
 */
import { findMatches, nearestLines } from "./match.ts";

const MAX_QUOTED = 12;
const MAX_LINE = 120;

function _clip(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
}

function _q(text: string): string {
  return JSON.stringify(_clip(text.trim()));
}

/** Quotes `file[start, end)` with right-aligned 1-based line numbers, `12| text`. */
function quoteLines(file: readonly string[], start: number, end: number): string {
  const width = String(end).length;
  const out: string[] = [];
  for (let i = start; i < end; i++) out.push(`${String(i + 1).padStart(width)}| ${_clip(file[i])}`);
  return out.join("\n");
}

function _firstDifference(
  file: readonly string[],
  search: readonly string[],
  start: number,
  end: number,
): string | null {
  const fileLines = [];
  for (let i = start; i < end; i++) if (file[i].trim()) fileLines.push(i);
  const searchLines = search.filter((l) => l.trim());
  for (let j = 0; j < Math.min(fileLines.length, searchLines.length); j++) {
    const f = file[fileLines[j]];
    const s = searchLines[j];
    if (f.trim() !== s.trim()) {
      return `your SEARCH line ${_q(s)} reads ${_q(f)} at line ${fileLines[j] + 1} of the file`;
    }
    if (f.trimEnd() !== s.trimEnd()) {
      return `your SEARCH line ${_q(s)} is indented differently from line ${fileLines[j] + 1} of ` +
        "the file";
    }
  }
  return null;
}

/** The error for block `n` whose SEARCH part matches nowhere in `file` (line texts). */
export function noMatchMessage(
  file: readonly string[],
  search: readonly string[],
  replace: readonly string[],
  n: number,
  path: string,
): string {
  const parts = [
    `The SEARCH part of block ${n} for ${JSON.stringify(path)} matches nothing in the file`,
  ];
  const near = nearestLines(file, search);
  if (near && near.score > 0.2) {
    const start = Math.max(0, near.start - 1);
    const end = Math.min(file.length, Math.max(near.end + 1, start + 1), start + MAX_QUOTED);
    parts.push(`. The closest lines are ${start + 1}-${end}:\n${quoteLines(file, start, end)}\n`);
    const diff = _firstDifference(file, search, near.start, near.end);
    if (diff) parts.push(`Note: ${diff}. `);
  } else {
    parts.push(". No lines of the file resemble it. ");
  }
  if (replace.some((l) => l.trim()) && findMatches(file, replace).length) {
    parts.push("Its REPLACE lines are already in the file: this edit may be applied already. ");
  }
  const skipped = search.find((l) =>
    /^\s*(\.\.\.|…)\s*$/.test(l) || /^\s*(#|\/\/)\s*\.\.\./.test(l)
  );
  if (skipped !== undefined) {
    parts.push(`The SEARCH part skips lines with ${_q(skipped)}; quote every line it covers. `);
  }
  const tabs = file.some((l) => l.startsWith("\t"));
  if (tabs && search.some((l) => /^ {2,}\S/.test(l))) {
    parts.push("The file indents with tabs, not spaces. ");
  }
  parts.push("Copy the SEARCH lines exactly from the file as it is now, indentation included");
  return parts.join("");
}
