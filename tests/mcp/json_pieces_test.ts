/**
 * A result's JSON in pieces (`lib/mcp/json_pieces.ts`) is `JSON.stringify` of it, exactly, for
 * every kind of value JSON.stringify meets.
 */
import assert from "node:assert/strict";
import { jsonPieces, PIECE_CHARS } from "../../lib/mcp/json_pieces.ts";

class Point {
  constructor(readonly x: number, readonly y: number) {}
}

/** A value of every kind JSON.stringify treats apart, nested `depth` deep, from seed `n`. */
function _value(n: number, depth: number): unknown {
  const leaves: unknown[] = [
    "plain",
    'q"uote\\ \n\t\u0001 \u2028 é 🙂 \ud800 lone',
    0,
    -0,
    1.5e300,
    NaN,
    -Infinity,
    true,
    null,
    undefined,
    () => 1,
    Symbol("s"),
    new Date(0),
    new Point(1, 2),
    { toJSON: () => ({ made: "by toJSON" }) },
    Object.assign(Object.create(null), { bare: 1 }),
    [undefined, , () => 2], // a hole too
    "x".repeat(40_000),
  ];
  if (depth === 0) return leaves[n % leaves.length];
  const kids = Array.from({ length: 2 + (n % 4) }, (_, i) => _value(n * 7 + i, depth - 1));
  if (n % 2) return kids;
  const out: Record<string, unknown> = { "2": "numeric keys first", z: kids[0] };
  for (const [i, kid] of kids.entries()) out[`k${i}é"`] = kid;
  return out;
}

Deno.test("a value's JSON in pieces is JSON.stringify of it, joined", () => {
  for (let n = 0; n < 300; n++) {
    const value = { status: "ok", v: _value(n, n % 5) };
    assert.equal(jsonPieces(value).join(""), JSON.stringify(value), `seed ${n}`);
  }
  // Deeper than the walk goes, and a cycle, which JSON.stringify refuses too.
  let deep: unknown = ["bottom"];
  for (let i = 0; i < 200; i++) deep = { d: deep };
  assert.equal(jsonPieces(deep).join(""), JSON.stringify(deep));
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.throws(() => jsonPieces(cycle), TypeError);
  assert.throws(() => jsonPieces({ n: 1n }), TypeError);
});

Deno.test("the pieces stay small when no one value is large", () => {
  const items = Array.from(
    { length: 5000 },
    (_, i) => `${i}-${i + 9}|function|name${i}|def f${i}()`,
  );
  const pieces = jsonPieces({ status: "ok", items });
  assert.ok(pieces.length > 5);
  assert.ok(Math.max(...pieces.map((p) => p.length)) < PIECE_CHARS + 100);
  assert.equal(pieces.join(""), JSON.stringify({ status: "ok", items }));
});
