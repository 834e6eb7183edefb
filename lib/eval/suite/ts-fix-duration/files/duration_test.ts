import { formatDuration, parseDuration } from "./duration.ts";

function equal(actual: unknown, expected: unknown, what: string) {
  if (actual !== expected) throw new Error(`${what}: expected ${expected}, got ${actual}`);
}

Deno.test("minutes count sixty seconds", () => {
  equal(parseDuration("15m"), 900, 'parseDuration("15m")');
  equal(parseDuration("1h30m"), 5400, 'parseDuration("1h30m")');
  equal(parseDuration("2m5s"), 125, 'parseDuration("2m5s")');
});

Deno.test("hours and seconds", () => {
  equal(parseDuration("90s"), 90, 'parseDuration("90s")');
  equal(parseDuration(" 2h "), 7200, 'parseDuration(" 2h ")');
});

Deno.test("round trip", () => {
  for (const n of [1, 59, 60, 61, 3599, 3600, 3661]) {
    equal(parseDuration(formatDuration(n)), n, `round trip of ${n}`);
  }
});

Deno.test("rejects junk", () => {
  for (const bad of ["", "5", "1x", "m"]) {
    let threw = false;
    try {
      parseDuration(bad);
    } catch (err) {
      threw = err instanceof SyntaxError;
    }
    equal(threw, true, `parseDuration(${JSON.stringify(bad)}) throws SyntaxError`);
  }
});
