/**
 * Tests written for the survivors of the second `deno task mutate --changed d9b33cd` run (merged
 * main; docs/MUTATION.md) in lib/edit: each fails with its mutant planted and passes on the code.
 */
import assert from "node:assert/strict";
import { applyEdits } from "../../lib/edit/apply.ts";
import { deletionAllowance, removedLines } from "../../lib/edit/guard.ts";

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

// whole.ts:122: `!deletion.most && dropped.length >= 2 && …` → `dropped.length >= 2 && …`
Deno.test("a whole file dropping most definitions is an excerpt, unless the task asks to remove them", () => {
  const file = ["a", "b", "c", "d"].map((f) => `def ${f}():\n    return "${f}"\n`).join("\n");
  const files = new Map([["f.py", file]]);
  const keepA = [{ type: "whole" as const, path: "f.py", content: 'def a():\n    return "a"\n' }];
  const refused = applyEdits(files, keepA, { allowed: ["f.py"] });
  assert.ok(!refused.ok);
  const asked = { allowed: ["f.py"], deletion: deletionAllowance("Remove b, c and d") };
  const done = applyEdits(files, keepA, asked);
  assert.ok(done.ok, done.ok ? "" : done.error);
});
