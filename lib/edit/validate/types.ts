/**
 * The shapes of the validation stage (`mod.ts`): one file's change as the reply left it, and what
 * a validator says of it.
 */
import type { DeletionAllowance } from "../guard.ts";
import type { ApplyFailure, Edit } from "../types.ts";

/** One file a reply changes: its content before (`null`: new) and after, and the edits made. */
export interface FileChange {
  path: string;
  before: string | null;
  after: string;
  /** The reply's edits of this file, in order (a format's own kind of edit included). */
  edits: readonly Edit[];
}

/** What the validators know of the task. */
export interface TaskWords {
  /** The task's words: they say which definitions may go. */
  spec: string;
  deletion: DeletionAllowance;
}

/** A validator's refusal: which validator, for which file, and the words for the model. */
export interface Finding {
  validator: string;
  path: string;
  reason: ApplyFailure;
  problem: string;
}

/**
 * One validator: looks at a file before and after a reply (every format's result alike) and says
 * what is wrong with it, or `null`.
 */
export interface Validator {
  name: string;
  reason: ApplyFailure;
  check(change: FileChange, task: TaskWords): Promise<string | null> | string | null;
}

/**
 * One fitter: puts back what a reply cannot be asked to get right and a careful human restores
 * without asking (a file's encoding, a Makefile's recipe tabs). Returns the fitted text and a
 * note, or `null` when there is nothing to fit.
 */
export interface Fitter {
  name: string;
  fit(change: FileChange): { after: string; note: string } | null;
}
