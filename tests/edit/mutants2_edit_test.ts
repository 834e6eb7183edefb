/**
 * Tests written for the survivors of the second `deno task mutate --changed d9b33cd` run (merged
 * main; docs/MUTATION.md) in lib/edit: each fails with its mutant planted and passes on the code.
 */
import assert from "node:assert/strict";
import { removedLines } from "../../lib/edit/guard.ts";

// guard.ts:92: `if (k < 0) return true;` → `if (false) return true;`
Deno.test("removedLines with edits: a line edited is kept, a line with no edited version is gone", () => {
  const before = [
    "const alpha = computeSomething(1, 2);",
    "const beta = somethingElseEntirely(3);",
  ];
  const after = ["const alpha = computeSomething(1, 2, 3);", "x"];
  assert.deepEqual(removedLines(before, after, true), ["const beta = somethingElseEntirely(3);"]);
  assert.deepEqual(removedLines(before, after), before);
});
