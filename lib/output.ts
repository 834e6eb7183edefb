/**
 * Bounded output: keep the start and the end of a stream of any size, cut the middle with a marker.
 *
 * Used by `lib/process/` to keep child output bounded (cuts never split a UTF-8 character, so the
 * kept text decodes cleanly), and by `read_file` to keep a result within one MCP message.
 */

/** Shown where the middle of an output was dropped. */
function cutMarker(droppedBytes: number): string {
  return `\n[… ${droppedBytes} bytes of output cut …]\n`;
}

/** Keeps the first and the last `keep` bytes of a byte stream, however long it grows. */
export class HeadTail {
  #head: Uint8Array[] = [];
  #headLen = 0;
  #tail: Uint8Array[] = [];
  #tailLen = 0;
  /** Every byte pushed so far. */
  total = 0;

  constructor(readonly keep: number) {}

  /** Adds a chunk; memory stays at about `2 * keep` plus one chunk. */
  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    if (this.#headLen < this.keep) {
      const take = chunk.slice(0, this.keep - this.#headLen);
      this.#head.push(take);
      this.#headLen += take.length;
      chunk = chunk.subarray(take.length);
      if (!chunk.length) return;
    }
    this.#tail.push(chunk);
    this.#tailLen += chunk.length;
    while (this.#tail.length > 1 && this.#tailLen - this.#tail[0].length >= this.keep) {
      this.#tailLen -= this.#tail.shift()!.length;
    }
  }

  /** The kept text, with {@linkcode cutMarker} where the middle was dropped. */
  text(): { output: string; dropped: number } {
    const dec = new TextDecoder();
    let head = concatBytes(this.#head);
    let tail = concatBytes(this.#tail);
    if (tail.length > this.keep) tail = tail.subarray(tail.length - this.keep);
    if (head.length + tail.length === this.total) {
      return { output: dec.decode(concatBytes([head, tail])), dropped: 0 };
    }
    head = head.subarray(0, _completeEnd(head));
    tail = tail.subarray(_firstLead(tail));
    const dropped = this.total - head.length - tail.length;
    return { output: dec.decode(head) + cutMarker(dropped) + dec.decode(tail), dropped };
  }
}

/** Joins byte chunks into one array (the chunk itself when there is only one). */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Length of `bytes` without a UTF-8 character that is cut off at the end. */
function _completeEnd(bytes: Uint8Array): number {
  const len = bytes.length;
  for (let i = len - 1; i >= Math.max(0, len - 4); i--) {
    const b = bytes[i];
    if ((b & 0xc0) === 0x80) continue;
    if (b < 0xc0) return len;
    const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    return len - i < size ? i : len;
  }
  return len;
}

/** Index of the first byte that does not continue a UTF-8 character cut off at the start. */
function _firstLead(bytes: Uint8Array): number {
  let i = 0;
  while (i < Math.min(3, bytes.length) && (bytes[i] & 0xc0) === 0x80) i++;
  return i;
}

/** UTF-8 length of `s`, without encoding it. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * Bytes `text` adds to an MCP tool result: once escaped in `structuredContent`, and escaped twice
 * in the text block that carries the same JSON.
 */
export function messageCost(text: string): number {
  const once = JSON.stringify(text);
  return utf8Length(once) + utf8Length(JSON.stringify(once)) - 6;
}

/** The longest start of `text` within `maxChars` characters and `budget` result bytes. */
export function fitMessage(text: string, maxChars: number, budget: number): string {
  let cut = text.slice(0, maxChars);
  for (let cost = messageCost(cut); cost > budget; cost = messageCost(cut)) {
    cut = cut.slice(0, Math.floor(cut.length * (budget / cost) * 0.95));
  }
  return cut;
}
