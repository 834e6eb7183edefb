/**
 * Tests written for the survivors of `deno task mutate --changed d9b33cd` in lib/process (the
 * machine-made mutants; docs/MUTATION.md, "Mutants made by machine"): each fails with its mutant
 * planted and passes on the code.
 */
import assert from "node:assert/strict";
import { programsOf } from "../lib/process/probe.ts";

// probe.ts: `cut >= 0 && i === segments.length - 1` → `cut >= 0`
Deno.test("checks pre-flight cuts a half word only off the last command of a cut prefix", () => {
  const names = (c: string) => programsOf(c).map((s) => s.program);
  // `ruff` ends its segment with no space before `&&`: a whole word all the same
  assert.deepEqual(names('ruff&&mypy "src"'), ["ruff", "mypy"]);
  assert.deepEqual(names('ruff;mypy"src"'), ["ruff"]);
});
