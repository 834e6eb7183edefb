/**
 * A value's JSON text in pieces that, joined, are exactly `JSON.stringify(value)`.
 *
 * A tool's result is sent as one line holding its JSON twice (the text content, escaped, and
 * `structuredContent`). Made whole, that is a string as long as the result (an outline of 1,913
 * items: 205 KB) and its escaped copy; each is a large object for V8 (over 128 KB), which takes
 * fresh pages every time: 310-400 page faults for that outline's `JSON.stringify`, at 13-14 µs each
 * on the 2-core VMs, 5-10 ms of the server's thread. In pieces of about {@linkcode PIECE_CHARS}
 * characters every string stays small, and the transport writes them one after another
 * (`transport.ts`).
 */

/** About how many characters a piece holds (more when one value's JSON is longer). */
export const PIECE_CHARS = 16 * 1024;

/** How deep objects and arrays are walked; below, a value's JSON is made whole. */
const MAX_DEPTH = 64;

/** What `JSON.stringify` leaves out of an object and writes as `null` in an array. */
function _skipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/**
 * An array, or an object of `Object`'s own prototype (or none), without `toJSON`: what is walked
 * here. Anything else (strings, numbers, dates, class instances) is one `JSON.stringify` call.
 */
function _walked(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== "object" || value === null) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `JSON.stringify(value)` in pieces of about {@linkcode PIECE_CHARS} characters (see the module
 * comment); throws where `JSON.stringify` throws. `value` must be one JSON can hold at the top
 * (not `undefined`, a function or a symbol).
 */
export function jsonPieces(value: unknown): string[] {
  const pieces: string[] = [];
  let parts: string[] = [];
  let size = 0;
  const emit = (text: string) => {
    parts.push(text);
    size += text.length;
    if (size >= PIECE_CHARS) {
      pieces.push(parts.join(""));
      parts = [];
      size = 0;
    }
  };
  const walk = (v: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || !_walked(v)) return emit(JSON.stringify(v));
    if (Array.isArray(v)) {
      emit("[");
      for (let i = 0; i < v.length; i++) {
        if (i > 0) emit(",");
        if (_skipped(v[i])) emit("null");
        else walk(v[i], depth + 1);
      }
      return emit("]");
    }
    let first = true;
    emit("{");
    for (const key of Object.keys(v)) {
      const item = v[key];
      if (_skipped(item)) continue;
      emit(`${first ? "" : ","}${JSON.stringify(key)}:`);
      first = false;
      walk(item, depth + 1);
    }
    emit("}");
  };
  walk(value, 0);
  if (parts.length) pieces.push(parts.join(""));
  return pieces;
}
