/**
 * Shapes shared by the reply parser and the edit applier.
 *
 * Text convention: `search`, `replace` and `content` are whole lines, each ending in `\n` (so `""`
 * is no lines at all and `"\n"` is one blank line). Line endings of the reply never reach the
 * files: the applier writes each file's own line ending.
 */

import type { PathSource } from "./resolve.ts";

/** Replace the lines `search` with `replace` in `path`; an empty `search` creates the file. */
export interface ReplaceEdit {
  type: "replace";
  /** Normalised, root-relative path with `/` separators. */
  path: string;
  search: string;
  replace: string;
  /** 1-based line of the reply where the block starts (for messages). */
  line?: number;
  /** Where its path came from (`resolve.ts`). */
  source?: PathSource;
  /**
   * The parts as written, when the parser took fence lines off them: the applier uses these
   * instead when the file holds those fence lines (a docstring's ``` example).
   */
  written?: { search: string; replace: string };
}

/** Replace the whole of `path` with `content`. */
export interface WholeEdit {
  type: "whole";
  /** Normalised, root-relative path with `/` separators. */
  path: string;
  content: string;
  /** 1-based line of the reply where the code block starts (for messages). */
  line?: number;
  /**
   * A path comment (`# calc.py`) the parser took off the top of the block. The applier puts it
   * back when the current file starts with that very line, so a real first-line comment survives.
   */
  header?: string;
  /**
   * Where its path came from (`resolve.ts`). From a weak source (a mention in prose, the only
   * file to edit) the applier also refuses content that drops a top-level definition the file
   * has, since it is likely only an excerpt.
   */
  source?: PathSource;
  /**
   * The reply line of the closing fence, when a bare fence follows it that may close an inner
   * block of it: for a Markdown file, or a file that holds fences itself, where it ends is a guess.
   */
  looseEnd?: number;
  /** Other files a weak source names for it: readings to try (`resolve.ts`). */
  alternatives?: string[];
}

/**
 * An edit of a format's own shape (a plug-in of `formats/` that reads and applies it): `data` is
 * the format's business.
 */
export interface FormatEdit {
  type: "format";
  /** The registered format that reads and applies it. */
  format: string;
  /** Normalised, root-relative path with `/` separators. */
  path: string;
  data: unknown;
  /** 1-based line of the reply where the edit starts (for messages). */
  line?: number;
  /** Where its path came from, when the format says (`resolve.ts`). */
  source?: PathSource;
}

/** One edit a reply asks for. */
export type Edit = ReplaceEdit | WholeEdit | FormatEdit;

/** The edits the shared reader reads (fenced whole files and SEARCH/REPLACE blocks). */
export type ReadEdit = ReplaceEdit | WholeEdit;

/** What {@linkcode parseReply} makes of a model reply. */
export type ParseResult =
  | { kind: "question"; question: string }
  | { kind: "edits"; edits: Edit[]; warnings: string[] }
  | { kind: "invalid"; problem: string };

/** Why {@linkcode applyEdits} refused a reply (lets a caller count failed matches per file). */
export type ApplyFailure =
  | "not-allowed"
  | "no-match"
  | "ambiguous"
  | "missing-file"
  | "not-empty"
  | "elided"
  | "partial"
  | "symbols-only"
  | "destructive"
  | "syntax";

/** What {@linkcode applyEdits} returns: every edit applied, or none. */
export type ApplyResult =
  | {
    ok: true;
    /** New content of every file an edit touched (including edits that changed nothing). */
    files: Map<string, string>;
    /** Paths whose content differs from before, in the order the reply first touched them. */
    changed: string[];
    warnings: string[];
  }
  | {
    ok: false;
    /** A message written for the model: what failed and how to fix the reply. */
    error: string;
    reason: ApplyFailure;
    /** The file the failing edit was for. */
    path: string;
  };

/** The `edit_format` config setting: "auto" or a built-in format (`formats/mod.ts`). */
export type EditFormat = "auto" | "whole" | "diff";

/**
 * The reply format asked for one file: the name of a registered format (`formats/mod.ts`): the
 * built-ins are "whole" (whole-file content) and "diff" (SEARCH/REPLACE blocks).
 */
export type ReplyFormat = string;
