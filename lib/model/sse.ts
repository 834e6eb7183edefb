/**
 * Server-Sent Events, as every streaming backend reads them (OpenAI-compatible servers, an
 * Anthropic-style Messages API): {@linkcode createSseReader} splits text into events, and
 * {@linkcode pumpSse} reads one call's body into it with the chat's timeouts.
 *
 * The reader: `data: <json>` events separated by blank lines, `: comment` lines ignored, other
 * fields (`event:`, `id:`, `retry:`) ignored (an event's data says its type), and the caller
 * decides what ends the stream (`data: [DONE]`, a `message_stop`). Older llama-server builds
 * report a failure mid-stream as an `error: {json}` line, which is handed on at once as kind
 * `error`. Text arrives in arbitrary pieces; lines may end in `\n`, `\r\n` or `\r`.
 */
import type { ModelError } from "./errors.ts";
import type { ChatTimeouts } from "./transport.ts";

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

/** One streamed body, as {@linkcode pumpSse} reads it. */
export interface SseBody {
  /** The next piece of body, or undefined at its end; fails after `idleMs` without one. */
  read(idleMs: number, idleMessage: string): Promise<Uint8Array | undefined>;
}

/** What {@linkcode pumpSse} needs of the backend that reads the events. */
export interface SseHandler {
  timeouts: ChatTimeouts;
  /** Each event's data; `head` is the body's first 200 characters, for error messages. */
  onData(data: string, kind: "data" | "error", head: string): void;
  /** True once the reply has text: from then on a wait is the idle timeout, not the first's. */
  hasText(): boolean;
  /** True once an event said the stream is done (the body may stay open after it). */
  done(): boolean;
  /** The error for a body that is not an event stream, or whose events grow too large. */
  bad(head: string, why?: string): ModelError;
}

/** The most characters one event may hold before the answer counts as too large. */
const MAX_EVENT_CHARS = 8 * 1024 * 1024;

/** The message for a chat whose model sent nothing within the first chunk's timeout. */
export function firstChunkMessage(t: ChatTimeouts): string {
  return `the model sent nothing for ${t.firstChunkS} s (loading it and reading the prompt): ` +
    "check the model server's log, raise first_token_timeout_s in .localexec.json for a model " +
    "that loads slowly, or try a smaller task";
}

/**
 * Reads `body` into `h`'s events until the body ends or `h.done()`: until the first text the wait
 * for each piece is the first chunk's timeout, then the idle timeout. Throws `h.bad` for a body
 * that does not start like an event stream. Returns the body's first 200 characters and how many
 * events it held.
 */
export async function pumpSse(
  body: SseBody,
  h: SseHandler,
): Promise<{ head: string; events: number }> {
  const t = h.timeouts;
  let head = "";
  let events = 0;
  const sse = createSseReader((data, kind) => {
    events++;
    h.onData(data, kind, head);
  });
  const decoder = new TextDecoder();
  let begun = false;
  for (;;) {
    const text = h.hasText();
    const piece = await body.read(
      (text ? t.idleS : Math.min(t.firstChunkS, t.requestS)) * 1000,
      text
        ? `the model server stopped sending for ${t.idleS} s in the middle of the reply: check its log`
        : firstChunkMessage(t),
    );
    if (piece === undefined) break;
    const chunk = decoder.decode(piece, { stream: true });
    if (head.length < 200) head += chunk.slice(0, 200 - head.length);
    if (!begun && head.trimStart()) {
      begun = true;
      if (!/^(data|:|event|id|retry)/.test(head.trimStart())) throw h.bad(head);
    }
    sse.push(chunk);
    if (sse.pendingChars > MAX_EVENT_CHARS) throw h.bad(head, "answer too large");
    if (h.done()) break;
  }
  sse.push(decoder.decode());
  sse.end();
  return { head, events };
}
