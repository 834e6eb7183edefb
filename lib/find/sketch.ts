/**
 * A large listing's file sketches: per file, a bit set for each hashed run of three bytes (ASCII
 * letters made small) of the file as the first worker last read it, while idle; each file's
 * sketch sized for its own runs, so a large file's means as much as a small one's.
 *
 * A first search knows nothing of where its pattern is. Where the pattern requires some text (a
 * word, a regular expression's required literal), the files whose sketches hold every run of that
 * text are read first (`sketchFirst` in `search.ts`), and then the rest in the usual order. A
 * sketch is only an order: every file is still read as it is now, so one changed since it was
 * sketched (or never sketched) is only read later, never missed, and the answer is the same kind
 * as without sketches (real lines, sorted by path, counted `at_least` when cut).
 *
 * Each run is hashed to one of 2^{@linkcode SKETCH_PLACE_BITS} places; a file's sketch has
 * {@linkcode sketchSize} bits for its count of places (a small file's 256 or 512, as every file had
 * 504 before; a larger file's 2 a place, 39% of them set), and place `p` is its bit
 * `p × bits / 2^21`. Replayed over 56 patterns' real hits on the 59k-file tree, reaching 31 lines
 * with sketches of 504 bits for every file took 8.4 ms (geometric mean) against 11.5 without; but
 * a file of more than a few kilobytes had most of those bits set and "held" any text, so a word
 * that lives in a few large files (`NamedTupleExpr`, 41 lines in 16 of mypy's) was read in the
 * usual order, 90–120 ms against rg's 17–28 (sized: 12–28 ms). Sized sketches take 5.2 MB for
 * that tree's 52k text files (fixed ones 3.4 MB). A sketch counts only where its fill lets its
 * answer mean something, and the larger files are asked only where few small ones hold the text
 * ({@linkcode sketchHolding}).
 *
 * `sketchFile` runs in the search worker too (`worker_main.ts`).
 */

/** Places a run is hashed to: 2^21 (see the module comment). */
export const SKETCH_PLACE_BITS = 21;

/** Work space for {@linkcode sketchFile}, kept by the worker (768 KB). */
export interface SketchScratch {
  /** One bit per place, set for the file being sketched (cleared once it is). */
  seen: Int32Array;
  /** The words of `seen` the file set. */
  touched: Int32Array;
  /** The sketch made: the first {@linkcode sketchFile} bytes. */
  out: Uint8Array;
  /** The sketch's head: 1 (made) plus twice how full it is (0–127). */
  head: number;
}

/** A new {@linkcode SketchScratch}. Also used in the search worker. */
export function sketchScratch(): SketchScratch {
  const words = 1 << (SKETCH_PLACE_BITS - 5);
  return {
    seen: new Int32Array(words),
    touched: new Int32Array(words),
    out: new Uint8Array(words * 4),
    head: 0,
  };
}

/**
 * Bits of the sketch of a file whose runs fall in `places` places: 256 up to 24 places (at most 9%
 * of them set), 512 up to 256 (a file of up to a kilobyte or two: as many bits as every file had
 * before sketches were sized, and so as full), then 2 a place (39% of them set; a multiple of 32,
 * at most one a place of the whole space). 5.2 MB for the 52k text files of the 59k-file tree
 * (3.4 with 504 bits each). Also used in the search worker.
 */
export function sketchSize(places: number): number {
  if (places <= 24) return 256;
  if (places <= 256) return 512;
  return Math.min(1 << SKETCH_PLACE_BITS, Math.ceil(places / 16) * 32);
}

/**
 * Sketches the first `size` bytes of `bytes` into `scratch.out`; returns the sketch's length in
 * bytes, and sets `scratch.head`. Also used in the search worker.
 */
export function sketchFile(bytes: Uint8Array, size: number, scratch: SketchScratch): number {
  const { seen, touched, out } = scratch;
  let h = 0;
  let words = 0;
  let places = 0;
  for (let k = 0; k < size; k++) {
    const b = bytes[k];
    h = ((h << 8) | (b >= 65 && b <= 90 ? b + 32 : b)) & 0xffffff;
    if (k < 2) continue;
    // (Small integers throughout: `>>> 0 % bits` made a heap number a byte, 5 times slower.)
    const p = Math.imul(h, 0x9e3779b1) >>> (32 - SKETCH_PLACE_BITS);
    const w = p >>> 5;
    const bit = 1 << (p & 31);
    const v = seen[w];
    if (v & bit) continue;
    if (v === 0) touched[words++] = w;
    seen[w] = v | bit;
    places++;
  }
  const bits = sketchSize(places);
  const length = bits >>> 3;
  out.fill(0, 0, length);
  let set = 0;
  for (let t = 0; t < words; t++) {
    const w = touched[t];
    for (let v = seen[w]; v !== 0; v &= v - 1) {
      const p = (w << 5) | (31 - Math.clz32(v & -v));
      const q = (p * bits / (1 << SKETCH_PLACE_BITS)) | 0;
      const mask = 1 << (q & 7);
      if (!(out[q >>> 3] & mask)) {
        out[q >>> 3] |= mask;
        set++;
      }
    }
    seen[w] = 0;
  }
  scratch.head = 1 | (Math.round((set * 127) / bits) << 1);
  return length;
}

/** Where the sketches' bits begin in `ListingMessage.sketch`, after the heads of `count` files. */
export function sketchBase(count: number): number {
  return Math.ceil(count / 8) * 8;
}

/** The distinct places of the runs of `text` (ASCII letters made small). */
function _places(text: Uint8Array): number[] {
  const out = new Set<number>();
  let h = 0;
  for (let k = 0; k < text.length; k++) {
    const b = text[k];
    h = ((h << 8) | (b >= 65 && b <= 90 ? b + 32 : b)) & 0xffffff;
    if (k >= 2) out.add(Math.imul(h, 0x9e3779b1) >>> (32 - SKETCH_PLACE_BITS));
  }
  return [...out];
}

/** A listing's sketches as {@linkcode sketchHolding} reads them. */
export interface SketchView {
  /** `ListingMessage.sketch`: the heads of `count` files, then their bits. */
  sketch: Uint8Array;
  /** `ListingMessage.sketchEnds`. */
  ends: Uint32Array;
  count: number;
}

/** How {@linkcode sketchHolding} takes files: chunk by chunk, how many, and what is common. */
export interface SketchLimits {
  chunkFiles: number;
  max: number;
  common?: number;
}

/**
 * The files whose sketches hold `text` (ASCII letters made small), at most `max`, taken chunk by
 * chunk (`chunkFiles` files each; with 1, `order` lists files) in `order` (none for a text held
 * by more than `common` of the small sketches that count: {@linkcode SKETCH_COMMON});
 * undefined when the text is shorter than {@linkcode SKETCH_MIN_TEXT} bytes. `sketch` is
 * `ListingMessage.sketch` (the heads of `count` files, then their bits from
 * {@linkcode sketchBase}) and `ends` `ListingMessage.sketchEnds`. A sketch holds the text when
 * every place of its runs is set, and when it is empty enough for that to mean something: at most
 * {@linkcode SKETCH_FALSE} of the sketches of files without the text would hold it by chance (a
 * text of 5 bytes, 3 runs, counts in sketches up to 17% full: small files'; one of 8 bytes, 6
 * runs, in sketches up to 41% full: every file's). The heads are read first, one byte a file.
 */
export function sketchHolding(
  sketches: SketchView,
  text: string,
  order: Int32Array,
  limits: SketchLimits,
): number[] | undefined {
  const { sketch, ends, count } = sketches;
  const { chunkFiles, max, common = SKETCH_COMMON } = limits;
  const bytes = new TextEncoder().encode(text);
  if (bytes.length < SKETCH_MIN_TEXT) return undefined;
  const places = _places(bytes);
  const runs = places.length;
  // The fullest head (0–127) where all of `runs` random bits are set at most that often.
  const full = Math.floor(127 * SKETCH_FALSE ** (1 / runs));
  const made = Math.min(count, Atomics.load(ends, count));
  const base = sketchBase(count);
  // The bytes and bits of the places in a sketch of `bits` bits (256 or 512, most), per byte.
  const bytesOf = (bits: number) => {
    const masks = new Map<number, number>();
    for (const p of places) {
      const q = (p * bits / (1 << SKETCH_PLACE_BITS)) | 0;
      masks.set(q >>> 3, (masks.get(q >>> 3) ?? 0) | (1 << (q & 7)));
    }
    return { at: Int32Array.from(masks.keys()), mask: Int32Array.from(masks.values()) };
  };
  const of32 = bytesOf(256);
  const of64 = bytesOf(512);
  // Two kinds of file: the small ones (up to SKETCH_SMALL_BYTES of sketch) and the larger ones
  // (sized sketches, 39% full: they count for texts of 6 runs or more). A larger file "holds" a
  // text more often than chance says (`deprecated` in 218 files with `deprecate` or
  // `deprecation`) and costs more to read: the larger files are asked only where the small ones
  // hold the text in fewer than SKETCH_ENOUGH files (`NamedTupleExpr`: none, where 16 of mypy's
  // larger files hold it), and come after them.
  // Files `small` or not, in `order`, whose sketches count and hold the text, at most `max`;
  // `counted` adds up those whose sketches count.
  let counted = 0;
  const holding = (small: boolean): number[] => {
    const out: number[] = [];
    for (let c = 0; c < order.length && out.length < max; c++) {
      const start = order[c] * chunkFiles;
      const end = Math.min(made, start + chunkFiles);
      let from = start === 0 ? 0 : ends[start - 1]; // (file i's sketch begins where i - 1's ends)
      for (let i = start; i < end && out.length < max; i++) {
        const to = ends[i];
        const length = to - from;
        const at = base + from;
        from = to;
        const head = sketch[i];
        if (!(head & 1) || head >>> 1 > full || (length <= SKETCH_SMALL_BYTES) !== small) continue;
        counted++;
        let k = 0;
        if (length === 64 || length === 32) {
          const of = length === 64 ? of64 : of32;
          const n = of.at.length;
          while (k < n && (sketch[at + of.at[k]] & of.mask[k]) === of.mask[k]) k++;
          if (k === n) out.push(i);
        } else {
          const scale = (8 * length) / (1 << SKETCH_PLACE_BITS);
          for (; k < runs; k++) {
            const q = (places[k] * scale) | 0;
            if (!(sketch[at + (q >>> 3)] & (1 << (q & 7)))) break;
          }
          if (k === runs) out.push(i);
        }
      }
    }
    return out;
  };
  const small = holding(true);
  // A common text: the usual order finds it as soon, in larger files with more lines each.
  if (small.length > common * counted) return [];
  // (A larger file's sketch is about 39% full, 49–50 in its head: none counts for fewer runs.)
  return small.length >= SKETCH_ENOUGH || full < 49 ? small : [...small, ...holding(false)];
}

/**
 * The largest sketch of a small file (1,024 bits: a file of up to 512 places, some 2–5 KB), cheap
 * to read.
 */
export const SKETCH_SMALL_BYTES = 128;

/** Files whose small sketches hold a text that are enough for the larger files not to be asked. */
export const SKETCH_ENOUGH = 32;

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
