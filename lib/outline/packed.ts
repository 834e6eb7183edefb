/**
 * An outline as the worker sends it to the server's thread: its numbers in one `Int32Array` and
 * its names and signatures in one string. Copying that between threads costs a small part of
 * copying one object per item (1,900 of them for an 11,500-line `.d.ts`).
 */
import type { Kind, OutlineItem } from "./items.ts";
import { DECODE_STEP, type Outline } from "./source.ts";

/** Every kind, by its number in a packed outline. */
const KINDS: readonly Kind[] = [
  "class",
  "function",
  "method",
  "constant",
  "interface",
  "type",
  "enum",
  "struct",
  "trait",
  "module",
];
const KIND_NUMBERS = new Map(KINDS.map((kind, i) => [kind, i]));

/** Numbers per item: start, end, depth, kind, name's length, signature's length. */
const FIELDS = 6;

/**
 * An outline packed for the trip between threads: its names and signatures one after another, as
 * a string, or as UTF-8 in the first `stringBytes` bytes of the buffer that travels with it.
 */
export interface PackedOutline {
  numbers: Int32Array<ArrayBuffer>;
  strings?: string;
  stringBytes?: number;
  hasErrors: boolean;
}

/**
 * How many characters of names and signatures are joined and written to the buffer at once: a
 * regular heap object, not a large one (over 128 KB), which takes fresh pages every time (see
 * `source.ts`), and few calls to the encoder.
 */
const JOIN_CHARS = 16 * 1024;

/**
 * Packs `outline` ({@linkcode unpackOutline} gives it back). With `into`, a buffer handed over
 * with the message, the names and signatures are written to it as UTF-8 when they fit: the
 * message then copies no text (copying 1,900 items' strings took 180-350 page faults, 4-8 ms,
 * between the threads).
 */
export function packOutline(outline: Outline, into?: ArrayBuffer): PackedOutline {
  const { items } = outline;
  const numbers = new Int32Array(items.length * FIELDS);
  const strings: string[] = [];
  for (let i = 0, at = 0; i < items.length; i++, at += FIELDS) {
    const item = items[i];
    numbers[at] = item.start;
    numbers[at + 1] = item.end;
    numbers[at + 2] = item.depth;
    numbers[at + 3] = KIND_NUMBERS.get(item.kind)!;
    numbers[at + 4] = item.name.length;
    numbers[at + 5] = item.signature.length;
    strings.push(item.name, item.signature);
  }
  const hasErrors = outline.hasErrors;
  const written = into ? _encodeInto(strings, new Uint8Array(into)) : undefined;
  return written === undefined
    ? { numbers, strings: strings.join(""), hasErrors }
    : { numbers, stringBytes: written, hasErrors };
}

/** Writes `strings` one after another to `out` as UTF-8: the bytes written, or undefined when they do not fit. */
function _encodeInto(strings: string[], out: Uint8Array): number | undefined {
  const encoder = new TextEncoder();
  let written = 0;
  for (let from = 0; from < strings.length;) {
    let to = from;
    for (let chars = 0; to < strings.length && chars < JOIN_CHARS; to++) {
      chars += strings[to].length;
    }
    const text = strings.slice(from, to).join("");
    const step = encoder.encodeInto(text, out.subarray(written));
    if (step.read! < text.length) return undefined;
    written += step.written!;
    from = to;
  }
  return written;
}

/**
 * Reads `lengths` UTF-16 units at a time from UTF-8 `bytes`, decoded {@linkcode DECODE_STEP} bytes
 * at a time (as `source.ts` decodes a file).
 */
function _reader(bytes: Uint8Array): (length: number) => string {
  const decoder = new TextDecoder();
  let part = "";
  let at = 0; // in `part`
  let next = 0; // the next byte to decode
  return (length) => {
    let out = "";
    while (at + length > part.length && next < bytes.length) {
      out += part.slice(at);
      length -= part.length - at;
      part = decoder.decode(bytes.subarray(next, next + DECODE_STEP), { stream: true });
      next += DECODE_STEP;
      at = 0;
    }
    out += part.slice(at, at + length);
    at += length;
    return out;
  };
}

/** The outline that {@linkcode packOutline} packed; `buffer`, the one that came with it. */
export function unpackOutline(packed: PackedOutline, buffer?: ArrayBuffer): Outline {
  const { numbers, strings } = packed;
  const items: OutlineItem[] = new Array(numbers.length / FIELDS);
  let text: (length: number) => string;
  if (strings !== undefined) {
    let from = 0;
    text = (length) => strings.slice(from, from += length);
  } else {
    text = _reader(new Uint8Array(buffer!, 0, packed.stringBytes));
  }
  for (let i = 0, at = 0; i < items.length; i++, at += FIELDS) {
    items[i] = {
      start: numbers[at],
      end: numbers[at + 1],
      kind: KINDS[numbers[at + 3]],
      name: text(numbers[at + 4]),
      signature: text(numbers[at + 5]),
      depth: numbers[at + 2],
    };
  }
  return { items, hasErrors: packed.hasErrors };
}
