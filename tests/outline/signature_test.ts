import assert from "node:assert/strict";
import { tidySignature } from "../../lib/outline/signature.ts";

/** The rewrite as it was before its scans were added: every expression, every time. */
function reference(text: string, fromBody: boolean): string {
  let s = text.replace(/\s+/g, " ").replace(/([([{]|(?<=\S)<) /g, "$1")
    .replace(/ ([)\]}]|>(?![ =]))/g, "$1").replace(/,([)\]}>])/g, "$1").trim();
  if (fromBody) s = s.replace(/\s*(\{|:|=>|=)$/, "");
  return s.length > 100 ? `${s.slice(0, 99)}…` : s;
}

/** A small deterministic generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

Deno.test("tidySignature gives what the plain expressions give, on signatures and on noise", () => {
  const cases = [
    "def f(\n    a,\n    b,\n):",
    "function f( a , b ) {",
    "class C < Base",
    "Map<\n  K,\n  V\n> =",
    "x = y =>",
    "a:=>",
    "a ==",
    "  \u00a0 f(\u2028x\u3000)\ufeff {",
    "interface Foo<T extends Bar< U >> {",
    "a >= b",
    "f(a,)",
    ",,)",
    "( < x",
    "a< )",
    "( >",
    "",
    " ",
    "{",
    "x".repeat(120),
  ];
  const alphabet = [
    " ",
    "  ",
    "\n",
    "\t",
    "\u00a0",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    ",",
    ":",
    "=",
    "=>",
    ";",
    "a",
    "b",
    "…",
  ];
  const next = random(21);
  for (let i = 0; i < 20_000; i++) {
    let s = "";
    const length = Math.floor(next() * 24);
    for (let j = 0; j < length; j++) s += alphabet[Math.floor(next() * alphabet.length)];
    cases.push(s);
  }
  for (const text of cases) {
    for (const fromBody of [false, true]) {
      assert.equal(tidySignature(text, fromBody), reference(text, fromBody), JSON.stringify(text));
    }
  }
});
