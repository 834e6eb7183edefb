/**
 * A large listing's file sketches (`lib/find/sketch.ts`): a sketch holds the text of its file
 * (ASCII letters made small), sized for the file's runs; it counts only when empty enough to mean
 * something; small files are asked first, larger ones only where few small ones hold the text;
 * the order given is kept; a sketch not made holds nothing.
 */
import assert from "node:assert/strict";
import {
  SKETCH_ENOUGH,
  SKETCH_MIN_TEXT,
  sketchBase,
  sketchFile,
  sketchHolding,
  sketchScratch,
} from "../../lib/find/sketch.ts";

/** The sketches of `texts` (undefined: not made), laid out as the worker lays them out. */
function _sketches(texts: (string | undefined)[]): { sketch: Uint8Array; ends: Uint32Array } {
  const count = texts.length;
  const base = sketchBase(count);
  const parts: Uint8Array[] = [];
  const heads = new Uint8Array(count);
  const ends = new Uint32Array(count + 1);
  const scratch = sketchScratch();
  let end = 0;
  texts.forEach((text, i) => {
    if (text !== undefined) {
      const bytes = new TextEncoder().encode(text);
      const length = sketchFile(bytes, bytes.length, scratch);
      parts.push(scratch.out.slice(0, length));
      heads[i] = scratch.head;
      end += length;
    }
    ends[i] = end;
  });
  ends[count] = count;
  const sketch = new Uint8Array(base + end);
  sketch.set(heads);
  let at = base;
  for (const part of parts) {
    sketch.set(part, at);
    at += part.length;
  }
  return { sketch, ends };
}

/** Random printable text of `n` characters (seeded). */
function _random(n: number, seed: number): string {
  let s = seed;
  const rand = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: n }, () => String.fromCharCode(32 + rand() * 95)).join("");
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
  const { sketch, ends } = _sketches(texts);
  const order = Int32Array.from([0]);
  const holding = (text: string) =>
    sketchHolding({ sketch, ends, count: texts.length }, text, order, {
      chunkFiles: texts.length,
      max: 10,
    });
  assert.deepEqual(holding("eslint-disable"), [0, 3]);
  assert.deepEqual(holding("crème brûlée"), [5]);
  assert.deepEqual(holding("to see"), [1]);
  assert.equal(holding("x".repeat(SKETCH_MIN_TEXT - 1)), undefined, "too short to tell");
  // At most `max`, chunk by chunk in the order given (chunks of 2 files here), out of 100 files
  // where it is rare enough to tell them apart.
  const some = Array.from({ length: 100 }, (_, i) => i % 25 === 3 ? "kiwi-banana\n" : `x${i}\n`);
  const rare = _sketches(some);
  const order2 = Int32Array.from({ length: 50 }, (_, k) => 49 - k);
  assert.deepEqual(
    sketchHolding({ sketch: rare.sketch, ends: rare.ends, count: 100 }, "kiwi-banana", order2, {
      chunkFiles: 2,
      max: 3,
    }),
    [78, 53, 28],
  );
  // Files not sketched yet (past the count the worker has made) hold nothing.
  const early = Uint32Array.from(rare.ends);
  early[100] = 60;
  const inOrder = Int32Array.from({ length: 50 }, (_, k) => k);
  assert.deepEqual(
    sketchHolding({ sketch: rare.sketch, ends: early, count: 100 }, "kiwi-banana", inOrder, {
      chunkFiles: 2,
      max: 10,
    }),
    [3, 28, 53],
  );
  // A common text (held by more than SKETCH_COMMON of the sketches): none.
  const same = _sketches(Array(8).fill("the same text in every file\n"));
  assert.deepEqual(
    sketchHolding(
      { sketch: same.sketch, ends: same.ends, count: 8 },
      "same text",
      Int32Array.from([3, 0, 1, 2]),
      { chunkFiles: 2, max: 3 },
    ),
    [],
  );
});

Deno.test("a sketch is sized for its file: a large file's holds only the texts it has", () => {
  // 20,000 random characters: some 19,000 runs. A sketch of 504 bits had nearly all of them set,
  // and "held" any text; a sized one has 2 bits a place, 39% of them set.
  const big = _random(20_000, 11) + "\nNamedTupleExpr\n";
  const scratch = sketchScratch();
  const bytes = new TextEncoder().encode(big);
  const length = sketchFile(bytes, bytes.length, scratch);
  assert.ok(length * 8 >= 36_000 && length * 8 <= 40_032, `${length} bytes`); // (2 a place)
  const fill = (scratch.head >>> 1) / 127;
  assert.ok(fill > 0.3 && fill < 0.45, `${fill} full`);
  // Alone among small files that lack the text, the large file is asked, and holds only its own.
  const others = Array.from({ length: 60 }, (_, i) => `other ${i}\n`);
  const { sketch, ends } = _sketches([big, "kiwi-banana\n", ...others]);
  const order = Int32Array.from([0]);
  const holding = (text: string) =>
    sketchHolding({ sketch, ends, count: 62 }, text, order, {
      chunkFiles: 62,
      max: 10,
    });
  assert.deepEqual(holding("NamedTupleExpr"), [0]);
  assert.deepEqual(holding("kiwi-banana"), [1]);
  let wrong = 0; // random words of 10 letters the large file lacks but "holds"
  for (let k = 0; k < 200; k++) {
    const word = _random(10, 1000 + k).replace(/[^a-z]/gi, "q");
    if (!big.toLowerCase().includes(word.toLowerCase()) && holding(word)?.includes(0)) wrong++;
  }
  assert.ok(wrong <= 4, `${wrong} of 200 held by chance`);
});

Deno.test("larger files are asked only where few small files hold the text, and after them", () => {
  const large = (i: number) => `${_random(6_000, 50 + i)}\nreadFileSync(${i})\n`;
  const smallFiles = (n: number) =>
    Array.from({ length: 1000 }, (_, i) => i < n ? `readFileSync(${i});\n` : `x${i}\n`);
  // Few small files hold it: they come first, then the larger ones.
  const few = [large(0), ...smallFiles(3), large(1)];
  const a = _sketches(few);
  const order = Int32Array.from([0]);
  assert.deepEqual(
    sketchHolding({ sketch: a.sketch, ends: a.ends, count: few.length }, "readFileSync", order, {
      chunkFiles: few.length,
      max: 100,
    }),
    [1, 2, 3, 0, 1001],
  );
  // Enough small ones: those only.
  const many = [large(0), ...smallFiles(SKETCH_ENOUGH), large(1)];
  const b = _sketches(many);
  const held = sketchHolding(
    { sketch: b.sketch, ends: b.ends, count: many.length },
    "readFileSync",
    order,
    { chunkFiles: many.length, max: 100 },
  );
  assert.deepEqual(held, Array.from({ length: SKETCH_ENOUGH }, (_, i) => i + 1));
});
