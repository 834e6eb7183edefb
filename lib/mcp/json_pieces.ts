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
 * What JSON writes for the property `key` holding `value`: what its `toJSON(key)` gives, where it
 * has one (called once: an object it gives is written as it is, its own `toJSON` not called).
 */
function _property(value: unknown, key: string): unknown {
  if ((typeof value === "object" && value !== null) || typeof value === "bigint") {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return toJSON.call(value, key);
  }
  return value;
}

/**
 * An object JSON writes as its own enumerable properties, or an array: what is walked here.
 * Primitives, boxed primitives (`new Number(1)` is written `1`) and `JSON.rawJSON`'s text are one
 * `JSON.stringify` call, which calls no `toJSON` for them.
 */
function _walked(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== "object" || value === null) return false;
  if (
    value instanceof Number || value instanceof String || value instanceof Boolean ||
    value instanceof BigInt
  ) return false;
  return !(JSON as { isRawJSON?: (v: unknown) => boolean }).isRawJSON?.(value);
}

/**
 * The JSON of `value` written for property `key` (its `toJSON`, if any, already called), in one
 * `JSON.stringify` call, which refuses a cycle as the walk would: the call's replacer puts back
 * `value` where JSON would have called its `toJSON` a second time.
 */
function _whole(value: unknown, key: string): string {
  const holder = { [key]: value };
  const text = JSON.stringify(holder, function (this: unknown, name: string, given: unknown) {
    return this === holder && name === key ? value : given;
  });
  return text.slice(JSON.stringify(key).length + 2, -1);
}

/**
 * `JSON.stringify(value)` in pieces of about {@linkcode PIECE_CHARS} characters (see the module
 * comment); throws where `JSON.stringify` throws, and where it would give `undefined` (`value`
 * must be one JSON can hold at the top: not `undefined`, a function or a symbol).
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
  // `v` is what is written (its toJSON, if any, already called); `key`, the property holding it.
  const walk = (v: unknown, key: string, depth: number): void => {
    if (depth > MAX_DEPTH) return emit(_whole(v, key));
    if (!_walked(v)) return emit(JSON.stringify(v));
    if (Array.isArray(v)) {
      emit("[");
      for (let i = 0; i < v.length; i++) {
        if (i > 0) emit(",");
        const item = _property(v[i], String(i));
        if (_skipped(item)) emit("null");
        else walk(item, String(i), depth + 1);
      }
      return emit("]");
    }
    let first = true;
    emit("{");
    for (const name of Object.keys(v)) {
      const item = _property(v[name], name);
      if (_skipped(item)) continue;
      emit(`${first ? "" : ","}${JSON.stringify(name)}:`);
      first = false;
      walk(item, name, depth + 1);
    }
    emit("}");
  };
  const top = _property(value, "");
  if (_skipped(top)) throw new TypeError("JSON has no text for this value");
  walk(top, "", 0);
  if (parts.length) pieces.push(parts.join(""));
  return pieces;
}
