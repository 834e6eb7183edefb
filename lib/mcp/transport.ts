/**
 * MCP over stdio, one JSON-RPC message per line, that survives any input.
 *
 * The SDK's own stdio transport drops a line that is not valid JSON-RPC without answering (the
 * client waits for ever on that request id) and stops reading altogether after a line longer than
 * its buffer. This one answers every bad line that carries a request id with a JSON-RPC error
 * (-32700 parse error, -32600 invalid request), skips an oversized line without holding it in
 * memory, and keeps reading until stdin ends. Every line that carries an `id` is answered: a
 * missing or non-string method, an id of the wrong type (answered with id null) and a batch array
 * (one -32600 per request in it) included.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { firstLine } from "../errors.ts";
import { concatBytes } from "../output.ts";
import { type CallResult, JSON_PIECES } from "./boundary.ts";
import { PIECE_CHARS } from "./json_pieces.ts";

/** JSON-RPC error codes for lines that are not a usable message. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** Where the transport reads and writes; stdin and stdout unless a test says otherwise. */
export interface LineStreams {
  input: ReadableStream<Uint8Array>;
  output: { write(bytes: Uint8Array): Promise<number> };
}

/** A stdio transport for the SDK's `Server`; `ended` resolves when the input ends. */
export class LineTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Resolves when the input has ended (stdin closed); the server decides when to close. */
  readonly ended: Promise<void>;
  #end!: () => void;
  #reader?: ReadableStreamDefaultReader<Uint8Array>;
  #writing: Promise<void> = Promise.resolve();
  /** Where lines are encoded, one at a time (`writeLine`). */
  #scratch?: Uint8Array;
  #closed = false;

  constructor(
    readonly maxLineBytes: number,
    readonly streams: LineStreams = { input: Deno.stdin.readable, output: Deno.stdout },
  ) {
    this.ended = new Promise((resolve) => (this.#end = resolve));
  }

  /** Starts reading lines in the background. */
  start(): Promise<void> {
    this.#reader = this.streams.input.getReader();
    this.#read(this.#reader).catch((err) => this.onerror?.(err)).finally(() => this.#end());
    return Promise.resolve();
  }

  /** Writes one message as a line; messages never interleave. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(messagePieces(message));
  }

  #write(line: string | readonly string[]): Promise<void> {
    this.#writing = this.#writing.then(async () => {
      if (this.#closed) return;
      this.#scratch ??= new Uint8Array(SCRATCH_BYTES);
      await writeLine(line, this.streams.output, this.#scratch);
    }).catch((err) => this.onerror?.(err));
    return this.#writing;
  }

  /** Stops reading and reports the close once pending writes are out. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#writing;
    this.#closed = true;
    await this.#reader?.cancel().catch(() => {});
    this.#end();
    this.onclose?.();
  }

  async #read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    let parts: Uint8Array[] = [];
    let size = 0;
    /** The first bytes of a line too long to keep, for its request id. */
    let skipping: Uint8Array | undefined;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      let chunk = r.value;
      for (let nl = chunk.indexOf(10);; nl = chunk.indexOf(10)) {
        const piece = nl === -1 ? chunk : chunk.subarray(0, nl);
        if (skipping) {
          // Discard the rest of an oversized line.
        } else if (size + piece.length > this.maxLineBytes) {
          skipping = concatBytes([...parts, piece]).subarray(0, 200);
          parts = [];
          size = 0;
        } else if (piece.length) {
          parts.push(piece);
          size += piece.length;
        }
        if (nl === -1) break;
        if (skipping) this.#tooLong(skipping);
        else this.#line(concatBytes(parts));
        parts = [];
        size = 0;
        skipping = undefined;
        chunk = chunk.subarray(nl + 1);
      }
      if (this.#closed) return;
    }
    if (skipping) this.#tooLong(skipping);
    else if (size) this.#line(concatBytes(parts));
  }

  #line(bytes: Uint8Array): void {
    const text = new TextDecoder().decode(bytes).replace(/\r$/, "");
    if (!text.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      this.#reject(_sniffId(text), PARSE_ERROR, `Parse error: ${(err as Error).message}`);
      return;
    }
    if (Array.isArray(json)) return this.#batch(json);
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    const id = _idOf(json);
    this.#reject(id, INVALID_REQUEST, `Invalid Request: ${_why(json, id)}`);
  }

  /**
   * Answers a batch (an array of messages) with one error per request in it: MCP since
   * 2025-06-18 carries one message per line, and a client that sent a batch waits for an array.
   */
  #batch(items: unknown[]): void {
    const message = "Invalid Request: batches are not supported; send each message on its own line";
    this.onerror?.(new Error(message));
    if (!items.length) return this.#reject(null, INVALID_REQUEST, "Invalid Request: empty batch");
    const answers = items.map(_idOf).filter((id) => id !== undefined).map((id) => ({
      jsonrpc: "2.0",
      id,
      error: { code: INVALID_REQUEST, message },
    }));
    if (answers.length) this.#write(JSON.stringify(answers));
  }

  #tooLong(head: Uint8Array): void {
    const id = _sniffId(new TextDecoder().decode(head));
    this.#reject(id, INVALID_REQUEST, `Invalid Request: message over ${this.maxLineBytes} bytes`);
  }

  /** Answers a bad line with an error when it carried a request id; logs it either way. */
  #reject(id: string | number | null | undefined, code: number, message: string): void {
    this.onerror?.(new Error(firstLine(message).slice(0, 200)));
    if (id === undefined) return;
    this.send({ jsonrpc: "2.0", id, error: { code, message: message.slice(0, 200) } } as never);
  }
}

/**
 * The size of a transport's line buffer: a message is encoded into it a piece at a time and each
 * piece written before the next (writes are one at a time), so a large answer (an outline of 1,900
 * items is 400 KB) is not copied into a new buffer of its own size: a new `Uint8Array` of 400 KB
 * for each answer cost 3-4 ms of the server's thread, encoding into this one 0.1 ms.
 */
export const SCRATCH_BYTES = 256 * 1024;
const _encoder = new TextEncoder();

/**
 * Writes the pieces of `line` (one string, or pieces to be joined) and a newline to `output` as
 * UTF-8 through `scratch` (at least 4 bytes), which nothing else may use until this resolves.
 * The pieces are never joined into one string: see {@linkcode messagePieces}.
 */
export async function writeLine(
  line: string | readonly string[],
  output: { write(bytes: Uint8Array): Promise<number> },
  scratch: Uint8Array,
): Promise<void> {
  let filled = 0;
  const flush = async () => {
    for (let done = 0; done < filled;) done += await output.write(scratch.subarray(done, filled));
    filled = 0;
  };
  for (const piece of [...(typeof line === "string" ? [line] : line), "\n"]) {
    for (let read = 0; read < piece.length;) {
      // encodeInto never splits a surrogate pair; `read` counts the UTF-16 units it took. What
      // did not fit waits for the buffer to be written out.
      const step = _encoder.encodeInto(read ? piece.slice(read) : piece, scratch.subarray(filled));
      read += step.read!;
      filled += step.written!;
      if (read < piece.length) await flush();
    }
  }
  await flush();
}

/**
 * Stand for the text content and `structuredContent` in a message serialized without them: a
 * string no tool's result and no client's request id holds (a string JSON never splits).
 */
const _NONCE = crypto.randomUUID();
const STAND_IN_TEXT = `\u0000text ${_NONCE}\u0000`;
const STAND_IN = `\u0000structuredContent ${_NONCE}\u0000`;
const STAND_IN_TEXT_JSON = JSON.stringify(STAND_IN_TEXT);
const STAND_IN_JSON = JSON.stringify(STAND_IN);

/**
 * How much of a JSON text is escaped as one piece of a line: its escaped form (at most twice as
 * long, two bytes a character) stays under V8's large-object size (128 KB). A large object takes
 * fresh pages every time, a page fault for every 4 KB (13-14 µs each on the 2-core VMs), and
 * the line of an outline of 1,900 items had made three of them (400 KB, 210 KB and the joined
 * line): 200-650 faults.
 */
const ESCAPE_STEP = PIECE_CHARS;

/** `text` as the inside of a JSON string, in pieces of at most {@linkcode ESCAPE_STEP} characters. */
function _escaped(text: string): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + ESCAPE_STEP);
    // Not between the two halves of a surrogate pair (each would be escaped alone).
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    pieces.push(JSON.stringify(text.slice(at, end)).slice(1, -1));
    at = end;
  }
  return pieces;
}

/**
 * `message` as JSON, in pieces that joined are `JSON.stringify(message)`. A tool's result that
 * carries its `structuredContent`'s JSON text in pieces (made once for its text content,
 * `boundary.ts`) has those pieces written in place of the object, and escaped a piece at a time in
 * place of the text content: a large result (an outline of 1,900 items) is serialized once on the
 * server's thread, and no string as long as the message is made.
 */
export function messagePieces(message: JSONRPCMessage): string[] {
  const result = (message as { result?: CallResult }).result;
  const pieces = result?.[JSON_PIECES];
  const [first, ...blocks] = result?.content ?? [];
  if (
    pieces === undefined || result?.structuredContent === undefined ||
    (first as { [JSON_PIECES]?: unknown } | undefined)?.[JSON_PIECES] !== pieces
  ) {
    return [JSON.stringify(message)];
  }
  const line = JSON.stringify({
    ...message,
    result: {
      ...result,
      content: [{ type: "text", text: STAND_IN_TEXT }, ...blocks],
      structuredContent: STAND_IN,
    },
  });
  const atText = line.indexOf(STAND_IN_TEXT_JSON);
  const atObject = line.indexOf(STAND_IN_JSON);
  return [
    line.slice(0, atText + 1),
    ...pieces.flatMap(_escaped),
    line.slice(atText + STAND_IN_TEXT_JSON.length - 1, atObject),
    ...pieces,
    line.slice(atObject + STAND_IN_JSON.length),
  ];
}

/** `message` as one line of JSON (tests: the pieces of {@linkcode messagePieces} joined). */
export function messageLine(message: JSONRPCMessage): string {
  return messagePieces(message).join("");
}

/**
 * The id to answer a message that is not valid JSON-RPC with: its id when that is a string or a
 * number, null for an id of another type (JSON-RPC's answer when the id cannot be read), and
 * undefined when nothing waits for an answer (no id, or a response rather than a request).
 */
function _idOf(json: unknown): string | number | null | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return null;
  const message = json as Record<string, unknown>;
  if (!("id" in message)) return undefined;
  if (!("method" in message) && ("result" in message || "error" in message)) return undefined;
  const { id } = message;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

/** Why `json` is not a valid request, for the error message. */
function _why(json: unknown, id: unknown): string {
  if (typeof json !== "object" || json === null) return "a message must be a JSON object";
  const message = json as Record<string, unknown>;
  const what = id === undefined || id === null ? "the message" : `request ${JSON.stringify(id)}`;
  if (!("method" in message)) return `${what} has no method`;
  if (typeof message.method !== "string") return `${what} has a method that is not a string`;
  if (id === null) return "a request id must be a string or a number";
  return `${what} is not valid JSON-RPC 2.0`;
}

/** The request id of a line that does not parse, when its start says it is a request. */
function _sniffId(text: string): string | number | undefined {
  if (!/"method"\s*:/.test(text)) return undefined;
  const m = text.match(/"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.){0,100}")/);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]);
  } catch {
    return undefined;
  }
}
