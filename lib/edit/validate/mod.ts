/**
 * The validation stage: every format's result, file by file, before and after, goes through the
 * same fitters and validators, whatever format produced it (docs/REPLIES.md, "Validators").
 *
 * Fitters first put back what a careful human restores without asking (the file's encoding, a
 * Makefile's recipe tabs); then each validator may refuse the file, and the first refusal stops
 * the reply, naming the validator. Adding a validator = its module + one line in
 * {@linkcode VALIDATORS}; adding a format needs no line here.
 */
import { DATA_PLACEMENT, DATA_SYNTAX } from "./data.ts";
import { DEFINITIONS } from "./definitions.ts";
import { DESTRUCTIVE, ELISION, SYNTAX } from "./code.ts";
import { ENCODING } from "./encoding.ts";
import { CASE_LABELS, IMPORTS, INDENTATION, LOCKFILES } from "./kept.ts";
import { MAKEFILE_TABS } from "./makefile.ts";
import type { FileChange, Finding, Fitter, TaskWords, Validator } from "./types.ts";

export type { FileChange, Finding, Fitter, TaskWords, Validator } from "./types.ts";
export { recipeTabs } from "./makefile.ts";

/** The fitters, in order. */
export const FITTERS: readonly Fitter[] = [ENCODING, MAKEFILE_TABS];

/** The validators, cheapest first; the syntax of code last (it parses). */
export const VALIDATORS: readonly Validator[] = [
  LOCKFILES,
  ELISION,
  DESTRUCTIVE,
  DATA_SYNTAX,
  DATA_PLACEMENT,
  INDENTATION,
  IMPORTS,
  CASE_LABELS,
  SYNTAX,
  DEFINITIONS,
];

/** What the stage made of a reply's changes. */
export interface Validated {
  /** Each file's content after the fitters. */
  files: Map<string, string>;
  notes: string[];
  /** The first refusal, or `null` when every file passed. */
  finding: Finding | null;
}

/** Fits and validates each changed file; stops at the first refusal. */
export async function validateChanges(
  changes: readonly FileChange[],
  task: TaskWords,
  validators: readonly Validator[] = VALIDATORS,
): Promise<Validated> {
  const files = new Map<string, string>();
  const notes: string[] = [];
  for (const change of changes) {
    let after = change.after;
    for (const f of FITTERS) {
      const fitted = f.fit({ ...change, after });
      if (fitted) {
        after = fitted.after;
        notes.push(fitted.note);
      }
    }
    files.set(change.path, after);
    for (const v of validators) {
      const problem = await v.check({ ...change, after }, task);
      if (problem) {
        const finding = { validator: v.name, path: change.path, reason: v.reason, problem };
        return { files, notes, finding };
      }
    }
  }
  return { files, notes, finding: null };
}
