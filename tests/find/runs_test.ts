/**
 * The guard before a pattern's leading run (`lib/find/runs.ts`): which patterns get it, that it
 * keeps every first match, and that it takes the quadratic retries out of a long run.
 */
import assert from "node:assert/strict";
import { guardLeadingRun } from "../../lib/find/runs.ts";
import { compileMatcher, makeScanner } from "../../lib/find/scan.ts";

Deno.test("guardLeadingRun guards a leading run of one character and nothing else", () => {
  assert.equal(guardLeadingRun("\\w+Error\\(", "gm"), "(?<!(?!\\n)\\w)\\w+Error\\(");
  assert.equal(guardLeadingRun("[a-z]*x", "gmi"), "(?<!(?!\\n)[a-z])[a-z]*x");
  assert.equal(guardLeadingRun("[^\\]]+?y", "gm"), "(?<!(?!\\n)[^\\]])[^\\]]+?y");
  assert.equal(guardLeadingRun("\\p{L}+z", "gmu"), "(?<!(?!\\n)\\p{L})\\p{L}+z");
  assert.equal(guardLeadingRun("a+(b|c)", "gm"), "(?<!(?!\\n)a)a+(b|c)");
  for (
    const pattern of [
      "\\w+a|b", // top-level alternation: the other branch has no run
      "(\\w+)x", // a group, not one character
      "\\w{2,}x", // not + or *
      "\\1+", // a backreference
      "\\bx+", // an assertion
      "^a+",
      "ab+",
      "😀+",
      "",
    ]
  ) assert.equal(guardLeadingRun(pattern, "gm"), undefined, pattern);
});

/** A small random generator, seeded, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PATTERNS = [
  "\\w+b",
  "a+b",
  "a*b",
  "a+?b",
  "a*?",
  "[ab]+c\\b",
  "[^c]+c",
  "\\s*b",
  "\\W+a",
  ".+a$",
  "a+(b|ab)a",
  "b*(?=a)",
  "a+\\b",
  "\\w+(?<=ab)c",
  "a*(a)\\1b",
  "[a-b]+[^a]",
];

Deno.test("a guarded pattern finds the same first match as the pattern on random lines", () => {
  const next = random(21);
  const alphabet = "aabbc _\n";
  for (const pattern of PATTERNS) {
    for (const flags of ["", "i"]) {
      const guarded = guardLeadingRun(pattern, `gm${flags}`);
      assert.ok(guarded, pattern);
      const plain = new RegExp(pattern, flags);
      const guard = new RegExp(guarded, flags);
      for (let n = 0; n < 400; n++) {
        let line = "";
        const length = Math.floor(next() * 9);
        for (let k = 0; k < length; k++) line += alphabet[Math.floor(next() * 7)]; // no \n
        const want = plain.exec(line);
        const got = guard.exec(line);
        assert.deepEqual(
          got && [got.index, ...got],
          want && [want.index, ...want],
          `${pattern} on ${JSON.stringify(line)}`,
        );
      }
    }
  }
});

Deno.test("a guarded pattern's scanner reports the same lines of random texts", () => {
  const next = random(7);
  const alphabet = "aabbc _\n";
  for (const pattern of PATTERNS) {
    const spec = compileMatcher(pattern, false);
    assert.ok(spec.run, pattern);
    const guarded = makeScanner(spec);
    const plain = makeScanner({ ...spec, run: undefined });
    for (let n = 0; n < 300; n++) {
      let text = "";
      const length = Math.floor(next() * 24);
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(next() * alphabet.length)];
      assert.deepEqual(
        guarded.scan(text, 100),
        plain.scan(text, 100),
        `${pattern} on ${JSON.stringify(text)}`,
      );
    }
  }
});

Deno.test("a guarded pattern crosses a long run of its characters in linear time", () => {
  // Unguarded, this line takes over a second (V8 retries `\w+` at each of its 30,000 starts);
  // guarded, well under one. Not timed: a count of lines would hang, not fail, without the guard.
  const spec = compileMatcher("\\w+Error\\(", false);
  assert.ok(spec.run);
  const text = `${"x".repeat(30_000)} Error(\nnew TypeError(1)\n`;
  assert.deepEqual(makeScanner(spec).scan(text, 10), [{ line: 2, text: "new TypeError(1)" }]);
});
