/** Test helpers for reply parsing: the edits of a parse, or its problem, asserting which it was. */
import assert from "node:assert/strict";
import type { Edit, ParseResult } from "../../lib/edit/mod.ts";

/** The edits of `result`; fails the test when the reply did not parse into edits. */
export function edits(result: ParseResult): Edit[] {
  assert.equal(result.kind, "edits", JSON.stringify(result));
  return result.kind === "edits" ? result.edits : [];
}

/** The problem of `result`; fails the test when the reply was not refused. */
export function problem(result: ParseResult): string {
  assert.equal(result.kind, "invalid", JSON.stringify(result));
  return result.kind === "invalid" ? result.problem : "";
}
