/**
 * Reply parsing and edit application for implement_task (docs/ARCHITECTURE.md, "Delegation"). Pure functions: nothing here
 * reads or writes files.
 *
 * ```ts
 * const parsed = parseReply(reply, { knownPaths: filesToEdit });
 * if (parsed.kind === "edits") {
 *   const result = applyEdits(currentContents, parsed.edits, { allowed: filesToEdit, symbolsOnly });
 *   if (result.ok) for (const path of result.changed) write(path, result.files.get(path)!);
 *   else retryWith(result.error);
 * }
 * ```
 */
export { type ParseOptions, parseReply } from "./parse.ts";
export { readQuestion } from "./reasoning.ts";
export { applyEdits, type ApplyOptions } from "./apply.ts";
export {
  chooseFence,
  chooseReplyFormat,
  type FormatFacts,
  formatInstructions,
  isSmallFile,
  SMALL_FILE_CHARS,
  SMALL_FILE_LINES,
  SWITCH_AFTER_FAILED_MATCHES,
} from "./format.ts";
export { findElision } from "./elision.ts";
export { MAX_READINGS, otherReadings } from "./candidates.ts";
export {
  type BuiltinFormat,
  formatNames,
  formatOf,
  type FormatPlugin,
  FORMATS,
  registerFormat,
  unregisterFormat,
} from "./formats/mod.ts";
export {
  type DeletionAllowance,
  deletionAllowance,
  GUARD_MIN_LINES,
  GUARD_SHARE,
} from "./guard.ts";
export { normalizePath } from "./path_line.ts";
export type {
  ApplyFailure,
  ApplyResult,
  Edit,
  EditFormat,
  FormatEdit,
  ParseResult,
  ReplaceEdit,
  ReplyFormat,
  WholeEdit,
} from "./types.ts";
