/**
 * What every backend's HTTP call to a model server shares (docs/ARCHITECTURE.md, "Delegation"):
 * the default timeouts, and the clock of one call: the caller's AbortSignal, an overall timeout,
 * a timeout around each wait (headers, each body read), and the first failure recorded once so that
 * it ends every wait at once. `lib/ollama/transport.ts` and `lib/openai/transport.ts` are the thin
 * per-backend parts (how a body must look, how an error status reads).
 */
import { ModelError } from "./errors.ts";

/** Timeouts of the calls to one model server, in seconds; every one is optional. */
export interface ModelTimeouts {
  /** How long a quick call (listings, facts) may wait for the server to answer. Default 10. */
  connectTimeoutS?: number;
  /**
   * How long a chat may wait for its first chunk: the server answers only once the model is
   * loaded and has read the prompt, which can take minutes on a CPU (`first_token_timeout_s` in
   * the config). Default 300 (capped by `requestTimeoutS`).
   */
  firstChunkTimeoutS?: number;
  /** How long a chat may go without a chunk once the reply is streaming. Default 120. */
  idleTimeoutS?: number;
  /** How long a whole chat may take (`request_timeout_s` in the config). Default 600. */
  requestTimeoutS?: number;
}

/** Default timeouts, in seconds, of every backend. */
export const MODEL_TIMEOUTS: Readonly<Required<ModelTimeouts>> = Object.freeze({
  connectTimeoutS: 10,
  firstChunkTimeoutS: 300,
  idleTimeoutS: 120,
  requestTimeoutS: 600,
});

/** The timeouts of a chat, in seconds, as the backends' `streamChat` take them. */
export interface ChatTimeouts {
  firstChunkS: number;
  idleS: number;
  requestS: number;
}

/** `opts` over the defaults. */
export function withDefaults(opts: ModelTimeouts = {}): Required<ModelTimeouts> {
  const out = { ...MODEL_TIMEOUTS };
  for (const [k, v] of Object.entries(opts)) {
    if (v !== undefined) (out as Record<string, number>)[k] = v;
  }
  return out;
}

/** The chat timeouts of `t` (see {@linkcode ChatTimeouts}). */
export function chatTimeouts(t: Required<ModelTimeouts>): ChatTimeouts {
  return { firstChunkS: t.firstChunkTimeoutS, idleS: t.idleTimeoutS, requestS: t.requestTimeoutS };
}

/** Options for {@linkcode startClock}. */
export interface ClockOptions<E extends ModelError> {
  /** The caller's signal; when it fires the call ends with `cancelled()`. */
  signal?: AbortSignal;
  /** Milliseconds for the whole call, body included. */
  totalMs: number;
  /** The error for the overall timeout. */
  total: () => E;
  /** The error for a cancel. */
  cancelled: () => E;
}

/** The clock of one call; see {@linkcode startClock}. */
export interface CallClock<E extends ModelError> {
  /** Aborted with the failure when the call fails: pass it to `fetch`. */
  readonly signal: AbortSignal;
  /** The failure that ended the call, if any. */
  readonly failure: E | undefined;
  /** Records `err` as the failure (the first one wins) and ends every wait. */
  fail(err: E): void;
  /** `p`, or the failure: a timer of `ms` fails the call with `timeout()` while it waits. */
  wait<T>(p: Promise<T>, ms: number, timeout: () => E): Promise<T>;
  /** Clears the timers and stops listening to the caller's signal; safe to call twice. */
  dispose(): void;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/** A timer delay for `ms` milliseconds: clamped to what `setTimeout` takes, never negative. */
export function timerMs(ms: number): number {
  return Number.isFinite(ms) ? Math.max(0, Math.min(ms, MAX_TIMER_MS)) : MAX_TIMER_MS;
}

/** Starts the clock of one call; the overall timeout runs from now. */
export function startClock<E extends ModelError>(o: ClockOptions<E>): CallClock<E> {
  const ctl = new AbortController();
  let failure: E | undefined;
  let wake!: (err: E) => void;
  const failed = new Promise<never>((_, reject) => (wake = reject));
  failed.catch(() => {});
  const fail = (err: E) => {
    if (failure) return;
    failure = err;
    ctl.abort(err);
    wake(err);
  };
  const onAbort = () => fail(o.cancelled());
  if (o.signal?.aborted) onAbort();
  else o.signal?.addEventListener("abort", onAbort, { once: true });
  const total = setTimeout(() => fail(o.total()), timerMs(o.totalMs));
  return {
    signal: ctl.signal,
    get failure() {
      return failure;
    },
    fail,
    wait<T>(p: Promise<T>, ms: number, timeout: () => E): Promise<T> {
      const timer = setTimeout(() => fail(timeout()), timerMs(ms));
      return Promise.race([p, failed]).finally(() => clearTimeout(timer));
    },
    dispose() {
      clearTimeout(total);
      o.signal?.removeEventListener("abort", onAbort);
    },
  };
}

/** Most characters of an error answer that are read. */
export const MAX_ERROR_BODY = 64 * 1024;

/**
 * Reads up to {@linkcode MAX_ERROR_BODY} characters of a body with `read` (which returns undefined
 * at its end), then stops: an error answer is shown in a sentence, never held whole.
 */
export async function readCapped(read: () => Promise<Uint8Array | undefined>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  while (text.length < MAX_ERROR_BODY) {
    const piece = await read();
    if (!piece) return text + decoder.decode();
    text += decoder.decode(piece, { stream: true });
  }
  return text;
}
