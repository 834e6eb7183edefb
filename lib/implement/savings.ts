/**
 * What delegating one passed task saved its caller (docs/EVAL.md, "What delegating saves"). With
 * localexec the caller spends the tokens of its implement_task call (the arguments it writes) and
 * of the verdict it reads; doing the step itself it would read the files to edit and the context
 * files, and write the change (the lines the task's patch adds). Both sides are estimated the same
 * way, with the estimate that sizes prompts ({@linkcode estimateTokens}), so their ratio holds
 * whatever that estimate's bias.
 */
import { estimateTokens } from "./context_size.ts";

/** A passed task's two figures, as the task record keeps them. */
export interface Savings {
  /** The caller's tokens for the call (its arguments) and the verdict. */
  call_tokens: number;
  /** The tokens of reading the files and writing the change itself. */
  self_tokens: number;
}

/** The lines a unified diff adds, without their `+` (the file headers left out). */
export function addedLines(patch: string): string {
  return patch.split("\n")
    .filter((l) => l.startsWith("+") && !/^\+\+\+ (b\/|\/dev\/null)/.test(l))
    .map((l) => l.slice(1))
    .join("\n");
}

/**
 * The two figures of a passed task: `call` is the call's arguments, `verdict` its answer, `read`
 * the text of every file the caller would have read, `patch` the task's unified diff.
 */
export function savings(o: {
  call: Record<string, unknown>;
  verdict: Record<string, unknown>;
  read: Iterable<string>;
  patch: string;
}): Savings {
  let self = estimateTokens(addedLines(o.patch));
  for (const text of o.read) self += estimateTokens(text);
  return {
    call_tokens: estimateTokens(JSON.stringify(o.call)) + estimateTokens(JSON.stringify(o.verdict)),
    self_tokens: self,
  };
}
