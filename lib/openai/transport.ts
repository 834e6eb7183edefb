/**
 * One guarded HTTP call to an OpenAI-compatible server: the caller's AbortSignal, a timeout
 * until headers, a timeout per body read, an overall timeout, the API key, and a non-2xx answer
 * turned into the {@linkcode ModelError} that says what to do. Every failure is recorded once and
 * ends every wait at once, so a cancel closes the connection even mid-body.
 */
import { ModelError } from "../model/mod.ts";
import { brokeError, fetchError, type KeyInfo, statusError } from "./errors.ts";

/** What to call and how long to wait. */
export interface CallSpec {
  /** Base URL, for messages. */
  base: string;
  /** The path after the base, e.g. `/chat/completions`; or a full URL in `url`. */
  path: string;
  /** Overrides `base + path` (llama-server's `/props` lives at the origin, not under /v1). */
  url?: string;
  body?: unknown;
  apiKey?: string;
  key: KeyInfo;
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

const MAX_ERROR_BODY = 64 * 1024;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Sends the request; resolves once a 2xx answer's headers are in, else throws a ModelError. */
export async function openCall(o: CallSpec): Promise<OpenCall> {
  const ctl = new AbortController();
  let failure: ModelError | undefined;
  let wake!: (err: ModelError) => void;
  const failed = new Promise<never>((_, reject) => (wake = reject));
  failed.catch(() => {});
  const fail = (err: ModelError) => {
    if (failure) return;
    failure = err;
    ctl.abort(err);
    wake(err);
  };
  const onAbort = () =>
    fail(new ModelError("cancelled", "the request to the model server was cancelled"));
  if (o.signal?.aborted) onAbort();
  else o.signal?.addEventListener("abort", onAbort, { once: true });
  const total = setTimeout(() => fail(_timeout(o.messages.total)), _ms(o.totalMs));
  // Deno stops erroring a fetch body on abort once its Response is garbage collected: hold it.
  let held: Response | undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let finished = false;
  const wait = <T>(p: Promise<T>, ms: number, message: string): Promise<T> => {
    const timer = setTimeout(() => fail(_timeout(message)), _ms(ms));
    return Promise.race([p, failed]).finally(() => clearTimeout(timer));
  };
  const dispose = () => {
    clearTimeout(total);
    o.signal?.removeEventListener("abort", onAbort);
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
      chunk = await wait(reader.read(), idleMs, idleMessage);
    } catch (err) {
      throw failure ?? brokeError(o.base, err);
    }
    if (failure) throw failure;
    if (chunk.done) {
      finished = true;
      return undefined;
    }
    return chunk.value;
  };
  try {
    if (failure) throw failure;
    const headers: Record<string, string> = { accept: "application/json, text/event-stream" };
    if (o.body !== undefined) headers["content-type"] = "application/json";
    if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
    let res: Response;
    try {
      res = await wait(
        fetch(o.url ?? `${o.base}${o.path}`, {
          method: o.body === undefined ? "GET" : "POST",
          headers,
          body: o.body === undefined ? undefined : JSON.stringify(o.body),
          signal: ctl.signal,
        }),
        o.headersMs,
        o.messages.headers,
      );
    } catch (err) {
      throw failure ?? fetchError(o.base, err);
    }
    held = res;
    reader = res.body?.getReader();
    if (!res.ok) {
      let text = "";
      for (
        let piece;
        text.length < MAX_ERROR_BODY && (piece = await read(o.headersMs, o.messages.headers));
      ) {
        text += new TextDecoder().decode(piece, { stream: true });
      }
      throw statusError(o.base, {
        status: res.status,
        text,
        path: o.path,
        model: o.model,
        key: o.key,
      });
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
  o: CallSpec,
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

function _ms(ms: number): number {
  return Number.isFinite(ms) ? Math.max(0, Math.min(ms, MAX_TIMER_MS)) : MAX_TIMER_MS;
}
