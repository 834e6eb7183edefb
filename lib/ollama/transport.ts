/**
 * One guarded HTTP call to Ollama: a `fetch` for `npm:ollama` that adds the caller's AbortSignal,
 * a timeout until headers, an idle timeout between body chunks and an overall timeout, and that
 * checks the body really is Ollama's JSON before the library parses it.
 *
 * Why a fetch wrapper: `Ollama.abort()` only reaches requests whose response has started, and the
 * library logs (to stdout) and skips lines it cannot parse. Here every failure becomes one
 * {@linkcode OllamaError}, recorded once; the stream the library reads is errored with it, so the
 * library's own iterator rethrows exactly that error.
 */
import {
  badResponseError,
  bodyError,
  fetchError,
  OllamaError,
  snippet,
  statusError,
} from "./errors.ts";
import { readCapped, startClock, timerMs } from "../model/mod.ts";

/** How the body must look: one JSON document, or newline-delimited JSON ending with `done`. */
export type BodyShape = "json" | "ndjson";

/** Options for {@linkcode guardCall}. */
export interface GuardOptions {
  /** Base URL, for messages. */
  baseUrl: string;
  /** The caller's signal; when it fires the call ends as `cancelled`. */
  signal?: AbortSignal;
  /** Milliseconds until response headers arrive. */
  headersMs: number;
  /** Milliseconds allowed between two body chunks (and before the first). */
  idleMs: number;
  /** Milliseconds for the whole call, body included. */
  totalMs: number;
  /** The message for each timeout. */
  timeoutMessages: { headers: string; idle: string; total: string };
  /** The model asked for, so a 404 can say which one to pull. */
  model?: string;
  shape: BodyShape;
}

/** A guarded call: pass `fetch` to `new Ollama({fetch})`; call `dispose()` when done. */
export interface Guard {
  fetch: typeof fetch;
  /** The error that ended the call: the recorded failure, else `err` mapped. */
  explain(err: unknown): OllamaError;
  /** Clears timers and releases the connection; safe to call more than once. */
  dispose(): void;
}

const MAX_LINE_CHARS = 8 * 1024 * 1024;

/** Starts the clocks for one call; the overall timeout runs from now. */
export function guardCall(o: GuardOptions): Guard {
  const clock = startClock<OllamaError>({
    signal: o.signal,
    totalMs: o.totalMs,
    total: () => new OllamaError("timeout", o.timeoutMessages.total),
    cancelled: () => new OllamaError("cancelled", "the request to Ollama was cancelled"),
  });
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  // Deno stops erroring a fetch body on abort once its Response is garbage collected, so the
  // Response is held until the call is disposed, and every wait also ends when the call fails.
  const held: Response[] = [];
  let finished = false;
  const idle = () => new OllamaError("timeout", o.timeoutMessages.idle);
  const idleWait = <T>(p: Promise<T>): Promise<T> => clock.wait(p, o.idleMs, idle);

  const guardedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (clock.failure) throw clock.failure;
    const signals = init?.signal ? [clock.signal, init.signal] : [clock.signal];
    const headers = setTimeout(
      () => clock.fail(new OllamaError("timeout", o.timeoutMessages.headers)),
      timerMs(o.headersMs),
    );
    let res: Response;
    try {
      res = await fetch(input, { ...init, signal: AbortSignal.any(signals) });
    } catch (err) {
      throw clock.failure ?? fetchError(o.baseUrl, err);
    } finally {
      clearTimeout(headers);
    }
    if (clock.failure) {
      await res.body?.cancel().catch(() => {});
      throw clock.failure;
    }
    if (!res.body) throw badResponseError(o.baseUrl, "", `HTTP ${res.status} with no body`);
    held.push(res);
    const r = reader = res.body.getReader();
    if (!res.ok) {
      const text = await readCapped(async () => {
        const chunk = await idleWait(r.read());
        return chunk.done ? undefined : chunk.value;
      }).catch((err) => {
        throw clock.failure ?? bodyError(o.baseUrl, err);
      });
      await r.cancel().catch(() => {});
      finished = true;
      throw clock.failure ?? statusError(o.baseUrl, res.status, text, o.model);
    }
    const checked = _checkedBody(r, o, idleWait, () => clock.failure, () => finished = true);
    return new Response(checked, { status: res.status, headers: res.headers });
  };

  return {
    fetch: guardedFetch as typeof fetch,
    explain(err) {
      if (clock.failure) return clock.failure;
      if (err instanceof OllamaError) return err;
      if (err instanceof SyntaxError) return badResponseError(o.baseUrl, "", "broken JSON");
      return new OllamaError("bad_response", `Ollama at ${o.baseUrl}: ${snippet(String(err))}`, {
        cause: err,
      });
    },
    dispose() {
      clock.dispose();
      if (reader && !finished) {
        finished = true;
        reader.cancel().catch(() => {});
      }
      held.length = 0;
    },
  };
}

/** The body as a stream that errors with an OllamaError when it is not Ollama's JSON. */
function _checkedBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  o: GuardOptions,
  idleWait: <T>(p: Promise<T>) => Promise<T>,
  failure: () => OllamaError | undefined,
  onFinish: () => void,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let head = "";
  let pending = "";
  let lines = 0;
  let sawDone = false;
  let started = false;
  const bad = (why: string) => badResponseError(o.baseUrl, head, why);
  const checkLine = (line: string) => {
    if (!line.trim()) return;
    lines++;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      throw bad("broken JSON");
    }
    _checkObject(data, bad);
    if ((data as { done?: unknown }).done === true) sawDone = true;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await idleWait(reader.read());
      } catch (err) {
        throw failure() ?? bodyError(o.baseUrl, err);
      }
      const failed = failure();
      if (failed) throw failed;
      if (chunk.done) {
        onFinish();
        checkLine(pending + decoder.decode());
        if (!lines) throw bad("empty answer");
        if (o.shape === "ndjson" && !sawDone) {
          throw new OllamaError(
            "bad_response",
            `Ollama at ${o.baseUrl} ended the answer before it was complete: it may have crashed or restarted (see its log)`,
            { hostDown: true },
          );
        }
        controller.close();
        return;
      }
      const text = decoder.decode(chunk.value, { stream: true });
      if (head.length < 200) head += text.slice(0, 200 - head.length);
      pending += text;
      if (!started && pending.trimStart()) {
        started = true;
        if (!pending.trimStart().startsWith("{")) throw bad("");
      }
      if (o.shape === "ndjson") {
        let nl: number;
        while ((nl = pending.indexOf("\n")) >= 0) {
          checkLine(pending.slice(0, nl));
          pending = pending.slice(nl + 1);
        }
      }
      if (pending.length > MAX_LINE_CHARS) throw bad("answer too large");
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      onFinish();
      return reader.cancel(reason);
    },
  });
}

/** Throws when `data` is not an object or is Ollama's `{"error": ...}` inside a 200 answer. */
function _checkObject(data: unknown, bad: (why: string) => OllamaError): void {
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw bad("not an object");
  const error = (data as { error?: unknown }).error;
  if (typeof error === "string") {
    throw new OllamaError("http", `Ollama failed while answering: ${snippet(error, 300)}`);
  }
}
