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
    // (Enough others for those texts to be rare: see SKETCH_COMMON.)
    ...Array.from({ length: 60 }, (_, i) => `other ${i}\n`),
  ];
  const sketches = _sketches(texts);
  const order = Int32Array.from([0]);
  const holding = (text: string) =>
    sketchHolding(sketches, texts.length, text, order, texts.length, 10);
  assert.deepEqual(holding("eslint-disable"), [0, 3]);
  assert.deepEqual(holding("crème brûlée"), [5]);
  assert.deepEqual(holding("to see"), [1]);
  assert.equal(holding("x".repeat(SKETCH_MIN_TEXT - 1)), undefined, "too short to tell");
  // At most `max`, chunk by chunk in the order given (chunks of 2 files here), out of 100 files
  // where it is rare enough to tell them apart.
  const some = Array.from({ length: 100 }, (_, i) => i % 25 === 3 ? "kiwi-banana\n" : `x${i}\n`);
  const rare = _sketches(some);
  const order2 = Int32Array.from({ length: 50 }, (_, k) => 49 - k);
  assert.deepEqual(sketchHolding(rare, 100, "kiwi-banana", order2, 2, 3), [78, 53, 28]);
  // A common text (held by more than SKETCH_COMMON of the sketches): none.
  const same = _sketches(Array(8).fill("the same text in every file\n"));
  assert.deepEqual(sketchHolding(same, 8, "same text", Int32Array.from([3, 0, 1, 2]), 2, 3), []);
});

Deno.test("a full sketch counts for nothing: a large file holds any text by chance", () => {
  let s = 11;
  const rand = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const big = Array.from({ length: 20_000 }, () => String.fromCharCode(32 + rand() * 95)).join("");
  const others = Array.from({ length: 60 }, (_, i) => `other ${i}\n`);
  const sketches = _sketches([big, "kiwi-banana\n", ...others]);
  // Nearly every bit of the large file's sketch is set…
  const bits = sketches.subarray(62, 62 + SKETCH_BYTES - 1);
  const set = bits.reduce((n, b) => n + [...b.toString(2)].filter((c) => c === "1").length, 0);
  assert.ok(set > 0.9 * 8 * (SKETCH_BYTES - 1), `${set} bits set`);
  // …so only the small file counts.
  assert.deepEqual(sketchHolding(sketches, 62, "kiwi-banana", Int32Array.from([0]), 62, 10), [1]);
});
