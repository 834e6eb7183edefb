/**
 * One guarded HTTP call to a model server, the transport every HTTP backend shares (the
 * OpenAI-compatible one, an Anthropic-style Messages API): the caller's AbortSignal, a timeout
 * until headers, a timeout per body read, an overall timeout, the backend's headers, and a
 * non-2xx answer turned by the backend into the {@linkcode ModelError} that says what to do.
 * Every failure is recorded once and ends every wait at once, so a cancel closes the connection
 * even mid-body.
 */
import { ModelError } from "./errors.ts";
import { readCapped, startClock } from "./transport.ts";

/** How a backend words what went wrong with a call to `base`. */
export interface HttpErrors {
  /** The request could not be sent or answered (refused, reset, DNS). */
  fetch(base: string, err: unknown): ModelError;
  /** The body broke off while it was read. */
  broke(base: string, err: unknown): ModelError;
  /** A non-2xx answer: its status, its body's first part, the path and the model asked for. */
  status(
    base: string,
    o: { status: number; text: string; path: string; model?: string },
  ): ModelError;
}

/** What to call and how long to wait. */
export interface HttpCall {
  /** Base URL, for messages. */
  base: string;
  /** The path after the base, e.g. `/chat/completions`; or a full URL in `url`. */
  path: string;
  /** Overrides `base + path` (llama-server's `/props` lives at the origin, not under /v1). */
  url?: string;
  body?: unknown;
  /** The backend's own headers (its key, its API version). */
  headers?: Record<string, string>;
  /** The model asked for, so a 404 can say which one. */
  model?: string;
  signal?: AbortSignal;
  /** Milliseconds until response headers arrive. */
  headersMs: number;
  /** Milliseconds for the whole call, body included. */
  totalMs: number;
  /** The message for a headers timeout and for the overall one. */
  messages: { headers: string; total: string };
}

/** An open call whose status was 2xx. */
export interface OpenCall {
  response: Response;
  /** The next piece of body, or undefined at its end; fails after `idleMs` without one. */
  read(idleMs: number, idleMessage: string): Promise<Uint8Array | undefined>;
  /** Clears the timers and releases the connection; safe to call twice. */
  dispose(): void;
}

/** Sends the request; resolves once a 2xx answer's headers are in, else throws a ModelError. */
export async function openHttpCall(o: HttpCall, errors: HttpErrors): Promise<OpenCall> {
  const clock = startClock<ModelError>({
    signal: o.signal,
    totalMs: o.totalMs,
    total: () => _timeout(o.messages.total),
    cancelled: () => new ModelError("cancelled", "the request to the model server was cancelled"),
  });
  // Deno stops erroring a fetch body on abort once its Response is garbage collected: hold it.
  let held: Response | undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let finished = false;
  const dispose = () => {
    clock.dispose();
    if (reader && !finished) {
      finished = true;
      reader.cancel().catch(() => {});
    }
    held = undefined;
  };
  const read = async (idleMs: number, idleMessage: string) => {
    if (!reader) return undefined;
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await clock.wait(reader.read(), idleMs, () => _timeout(idleMessage));
    } catch (err) {
      throw clock.failure ?? errors.broke(o.base, err);
    }
    if (clock.failure) throw clock.failure;
    if (chunk.done) {
      finished = true;
      return undefined;
    }
    return chunk.value;
  };
  try {
    if (clock.failure) throw clock.failure;
    const headers: Record<string, string> = {
      accept: "application/json, text/event-stream",
      ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
      ...o.headers,
    };
    let res: Response;
    try {
      res = await clock.wait(
        fetch(o.url ?? `${o.base}${o.path}`, {
          method: o.body === undefined ? "GET" : "POST",
          headers,
          body: o.body === undefined ? undefined : JSON.stringify(o.body),
          signal: clock.signal,
        }),
        o.headersMs,
        () => _timeout(o.messages.headers),
      );
    } catch (err) {
      throw clock.failure ?? errors.fetch(o.base, err);
    }
    held = res;
    reader = res.body?.getReader();
    if (!res.ok) {
      const text = await readCapped(() => read(o.headersMs, o.messages.headers));
      throw errors.status(o.base, { status: res.status, text, path: o.path, model: o.model });
    }
    void held;
    return { response: res, read, dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}

/** Reads a whole (small) JSON answer with the headers timeout between pieces. */
export async function readJson(
  call: OpenCall,
  o: HttpCall,
  max = 8 * 1024 * 1024,
): Promise<{ text: string; data: unknown }> {
  const decoder = new TextDecoder();
  let text = "";
  for (let piece; (piece = await call.read(o.headersMs, o.messages.headers));) {
    text += decoder.decode(piece, { stream: true });
    if (text.length > max) break;
  }
  text += decoder.decode();
  try {
    return { text, data: JSON.parse(text) };
  } catch {
    return { text, data: undefined };
  }
}

function _timeout(message: string): ModelError {
  return new ModelError("timeout", message, { hostDown: false });
}
