/**
 * A result's JSON in pieces (`lib/mcp/json_pieces.ts`) is `JSON.stringify` of it, exactly, for
 * every kind of value JSON.stringify meets.
 */
import assert from "node:assert/strict";
import { jsonPieces, PIECE_CHARS } from "../../lib/mcp/json_pieces.ts";

class Point {
  constructor(readonly x: number, readonly y: number) {}
}

/** JSON text made by `JSON.rawJSON`, where the runtime has it. */
function _raw(): unknown[] {
  const json = JSON as unknown as { rawJSON?: (text: string) => unknown };
  return json.rawJSON ? [json.rawJSON("12345678901234567890")] : [];
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
    // What toJSON gives is what is written: nothing, the property's own key, a function, an
    // object whose own toJSON is not called again.
    { toJSON: () => undefined },
    { toJSON: (key: string) => `key ${key}` },
    { toJSON: () => () => 3 },
    { toJSON: () => ({ toJSON: () => "not called", kept: 1 }) },
    new Number(3),
    new String("boxed"),
    Object(false),
    new Map([[1, 2]]),
    new Uint8Array([1, 2]),
    ..._raw(),
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
  let deep: unknown = ["bottom", { toJSON: () => ({ toJSON: () => "not called", a: 1 }) }];
  for (let i = 0; i < 200; i++) deep = { [i % 2 ? 'k"ey' : "d"]: deep };
  assert.equal(jsonPieces(deep).join(""), JSON.stringify(deep));
  for (let i = 0; i < 70; i++) deep = { d: deep, made: { toJSON: (key: string) => key } };
  assert.equal(jsonPieces(deep).join(""), JSON.stringify(deep));
  // Every level a toJSON's object with a toJSON of its own, which JSON never calls: at the depth
  // where the walk hands the rest to JSON.stringify too.
  let made: unknown = "end";
  for (let i = 0; i < 150; i++) {
    const inner = made;
    made = { toJSON: () => ({ toJSON: () => "called twice", d: inner }) };
  }
  assert.equal(jsonPieces(made).join(""), JSON.stringify(made));
  // What JSON.stringify gives no text for, at the top.
  for (const none of [undefined, () => 1, { toJSON: () => undefined }]) {
    assert.equal(JSON.stringify(none), undefined);
    assert.throws(() => jsonPieces(none), TypeError);
  }
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
