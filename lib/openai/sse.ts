/**
 * A Server-Sent Events reader for OpenAI-style streams: `data: <json>` events separated by blank
 * lines, `: comment` lines ignored, other fields (`event:`, `id:`, `retry:`) ignored, and
 * `data: [DONE]` as the end. Older llama-server builds report a failure mid-stream as an
 * `error: {json}` line, which is handed on at once as kind `error`. Text arrives in arbitrary pieces; lines may end in `\n`, `\r\n` or
 * `\r`.
 */

/** Feeds text in, calls `onData` with each event's data (its `data:` lines joined by `\n`). */
export interface SseReader {
  push(text: string): void;
  /** Flushes an event the stream ended without a blank line after. */
  end(): void;
  /** Characters received that are not yet a whole line. */
  readonly pendingChars: number;
}

/** Creates a reader that hands each event's data (or an `error:` line's value) to `onData`. */
export function createSseReader(
  onData: (data: string, kind: "data" | "error") => void,
): SseReader {
  let pending = "";
  let data: string[] = [];
  let pendingCr = false;
  const dispatch = () => {
    if (data.length) {
      const joined = data.join("\n");
      data = [];
      onData(joined, "data");
    }
  };
  const line = (text: string) => {
    if (text === "") return dispatch();
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "error") onData(value, "error");
  };
  return {
    push(text) {
      let t = text;
      // A "\r\n" split across two pieces: the "\n" belongs to the "\r" already seen.
      if (pendingCr && t.startsWith("\n")) t = t.slice(1);
      pendingCr = false;
      pending += t;
      let start = 0;
      for (let i = 0; i < pending.length; i++) {
        const c = pending.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        line(pending.slice(start, i));
        if (c === 13) {
          if (i + 1 === pending.length) pendingCr = true;
          else if (pending.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
      }
      pending = pending.slice(start);
    },
    end() {
      if (pending) line(pending);
      pending = "";
      dispatch();
    },
    get pendingChars() {
      return pending.length;
    },
  };
}
