/**
 * A large listing's file sketches (`lib/find/sketch.ts`): a sketch holds the text of its file
 * (ASCII letters made small), counts only when empty enough to mean something, and is read in
 * the order given; a sketch not made holds nothing.
 */
import assert from "node:assert/strict";
import { SKETCH_BYTES } from "../../lib/find/protocol.ts";
import { SKETCH_MIN_TEXT, sketchBits, sketchHolding } from "../../lib/find/sketch.ts";

/** The sketches of `texts` (undefined: not made), laid out as the worker lays them out. */
function _sketches(texts: (string | undefined)[]): Uint8Array {
  const count = texts.length;
  const all = new Uint8Array(count * SKETCH_BYTES);
  const own = new Uint8Array(SKETCH_BYTES);
  texts.forEach((text, i) => {
    if (text === undefined) return;
    const bytes = new TextEncoder().encode(text);
    sketchBits(bytes, bytes.length, own);
    all.set(own.subarray(1), count + i * (SKETCH_BYTES - 1));
    all[i] = own[0];
  });
  return all;
}

Deno.test("a sketch holds its file's text, ASCII case folded; one not made holds nothing", () => {
  const texts = [
    "// eslint-disable-next-line\nfoo();\n",
    "nothing to see here\n",
    undefined, // not sketched yet
    "/* ESLint-Disable */\n",
    "eslint and disable, apart\n",
    "café crème brûlée\n",
  ];
  const sketches = _sketches(texts);
  const order = Int32Array.from([0]);
  const holding = (text: string) => sketchHolding(sketches, texts.length, text, order, 6, 10);
  assert.deepEqual(holding("eslint-disable"), [0, 3]);
  assert.deepEqual(holding("crème brûlée"), [5]);
  assert.deepEqual(holding("to see"), [1]);
  assert.equal(holding("x".repeat(SKETCH_MIN_TEXT - 1)), undefined, "too short to tell");
  // At most `max`, chunk by chunk in the order given (chunks of 2 files here).
  const all = "the same text in every file\n";
  const same = _sketches(Array(8).fill(all));
  assert.deepEqual(sketchHolding(same, 8, "same text", Int32Array.from([3, 0, 1, 2]), 2, 3), [
    6,
    7,
    0,
  ]);
});

Deno.test("a full sketch counts for nothing: a large file holds any text by chance", () => {
  let s = 11;
  const rand = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const big = Array.from({ length: 20_000 }, () => String.fromCharCode(32 + rand() * 95)).join("");
  const sketches = _sketches([big, "kiwi-banana\n"]);
  // Nearly every bit of the large file's sketch is set…
  const bits = sketches.subarray(2, 2 + SKETCH_BYTES - 1);
  const set = bits.reduce((n, b) => n + [...b.toString(2)].filter((c) => c === "1").length, 0);
  assert.ok(set > 0.9 * 8 * (SKETCH_BYTES - 1), `${set} bits set`);
  // …so only the small file counts.
  assert.deepEqual(sketchHolding(sketches, 2, "kiwi-banana", Int32Array.from([0]), 2, 10), [1]);
});
