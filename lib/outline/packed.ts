/**
 * An outline as the worker sends it to the server's thread: its numbers in one `Int32Array` and
 * its names and signatures in one string. Copying that between threads costs a small part of
 * copying one object per item (1,900 of them for an 11,500-line `.d.ts`).
 */
import type { Kind, OutlineItem } from "./items.ts";
import type { Outline } from "./source.ts";

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

/** An outline packed for the trip between threads. */
export interface PackedOutline {
  numbers: Int32Array;
  strings: string;
  hasErrors: boolean;
}

/** Packs `outline` ({@linkcode unpackOutline} gives it back). */
export function packOutline(outline: Outline): PackedOutline {
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
  return { numbers, strings: strings.join(""), hasErrors: outline.hasErrors };
}

/** The outline that {@linkcode packOutline} packed. */
export function unpackOutline(packed: PackedOutline): Outline {
  const { numbers, strings } = packed;
  const items: OutlineItem[] = new Array(numbers.length / FIELDS);
  for (let i = 0, at = 0, from = 0; i < items.length; i++, at += FIELDS) {
    const nameEnd = from + numbers[at + 4];
    const signatureEnd = nameEnd + numbers[at + 5];
    items[i] = {
      start: numbers[at],
      end: numbers[at + 1],
      kind: KINDS[numbers[at + 3]],
      name: strings.slice(from, nameEnd),
      signature: strings.slice(nameEnd, signatureEnd),
      depth: numbers[at + 2],
    };
    from = signatureEnd;
  }
  return { items, hasErrors: packed.hasErrors };
}
