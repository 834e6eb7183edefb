import * as mathx from "./mathx.ts";

// deno-lint-ignore no-explicit-any
const clamp = (mathx as any).clamp as (v: number, lo: number, hi: number) => number;

function equal(actual: unknown, expected: unknown, what: string) {
  if (!Object.is(actual, expected)) throw new Error(`${what}: expected ${expected}, got ${actual}`);
}

Deno.test("clamps into the range", () => {
  equal(clamp(5, 0, 10), 5, "clamp(5, 0, 10)");
  equal(clamp(-3, 0, 10), 0, "clamp(-3, 0, 10)");
  equal(clamp(12, 0, 10), 10, "clamp(12, 0, 10)");
  equal(clamp(7, 7, 7), 7, "clamp(7, 7, 7)");
  equal(clamp(-Infinity, -1, 1), -1, "clamp(-Infinity, -1, 1)");
});

Deno.test("NaN stays NaN; min above max throws", () => {
  equal(clamp(NaN, 0, 1), NaN, "clamp(NaN, 0, 1)");
  let threw = false;
  try {
    clamp(1, 2, 0);
  } catch (err) {
    threw = err instanceof RangeError;
  }
  equal(threw, true, "clamp(1, 2, 0) throws RangeError");
});

Deno.test("lerp unchanged", () => {
  equal(mathx.lerp(0, 10, 0.5), 5, "lerp(0, 10, 0.5)");
});
