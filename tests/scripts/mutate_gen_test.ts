/**
 * The machine-made mutants of `deno task mutate --changed` (scripts/mutate_gen.ts,
 * mutate_graph.ts): a small TypeScript source gives exactly the expected mutants, each as unique
 * text and its replacement; the changed lines are read off `git diff -U0`; the sample is
 * stratified by file and the same for a seed; a test reaches a module through its imports.
 */
import assert from "node:assert/strict";
import {
  changedLines,
  generate,
  type Generated,
  sample,
  uniqueContext,
} from "../../scripts/mutate_gen.ts";
import { importsOf, testsReaching } from "../../scripts/mutate_graph.ts";
import { equivalent } from "../../scripts/mutate_changed.ts";

const SOURCE = `import { log } from "./log.ts";
// a < b in a comment
export function f(a: number, b: number, xs: string[]): boolean {
  if (a < 3 && xs.length > 0) {
    save(a, b);
    log(\`a < b \${a}\`);
  }
  const s: Array<string> = ["x === y"];
  return a + 1 === b;
}
export function g(a: number, b: number): boolean {
  save(a, b);
  await store.flush();
  return !a;
}
export function h(p: string, q: string): boolean {
  if (p) console.error(p < q);
  return Math.max(p.length, q.length) >= 2 || p.startsWith(q);
}
`;

const short = (m: Generated) => `${m.line} ${m.kind}: ${m.from} → ${m.to || "(removed)"}`;

Deno.test("mutate --changed makes the expected mutants of a small source", async () => {
  const got = await generate("lib/x.ts", SOURCE);
  assert.deepEqual(got.map(short), [
    "4 cond: a < 3 && xs.length > 0 → true",
    "4 cond: a < 3 && xs.length > 0 → false",
    "4 cond: a < 3 && xs.length > 0 → a < 3",
    "4 cond: a < 3 && xs.length > 0 → xs.length > 0",
    "4 flip: < → <=",
    "4 boundary: 3 → 2", // not 4: `a < 4` is the flip's `a <= 3`
    "4 flip: > → >=",
    "4 boundary: 0 → 1",
    "5 call: save(a, b); → (removed)",
    "5 swap: a, b → b, a",
    // line 6: a log call (its template's `<` too); line 8: a type and a string
    "9 offbyone: a + 1 → a",
    "9 flip: === → !==", // no `!(a + 1 === b)`: the flip is the same bug
    "12 call: save(a, b); → (removed)",
    "12 swap: a, b → b, a",
    "13 call: await store.flush(); → (removed)",
    "14 return: !a → a",
    "17 cond: p → true",
    "17 cond: p → false",
    // console.error: neither removed nor its `<` flipped; Math.max's arguments commute
    "18 return: Math.max(p.length, q.length) >= 2 || p.startsWith(q) → " +
    "!(Math.max(p.length, q.length) >= 2 || p.startsWith(q))",
    "18 cond: Math.max(p.length, q.length) >= 2 || p.startsWith(q) → " +
    "Math.max(p.length, q.length) >= 2",
    "18 cond: Math.max(p.length, q.length) >= 2 || p.startsWith(q) → p.startsWith(q)",
    "18 flip: >= → >",
    "18 boundary: 2 → 1",
  ]);
  for (const m of got) {
    // each original occurs once, and planting it gives the mutated token in place
    assert.equal(SOURCE.split(m.original).length, 2, short(m));
    assert.ok(m.original.includes(m.from) && m.replacement.includes(m.to), short(m));
  }
  // `save(a, b);` is on two lines: its context grows (a line up) until it is unique
  const second = got.find((m) => m.line === 12 && m.kind === "swap")!;
  assert.equal(
    second.original,
    "export function g(a: number, b: number): boolean {\n  save(a, b);",
  );
  assert.equal(
    second.replacement,
    "export function g(a: number, b: number): boolean {\n  save(b, a);",
  );
});

Deno.test("mutate --changed mutates only the changed lines; a removed unbraced body is {}", async () => {
  const only = await generate("lib/x.ts", SOURCE, new Set([13, 14]));
  assert.deepEqual(only.map(short), [
    "13 call: await store.flush(); → (removed)",
    "14 return: !a → a",
  ]);
  // the removed statement of an unbraced `if` becomes `{}`, not a dangling `if (x)`
  const body = await generate("lib/y.ts", "if (x) go();\n");
  assert.deepEqual(body.map((m) => m.replacement), [
    "if (true) go();",
    "if (false) go();",
    "if (x) {}",
  ]);
});

Deno.test("mutate --changed widens a repeated text to unique context", () => {
  const text = "a\nx < 1\nb\nx < 1\nc";
  const at = text.lastIndexOf("x < 1");
  const [start, end] = uniqueContext(text, { start: at, end: at + 5 });
  assert.equal(text.slice(start, end), "b\nx < 1");
});

Deno.test("mutate --changed reads the new side's lines off git diff -U0", () => {
  const diff = [
    "diff --git a/lib/a.ts b/lib/a.ts",
    "--- a/lib/a.ts",
    "+++ b/lib/a.ts",
    "@@ -3 +3 @@ x",
    "@@ -10,0 +11,2 @@",
    "@@ -20,2 +22,0 @@",
    "diff --git a/lib/gone.ts b/lib/gone.ts",
    "--- a/lib/gone.ts",
    "+++ /dev/null",
    "@@ -1,4 +0,0 @@",
  ].join("\n");
  const lines = changedLines(diff);
  assert.deepEqual([...lines.keys()], ["lib/a.ts"]);
  assert.deepEqual([...lines.get("lib/a.ts")!], [3, 11, 12]);
});

Deno.test("mutate --changed samples by file, the same for one seed", () => {
  const m = (file: string, line: number): Generated => ({
    file,
    line,
    kind: "flip",
    original: `${line}`,
    replacement: "",
    from: "",
    to: "",
  });
  const all = [
    ...Array.from({ length: 20 }, (_, i) => m("lib/big.ts", i)),
    m("lib/a.ts", 1),
    m("lib/b.ts", 1),
  ];
  const picked = sample(all, 4, 7);
  // every file before a second from the big one
  assert.deepEqual(new Set(picked.slice(0, 3).map((p) => p.file)).size, 3);
  assert.deepEqual(sample(all, 4, 7), picked);
  assert.equal(sample(all, 100, 7).length, 22);
});

Deno.test("mutate --changed picks the tests that reach a module, nearest first", () => {
  assert.deepEqual(
    importsOf(
      [
        'import { a } from "./a.ts";',
        'import type { T } from "./types.ts";',
        'export { b } from "../b.ts";',
        'const w = new Worker(new URL("./worker.ts", import.meta.url));',
        'const c = await import("./c.ts");',
        'const s = "import x from \\"./no.ts\\"";',
      ].join("\n"),
    ),
    ["./a.ts", "../b.ts", "./c.ts", "./worker.ts"],
  );
  const graph = new Map([
    ["tests/near_test.ts", ["lib/m.ts"]],
    ["tests/far_test.ts", ["tests/helpers/h.ts"]],
    ["tests/helpers/h.ts", ["lib/n.ts"]],
    ["tests/none_test.ts", []],
    ["lib/n.ts", ["lib/m.ts"]],
    ["lib/m.ts", []],
  ]);
  const reach = testsReaching(graph);
  assert.deepEqual(reach.get("lib/m.ts"), ["tests/near_test.ts", "tests/far_test.ts"]);
  assert.deepEqual(reach.get("lib/n.ts"), ["tests/far_test.ts"]);
  // A module's namesake test comes first, however far.
  graph.set("tests/n_test.ts", ["tests/helpers/h.ts"]);
  graph.set("tests/x/m_test.ts", ["tests/helpers/h.ts"]);
  const named = testsReaching(graph);
  assert.deepEqual(named.get("lib/m.ts"), [
    "tests/x/m_test.ts",
    "tests/near_test.ts",
    "tests/far_test.ts",
    "tests/n_test.ts",
  ]);
  assert.deepEqual(named.get("lib/n.ts"), [
    "tests/n_test.ts",
    "tests/far_test.ts",
    "tests/x/m_test.ts",
  ]);
});

Deno.test("mutate --changed marks the code only another OS runs, and leaves it out", async () => {
  const other = Deno.build.os === "linux" ? "darwin" : "linux";
  const source = [
    `function f(a: number) {`,
    `  if (Deno.build.os === "${Deno.build.os}") {`,
    `    return a < 1;`,
    `  }`,
    `  return a > 2;`,
    `}`,
    `if (Deno.build.os === "${other}") go(1 < 2);`,
    `if (Deno.build.os !== "${Deno.build.os}") go(3 < 4);`,
    `go(5 < 6);`,
  ].join("\n");
  const got = (await generate("lib/x.ts", source)).filter((m) =>
    m.kind === "flip" && m.from !== "===" && m.from !== "!=="
  );
  assert.deepEqual(
    got.map((m) => [m.line, m.from, !!m.otherOs, equivalent(m) !== undefined]),
    [
      [3, "<", false, false],
      [5, ">", true, true],
      [7, "<", true, true],
      [8, "<", true, true],
      [9, "<", false, false],
    ],
  );
});

Deno.test("mutate --changed leaves out no mutant it has no rule for", () => {
  const m: Generated = {
    file: "lib/x.ts",
    line: 1,
    kind: "flip",
    original: "a < b",
    replacement: "a <= b",
    from: "<",
    to: "<=",
  };
  assert.equal(equivalent(m), undefined);
});
