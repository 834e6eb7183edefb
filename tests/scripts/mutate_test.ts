/**
 * The mutation runner's parts (scripts/mutate.ts): planting needs the text exactly once, the
 * failing tests are read off `deno test`'s output, and the list is well formed and wide enough.
 */
import assert from "node:assert/strict";
import { failedTests, type Mutant, occurrences, plant, readMutants } from "../../scripts/mutate.ts";

const LIST = new URL("../../scripts/mutants.json", import.meta.url);

const BASE: Mutant = {
  id: "m",
  area: "paths",
  file: "lib/x.ts",
  original: "a < b",
  replacement: "a <= b",
  tests: ["tests/x_test.ts"],
  note: "boundary",
};

Deno.test("mutate plants a mutant only where its text occurs exactly once", () => {
  assert.equal(plant("if (a < b) x();\n", BASE), "if (a <= b) x();\n");
  assert.equal(occurrences("a < b; a < b", "a < b"), 2);
  assert.match(JSON.stringify(plant("nothing here", BASE)), /found 0 times/);
  assert.match(JSON.stringify(plant("a < b || a < b", BASE)), /found 2 times/);
  // `$&` and the like in a replacement are taken literally
  assert.equal(plant("a < b", { ...BASE, replacement: "$&$&" }), "$&$&");
});

Deno.test("mutate reads the failing tests off deno test's output", () => {
  const output = [
    "ok | 3 passed",
    " ERRORS ",
    "a test => ./tests/x_test.ts:12:6",
    "steps ... a step => ./tests/y_test.ts:3:1",
    "error: AssertionError: x => y",
  ].join("\n");
  assert.deepEqual(failedTests(output), [
    "tests/x_test.ts: a test",
    "tests/y_test.ts: steps ... a step",
  ]);
});

Deno.test("mutate refuses a list with a duplicate, an empty test list or a no-op mutant", () => {
  const list = (mutants: unknown[]) => JSON.stringify({ mutants });
  assert.throws(() => readMutants(list([BASE, BASE])), /listed twice/);
  assert.throws(() => readMutants(list([{ ...BASE, tests: [] }])), /no tests/);
  assert.throws(() => readMutants(list([{ ...BASE, replacement: BASE.original }])), /changes/);
  assert.throws(() => readMutants(list([{ ...BASE, note: 3 }])), /note must be a string/);
});

Deno.test("the mutants list covers the seven areas with 40 or more mutants and real test files", async () => {
  const mutants = readMutants(await Deno.readTextFile(LIST));
  assert.ok(mutants.length >= 40, `${mutants.length} mutants`);
  const areas = new Set(mutants.map((m) => m.area));
  for (const area of ["paths", "tasks", "applier", "checks", "find", "boundary", "implement"]) {
    assert.ok(areas.has(area), area);
  }
  for (const m of mutants) {
    for (const path of [m.file, ...m.tests]) {
      assert.ok(
        Deno.statSync(new URL(`../../${path}`, import.meta.url)).isFile,
        `${m.id}: ${path}`,
      );
    }
  }
});
