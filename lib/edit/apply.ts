/**
 * applyEdits: applies a parsed reply to the files' current contents, all or nothing, in memory.
 *
 * Every refusal is a message written for the model — what failed, the nearest lines of the file
 * when a SEARCH part matches nowhere, and how to fix the reply. Files keep their own line endings
 * (LF, CRLF or mixed), byte-order mark and missing final newline.
 */
import { findElision } from "./elision.ts";
import { type DeletionAllowance, destructiveMessage } from "./guard.ts";
import { spacesToTabs } from "./indent.ts";
import { fromLines, type LineFile, spliceLines, textLines, toLines } from "./lines.ts";
import { findMatches, type Match, shiftLines } from "./match.ts";
import { replaceShift } from "./fit_indent.ts";
import { noMatchMessage } from "./messages.ts";
import { normalizePath } from "./path_line.ts";
import { EditRefusal, quoteValue } from "./refusal.ts";
import { formatOf } from "./formats/mod.ts";
import type { ApplyResult, Edit, FormatEdit, ReplaceEdit } from "./types.ts";
import { applyWhole } from "./whole.ts";

/** Options for {@linkcode applyEdits}. */
export interface ApplyOptions {
  /** The files the reply may change (`files_to_edit`). Edits to any other path are refused. */
  allowed: readonly string[];
  /** Files the model saw only in part (`symbols`): whole-file replacement of them is refused. */
  symbolsOnly?: readonly string[];
  /** Write files the reply creates with CRLF line endings (default LF). */
  crlf?: boolean;
  /**
   * What the task allows an edit to delete (see `deletionAllowance`); by default an edit that
   * empties a file or removes most of it is refused.
   */
  deletion?: DeletionAllowance;
}

function _trimBlankEnds(replace: string[], search: string[]): string[] {
  const lead = (a: string[]) =>
    a.findIndex((l) => l.trim()) < 0 ? a.length : a.findIndex((l) => l.trim());
  const trail = (a: string[]) => lead([...a].reverse());
  const cutLead = Math.min(lead(search), lead(replace));
  const cutTrail = Math.min(trail(search), trail(replace), replace.length - cutLead);
  return replace.slice(cutLead, replace.length - cutTrail);
}

function _applyReplace(
  edit: ReplaceEdit,
  n: number,
  current: LineFile | null,
  newEol: string,
  warnings: string[],
  deletion: DeletionAllowance,
): LineFile {
  const { path } = edit;
  const file = quoteValue(path);
  const search = textLines(edit.search);
  let replace = textLines(edit.replace);
  const before = current?.lines.map((l) => l.text) ?? [];
  const elided = findElision(replace, path, before, search);
  if (elided) {
    const text = quoteValue(elided.text);
    throw new EditRefusal(
      `The REPLACE part of block ${n} for ${file} leaves code out (${text}), so nothing was ` +
        "written; write out every line the REPLACE part should contain",
      "elided",
      path,
    );
  }
  if (!search.length) {
    if (current && before.some((l) => l.trim())) {
      throw new EditRefusal(
        `Block ${n} for ${file} has an empty SEARCH part, but the file already has content; ` +
          "put the lines to replace in the SEARCH part",
        "not-empty",
        path,
      );
    }
    const eol = current?.eol ?? newEol;
    return { lines: replace.map((text) => ({ text, eol })), eol, bom: current?.bom ?? "" };
  }
  if (!current) {
    throw new EditRefusal(
      `${file} does not exist yet, so block ${n} has nothing to search; to create the file, ` +
        "leave the SEARCH part empty and put the whole content in the REPLACE part",
      "missing-file",
      path,
    );
  }
  const matches = findMatches(before, search);
  if (!matches.length) {
    throw new EditRefusal(noMatchMessage(before, search, replace, n, path), "no-match", path);
  }
  if (matches.length > 1) {
    const where = matches.slice(0, 6).map((m) => m.start + 1).join(", ");
    throw new EditRefusal(
      `The SEARCH part of block ${n} for ${file} matches ${matches.length} places (lines ` +
        `${where}); add nearby lines so it matches only the one you mean`,
      "ambiguous",
      path,
    );
  }
  const m: Match = matches[0];
  if (m.tabs) replace = spacesToTabs(replace, m.tabs);
  if (m.level === "blank-lines" || m.level === "indentation") {
    replace = _trimBlankEnds(replace, search);
  }
  if (m.level !== "exact") {
    const allowing = m.level === "tabs" ? "tabs written as spaces" : m.level.replace("-", " ");
    warnings.push(`Block ${n} for ${file} matched only when allowing for ${allowing}`);
  }
  const shift = replaceShift(search, replace, before.slice(m.start, m.end), m.shift);
  if (shift !== m.shift) {
    warnings.push(
      shift
        ? `Block ${n} for ${file}: re-indented the REPLACE part to where its SEARCH part matched`
        : `Block ${n} for ${file}: the REPLACE part is already indented as the file is; kept as written`,
    );
  }
  const next = { ...current, lines: [...current.lines] };
  spliceLines(next, m.start, m.end, shiftLines(replace, shift));
  if (replace.every((l) => !l.trim())) {
    const after = next.lines.map((l) => l.text);
    const refusal = destructiveMessage(path, before, after, `Block ${n} for ${file}`, deletion);
    if (refusal) throw new EditRefusal(refusal, "destructive", path);
  }
  return next;
}

/** The block as written, fence lines and all, when the file holds it so. */
function _asWritten(edit: Edit, now: LineFile | null): Edit {
  if (edit.type !== "replace" || !edit.written || !now) return edit;
  const lines = now.lines.map((l) => l.text);
  if (!findMatches(lines, textLines(edit.written.search)).length) return edit;
  return { ...edit, ...edit.written };
}

interface Region {
  start: number;
  end: number;
  n: number;
}

/**
 * Blocks are matched against the original file too: two blocks whose SEARCH parts cover the same
 * lines of it contradict each other (or repeat an insertion), so the reply is refused.
 */
function _checkOverlap(
  edit: ReplaceEdit,
  n: number,
  path: string,
  original: string | null,
  regions: Map<string, Region[]>,
): void {
  if (!edit.search || original === null) return;
  const lines = toLines(original, "\n").lines.map((l) => l.text);
  const found = findMatches(lines, textLines(edit.search));
  if (found.length !== 1) return;
  const { start, end } = found[0];
  const seen = regions.get(path) ?? [];
  const other = seen.find((r) => r.start < end && start < r.end);
  if (other) {
    throw new EditRefusal(
      `Blocks ${other.n} and ${n} for ${quoteValue(path)} both change lines ${start + 1}-${end} ` +
        "of the file as it is now, so nothing was written; send one block for those lines",
      "ambiguous",
      path,
    );
  }
  regions.set(path, [...seen, { start, end, n }]);
}

/** What applying one edit needs besides the edit and the file. */
interface Applying {
  symbolsOnly: ReadonlySet<string>;
  newEol: string;
  deletion: DeletionAllowance;
  warnings: string[];
}

/** One edit applied to `now`, by its kind: the built-in shapes here, a format's own by its plug-in. */
function _applyOne(
  edit: Edit,
  path: string,
  n: number,
  now: LineFile | null,
  o: Applying,
): LineFile {
  switch (edit.type) {
    case "whole":
      return applyWhole({ ...edit, path }, now, {
        symbolsOnly: o.symbolsOnly.has(path),
        newEol: o.newEol,
        deletion: o.deletion,
        warnings: o.warnings,
      });
    case "replace":
      return _applyReplace({ ...edit, path }, n, now, o.newEol, o.warnings, o.deletion);
    case "format":
      return _applyFormat({ ...edit, path }, now, o.newEol);
    default: {
      const never: never = edit;
      throw new Error(`unknown edit ${JSON.stringify(never)}`);
    }
  }
}

/** An edit of a format's own shape, applied by its plug-in; the file keeps its line endings. */
function _applyFormat(edit: FormatEdit, now: LineFile | null, newEol: string): LineFile {
  const format = formatOf(edit.format);
  if (!format.apply) {
    throw new EditRefusal(
      `The ${format.name} format cannot apply edits of its own`,
      "partial",
      edit.path,
    );
  }
  const texts = format.apply(edit, now?.lines.map((l) => l.text) ?? []);
  const eol = now?.eol ?? newEol;
  const last = now?.lines[now.lines.length - 1];
  const finalEol = last && last.eol === "" ? "" : eol;
  const lines = texts.map((text, i) => ({ text, eol: i === texts.length - 1 ? finalEol : eol }));
  return { lines, eol, bom: now?.bom ?? "" };
}

/** True for a whole-file edit whose content is the file as it is (line endings aside). */
function _restates(edit: Edit, current: ReadonlyMap<string, string | null>): boolean {
  const now = current.get(normalizePath(edit.path));
  if (edit.type !== "whole" || now === null || now === undefined) return false;
  const plain = (t: string) => t.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n").trimEnd();
  return plain(edit.content) === plain(now);
}

/**
 * Applies `edits` in order to `files` (path → current content, `null` when the file does not
 * exist). Either every edit applies and the new contents come back, or nothing does and `error`
 * says why in words meant for the model. Pure: nothing is read or written.
 */
export function applyEdits(
  files: ReadonlyMap<string, string | null>,
  given: readonly Edit[],
  options: ApplyOptions,
): ApplyResult {
  const allowed = new Set(options.allowed.map(normalizePath));
  const current = new Map<string, string | null>();
  for (const [path, content] of files) current.set(normalizePath(path), content);
  // A whole file restated exactly as it is ("manifest.json (no changes needed)") is a quotation,
  // not an edit, even of a file the reply may not change.
  const edits = given.filter((e) => allowed.has(normalizePath(e.path)) || !_restates(e, current));
  const refused = [
    ...new Set(edits.map((e) => normalizePath(e.path)).filter((p) => !allowed.has(p))),
  ];
  if (refused.length) {
    const list = [...allowed].map((p) => quoteValue(p)).join(", ") || "none";
    const names = refused.map((p) => quoteValue(p)).join(", ");
    return {
      ok: false,
      reason: "not-allowed",
      path: refused[0],
      error: `Edits to ${names} were refused: the files you may change are ${list}. Change ` +
        "only those; if another file must change, reply with QUESTION: and say why",
    };
  }
  const symbolsOnly = new Set((options.symbolsOnly ?? []).map(normalizePath));
  const deletion = options.deletion ?? { most: false, all: false };
  const newEol = options.crlf ? "\r\n" : "\n";
  const state = new Map<string, LineFile | null>();
  const warnings: string[] = [];
  const order: string[] = [];
  const regions = new Map<string, Region[]>();
  try {
    edits.forEach((written, i) => {
      const path = normalizePath(written.path);
      if (!state.has(path)) {
        const text = current.get(path) ?? null;
        state.set(path, text === null ? null : toLines(text, newEol));
        order.push(path);
      }
      const now = state.get(path) ?? null;
      const edit = _asWritten(written, now);
      if (edit.type === "replace") {
        _checkOverlap(edit, i + 1, path, current.get(path) ?? null, regions);
      }
      state.set(
        path,
        _applyOne(edit, path, i + 1, now, { symbolsOnly, newEol, deletion, warnings }),
      );
    });
  } catch (e) {
    if (!(e instanceof EditRefusal)) throw e;
    return { ok: false, error: e.message, reason: e.reason, path: e.path };
  }
  const out = new Map<string, string>();
  const changed: string[] = [];
  for (const path of order) {
    const file = state.get(path);
    if (!file) continue;
    const text = fromLines(file);
    out.set(path, text);
    if (text !== current.get(path)) changed.push(path);
  }
  if (!changed.length) warnings.push("The edits change nothing: every file stays as it was");
  return { ok: true, files: out, changed, warnings };
}
