/**
 * Fitting a REPLACE part's indentation to where its SEARCH part matched (as Aider re-indents a
 * REPLACE by the offset its SEARCH needed), with the two ways small models get it wrong:
 *
 * - the SEARCH matched only shifted, but the REPLACE is already written at the file's
 *   indentation (its first line is indented as the matched file line is): taken as written, not
 *   shifted twice;
 * - the SEARCH matched exactly, but the REPLACE repeats the SEARCH's first line at a lesser
 *   indentation (a method written back out of its class): shifted to the SEARCH's.
 */
import type { Match } from "./match.ts";

function _indent(line: string): string {
  return line.slice(0, line.length - line.trimStart().length);
}

function _first(lines: readonly string[]): string | undefined {
  return lines.find((l) => l.trim());
}

/** The shift to give the REPLACE part (the match's, none, or its own). */
export function replaceShift(
  search: readonly string[],
  replace: readonly string[],
  matched: readonly string[],
  shift: Match["shift"],
): Match["shift"] {
  const r = _first(replace);
  const s = _first(search);
  const f = _first(matched);
  if (r === undefined || s === undefined || f === undefined) return shift;
  const [ri, si, fi] = [_indent(r), _indent(s), _indent(f)];
  if (shift) return ri === fi && ri !== si ? undefined : shift;
  if (r.trim() !== s.trim() || ri.length >= si.length || !si.endsWith(ri)) return undefined;
  return { add: si.slice(0, si.length - ri.length) };
}
