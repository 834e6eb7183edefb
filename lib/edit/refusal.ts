/** The refusal the applier throws internally and turns into `{ok: false}`. */
import type { ApplyFailure } from "./types.ts";

/** One edit that cannot be applied: a message for the model, why, and for which file. */
export class EditRefusal extends Error {
  constructor(message: string, readonly reason: ApplyFailure, readonly path: string) {
    super(message);
    this.name = "EditRefusal";
  }
}

/** Shows a path or a line of code in a message, JSON-quoted and cut at 80 characters. */
export function quoteValue(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
