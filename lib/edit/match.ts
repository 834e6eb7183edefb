/**
 * Finding a SEARCH part in a file, on a ladder of tolerance: ignoring trailing whitespace
 * (which nobody can see); then ignoring blank-line differences; then a uniform indentation shift;
 * then spaces read as tabs for a tab-indented file. The first
 * rung with any match decides, so a looser rung never overrides an exact match. When nothing
 * matches, {@linkcode nearestLines} finds the closest window to quote back to the model.
 */
import { spacesToTabs } from "./indent.ts";

/** How far down the ladder a match needed to go. */
export type MatchLevel =
  | "exact"
  | "trailing-whitespace"
  | "blank-lines"
  | "indentation"
  | "tabs";

/** One place `search` matches: file lines `[start, end)`, and the indentation change it needed. */
export interface Match {
  start: number;
  end: number;
  level: MatchLevel;
  /** Indentation to add to (`add`) or take off (`remove`) every non-blank REPLACE line. */
  shift?: { add: string } | { remove: string };
  /** The search matched once re-indented with tabs, `tabs` spaces a tab: re-indent REPLACE too. */
  tabs?: number;
}

function _indent(line: string): string {
  return line.slice(0, line.length - line.trimStart().length);
}

function _isBlank(line: string): boolean {
  return line.trim() === "";
}

function _contiguous(
  file: readonly string[],
  search: readonly string[],
  same: (a: string, b: string) => boolean,
  level: MatchLevel,
): Match[] {
  const found: Match[] = [];
  for (let i = 0; i + search.length <= file.length; i++) {
    let j = 0;
    while (j < search.length && same(file[i + j], search[j])) j++;
    if (j === search.length) found.push({ start: i, end: i + search.length, level });
  }
  return found;
}

function _shiftAt(fileLine: string, searchLine: string): Match["shift"] | null {
  const f = _indent(fileLine);
  const s = _indent(searchLine);
  if (f.length > s.length && f.endsWith(s)) return { add: f.slice(0, f.length - s.length) };
  if (s.length > f.length && s.endsWith(f)) return { remove: s.slice(0, s.length - f.length) };
  return null;
}

function _shifted(searchLine: string, shift: NonNullable<Match["shift"]>): string | null {
  if ("add" in shift) return shift.add + searchLine;
  return searchLine.startsWith(shift.remove) ? searchLine.slice(shift.remove.length) : null;
}

function _nonBlank(
  file: readonly string[],
  search: readonly string[],
  shifted: boolean,
): Match[] {
  const fi = file.flatMap((l, i) => (_isBlank(l) ? [] : [i]));
  const s = search.filter((l) => !_isBlank(l)).map((l) => l.trimEnd());
  const found: Match[] = [];
  if (!s.length) return found;
  for (let k = 0; k + s.length <= fi.length; k++) {
    const first = file[fi[k]].trimEnd();
    const shift = shifted ? _shiftAt(first, s[0]) : undefined;
    if (shifted && !shift) continue;
    let j = 0;
    while (j < s.length) {
      const want = shift ? _shifted(s[j], shift) : s[j];
      if (want === null || file[fi[k + j]].trimEnd() !== want) break;
      j++;
    }
    if (j === s.length) {
      const level: MatchLevel = shifted ? "indentation" : "blank-lines";
      found.push({ start: fi[k], end: fi[k + s.length - 1] + 1, level, ...(shift && { shift }) });
    }
  }
  return found;
}

/**
 * Every place `search` matches `file` (line texts) on the first rung of the ladder that has any.
 * Trailing whitespace cannot be seen, so a match is unique only if it is unique ignoring it: the
 * first rung already ignores it (a match that is exact is still reported as "exact"). A search
 * indented with spaces for a file indented with tabs is tried last, re-indented with tabs.
 */
export function findMatches(file: readonly string[], search: readonly string[]): Match[] {
  const found = _ladder(file, search);
  return found.length ? found : _tabbed(file, search);
}

function _ladder(file: readonly string[], search: readonly string[]): Match[] {
  const rungs: (() => Match[])[] = [
    () =>
      _contiguous(file, search, (a, b) => a.trimEnd() === b.trimEnd(), "trailing-whitespace")
        .map((m) => (_exactAt(file, search, m.start) ? { ...m, level: "exact" } : m)),
    () => _nonBlank(file, search, false),
    () => _nonBlank(file, search, true),
  ];
  for (const rung of rungs) {
    const found = rung();
    if (found.length) return found;
  }
  return [];
}

function _exactAt(file: readonly string[], search: readonly string[], start: number): boolean {
  return search.every((l, j) => file[start + j] === l);
}

/** The search re-indented with tabs (each `unit` spaces one tab), for a tab-indented file. */
function _tabbed(file: readonly string[], search: readonly string[]): Match[] {
  if (!file.some((l) => l.startsWith("\t")) || !search.some((l) => /^ +\S/.test(l))) return [];
  for (const unit of [4, 2, 8, 3]) {
    const tabbed = spacesToTabs(search, unit);
    const found = _ladder(file, tabbed);
    if (found.length) return found.map((m) => ({ ...m, level: "tabs", tabs: unit }));
  }
  return [];
}

/** Applies a match's indentation shift to REPLACE lines (blank lines stay as they are). */
export function shiftLines(lines: readonly string[], shift: Match["shift"]): string[] {
  if (!shift) return [...lines];
  return lines.map((line) => {
    if (_isBlank(line)) return line;
    if ("add" in shift) return shift.add + line;
    if (line.startsWith(shift.remove)) return line.slice(shift.remove.length);
    let cut = 0;
    while (cut < shift.remove.length && line[cut] === shift.remove[cut]) cut++;
    return line.slice(cut);
  });
}

/** SEARCH lines scored when looking for the nearest window (keeps a huge SEARCH cheap). */
const MAX_SCORED = 40;

function _bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  const t = text.trim().replace(/\s+/g, " ");
  if (t.length === 1) grams.set(t, 1);
  for (let i = 0; i < t.length - 1; i++) {
    const g = t.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}

function _dice(a: Map<string, number>, b: Map<string, number>, la: number, lb: number): number {
  if (la + lb === 0) return 1;
  let common = 0;
  for (const [g, n] of a) common += Math.min(n, b.get(g) ?? 0);
  return (2 * common) / (la + lb);
}

/** The closest window of the file to `search`: lines `[start, end)` and a 0–1 similarity. */
export interface Nearest {
  start: number;
  end: number;
  score: number;
}

/**
 * Finds the window of `file` most similar to `search` (line by line, blank lines ignored), for
 * quoting back when a SEARCH part matches nowhere. `null` for an empty file or search.
 */
export function nearestLines(file: readonly string[], search: readonly string[]): Nearest | null {
  const fi = file.flatMap((l, i) => (_isBlank(l) ? [] : [i]));
  const s = search.filter((l) => !_isBlank(l)).slice(0, MAX_SCORED);
  if (!fi.length || !s.length) return null;
  const fg = fi.map((i) => _bigrams(file[i]));
  const fl = fg.map((g) => [...g.values()].reduce((x, y) => x + y, 0));
  const sg = s.map(_bigrams);
  const sl = sg.map((g) => [...g.values()].reduce((x, y) => x + y, 0));
  const width = Math.min(s.length, fi.length);
  let best: Nearest = { start: fi[0], end: fi[width - 1] + 1, score: -1 };
  for (let k = 0; k + width <= fi.length; k++) {
    let total = 0;
    for (let j = 0; j < width; j++) total += _dice(sg[j], fg[k + j], sl[j], fl[k + j]);
    const score = total / s.length;
    if (score > best.score) best = { start: fi[k], end: fi[k + width - 1] + 1, score };
  }
  return best;
}
