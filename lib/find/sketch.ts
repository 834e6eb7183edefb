/**
 * A large listing's file sketches: per file, 512 bits, one set for each hashed run of three bytes
 * (ASCII letters made small) of the file as the first worker last read it, while idle.
 *
 * A first search knows nothing of where its pattern is. Where the pattern requires some text (a
 * word, a regular expression's required literal), the files whose sketches hold every run of that
 * text are read first (`sketchFirst` in `search.ts`), and then the rest in the usual order. A
 * sketch is only an order: every file is still read as it is now, so one changed since it was
 * sketched (or never sketched) is only read later, never missed, and the answer is the same kind
 * as without sketches (real lines, sorted by path, counted `at_least` when cut). Replayed over 56
 * patterns' real hits on the 59k-file tree, reaching 31 lines took 8.4 ms (geometric mean) against
 * 11.5 without sketches; the words that live in many tiny files, which the order by worth reaches
 * last, gained most (`describe(` 58 → 11 ms, `eslint-disable` 72 → 25, `@babel/core` 90 → 28). The
 * bits fill up in a file of more than a few kilobytes, which then "holds" any text: a sketch
 * counts only when empty enough for its answer to mean something ({@linkcode sketchHolding}), and
 * the other files keep their place by worth.
 *
 * `sketchBits` is also written into the worker's source by `worker_source.ts`.
 */
import { SKETCH_BYTES } from "./protocol.ts";

/**
 * Sets `out` (one file's {@linkcode SKETCH_BYTES}) to the sketch of the first `size` bytes of
 * `bytes`: one bit for each run of three bytes, ASCII letters made small, in bytes 1 on; then the
 * first byte, odd to say the sketch is made, and twice how full the rest is (0 to 127). Also
 * written into the worker's source.
 */
export function sketchBits(bytes: Uint8Array, size: number, out: Uint8Array): void {
  out.fill(0);
  const bits = (out.length - 1) * 8;
  let h = 0;
  for (let k = 0; k < size; k++) {
    const b = bytes[k];
    h = ((h << 8) | (b >= 65 && b <= 90 ? b + 32 : b)) & 0xffffff;
    if (k < 2) continue;
    // (Small integers throughout: `>>> 0 % bits` made a heap number a byte, 5 times slower.)
    const bit = 8 + (((Math.imul(h, 0x9e3779b1) >>> 16) * bits) >>> 16);
    out[bit >>> 3] |= 1 << (bit & 7);
  }
  let set = 0;
  for (let k = 1; k < out.length; k++) {
    for (let v = out[k]; v; v &= v - 1) set++;
  }
  out[0] = 1 | (Math.round((set * 127) / bits) << 1);
}

/**
 * The files whose sketches hold `text` (ASCII letters made small), at most `max`, taken chunk by
 * chunk (`chunkFiles` files each) in `order` (none for a common text: {@linkcode SKETCH_COMMON});
 * undefined when the text is shorter than
 * {@linkcode SKETCH_MIN_TEXT} bytes. `sketch` holds `count` files' sketches: first each one's
 * head (the first byte {@linkcode sketchBits} makes), then each one's other bytes. A sketch holds
 * the text when every bit of its runs is set, and when it is empty enough for that to mean
 * something: at most {@linkcode SKETCH_FALSE} of the sketches of files without the text would
 * hold it by chance (a sketch of more than a few kilobytes has most of its bits set, and "holds"
 * any text). The heads are read first, one byte a file: for the 53k files of a 59k-file tree
 * about a millisecond.
 */
export function sketchHolding(
  sketch: Uint8Array,
  count: number,
  text: string,
  order: Int32Array,
  chunkFiles: number,
  max: number,
): number[] | undefined {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length < SKETCH_MIN_TEXT) return undefined;
  const own = new Uint8Array(SKETCH_BYTES);
  sketchBits(bytes, bytes.length, own);
  const at: number[] = []; // (in the bytes after the head)
  const mask: number[] = [];
  for (let k = 1; k < SKETCH_BYTES; k++) {
    if (!own[k]) continue;
    at.push(k - 1);
    mask.push(own[k]);
  }
  let runs = 0;
  for (const m of mask) for (let v = m; v; v &= v - 1) runs++;
  // The fullest head (0–127) where all of `runs` random bits are set at most that often.
  const full = Math.floor(127 * SKETCH_FALSE ** (1 / runs));
  const rest = SKETCH_BYTES - 1;
  const out: number[] = [];
  let counted = 0; // sketches that count (made, empty enough)
  for (let c = 0; c < order.length && out.length < max; c++) {
    const end = Math.min(count, (order[c] + 1) * chunkFiles);
    for (let i = order[c] * chunkFiles; i < end && out.length < max; i++) {
      const head = sketch[i];
      if (!(head & 1) || head >>> 1 > full) continue;
      counted++;
      const from = count + i * rest;
      let k = 0;
      while (k < at.length && (sketch[from + at[k]] & mask[k]) === mask[k]) k++;
      if (k === at.length) out.push(i);
    }
  }
  // A common text: the usual order finds it as soon, in larger files with more lines each.
  return out.length > SKETCH_COMMON * counted ? [] : out;
}

/**
 * A text that more than this share of the sketches that count hold is common (`const` is in
 * about a fifth of the 59k-file tree's files, `eslint-disable` in 0.4%): the files read first by
 * their sketches, the smallest, would give a line or two each where the usual order's larger ones
 * give many (first 30 of `const`: 10 ms against 5).
 */
export const SKETCH_COMMON = 0.08;

/**
 * The shortest text a sketch is asked about: in tiny files, runs of a short text are found apart
 * far more often than random bits would be (`foo` in thousands of one-line fixtures, where
 * `\bfoo\d+` is in a few).
 */
export const SKETCH_MIN_TEXT = 5;

/** How often a sketch may hold a text its file lacks, at most, for the holding to count. */
export const SKETCH_FALSE = 0.005;
