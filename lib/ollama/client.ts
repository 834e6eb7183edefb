/**
 * The Ollama client (re-exported by `mod.ts`): streaming chat with timeouts and cancellation, and the model
 * listings (`/api/tags`, `/api/ps`, `/api/show`, `/api/version`), all through `npm:ollama`.
 *
 * Every failure is an {@linkcode OllamaError} whose `kind` says what happened and whose message
 * says what to do ("start `ollama serve`", "run `ollama pull x`", …). Each call gets its own
 * guarded `fetch`, so a caller's AbortSignal ends it at once, even before Ollama has answered.
 *
 * ```ts
 * const ollama = createOllama("http://127.0.0.1:11434", { requestTimeoutS: config.request_timeout_s });
 * const info = await ollama.show(config.model);       // also proves Ollama is up, within 10 s
 * const reply = await ollama.chat({ model, messages, options: { num_ctx: 8192 }, signal });
 * if (reply.doneReason === "length") warn("the reply was cut off");
 * ```
 */
import type { Ollama } from "ollama";
import { type ChatRequest, type ChatResult, loadOllama, streamChat } from "./chat.ts";
import {
  type InstalledModel,
  type LoadedModel,
  type ModelInfo,
  parsePs,
  parseShow,
  parseTags,
  parseVersion,
} from "./models.ts";
import { guardCall } from "./transport.ts";
import { chatTimeouts, type ModelTimeouts, withDefaults } from "../model/mod.ts";

/** Timeouts, in seconds; every one is optional (defaults: `MODEL_TIMEOUTS` of `lib/model/`). */
export type OllamaOptions = ModelTimeouts;

/** A per-call option for the quick calls. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** An Ollama server at one base URL. Create it with {@linkcode createOllama}. */
export interface OllamaClient {
  /** The base URL, e.g. `http://127.0.0.1:11434`. */
  readonly baseUrl: string;
  /** Streams one chat and returns the whole reply with Ollama's token counts and timings. */
  chat(req: ChatRequest): Promise<ChatResult>;
  /** Installed models (`/api/tags`). */
  tags(opts?: CallOptions): Promise<InstalledModel[]>;
  /** Models loaded in memory now, with the context length each is loaded with (`/api/ps`). */
  ps(opts?: CallOptions): Promise<LoadedModel[]>;
  /** One model's details; fails with kind `model_missing` when it is not installed. */
  show(model: string, opts?: CallOptions): Promise<ModelInfo>;
  /** Ollama's version string (`/api/version`). */
  version(opts?: CallOptions): Promise<string>;
}

/**
 * A client for Ollama at `baseUrl` (already normalised, as `loadConfig` does). Creating it does
 * no I/O; each method is one HTTP request.
 */
export function createOllama(baseUrl: string, opts: OllamaOptions = {}): OllamaClient {
  const base = baseUrl.replace(/\/+$/, "");
  const t = withDefaults(opts);
  const quick = <T>(
    signal: AbortSignal | undefined,
    model: string | undefined,
    call: (ollama: Ollama) => Promise<unknown>,
    parse: (data: unknown, baseUrl: string) => T,
  ) => _quickCall(base, t.connectTimeoutS, { signal, model }, call, parse);
  return {
    baseUrl: base,
    chat: (req) => streamChat(base, req, chatTimeouts(t)),
    tags: (o = {}) => quick(o.signal, undefined, (ol) => ol.list(), parseTags),
    ps: (o = {}) => quick(o.signal, undefined, (ol) => ol.ps(), parsePs),
    show: (model, o = {}) => quick(o.signal, model, (ol) => ol.show({ model }), parseShow),
    version: (o = {}) => quick(o.signal, undefined, (ol) => ol.version(), parseVersion),
  };
}

async function _quickCall<T>(
  baseUrl: string,
  timeoutS: number,
  o: { signal?: AbortSignal; model?: string },
  call: (ollama: Ollama) => Promise<unknown>,
  parse: (data: unknown, baseUrl: string) => T,
): Promise<T> {
  const message =
    `Ollama at ${baseUrl} did not answer within ${timeoutS} s: check that \`ollama serve\` is running and responsive`;
  const guard = guardCall({
    baseUrl,
    signal: o.signal,
    headersMs: timeoutS * 1000,
    idleMs: timeoutS * 1000,
    totalMs: timeoutS * 3000,
    model: o.model,
    shape: "json",
    timeoutMessages: { headers: message, idle: message, total: message },
  });
  try {
    const data = await call(new (await loadOllama())({ host: baseUrl, fetch: guard.fetch }));
    return parse(data, baseUrl);
  } catch (err) {
    throw guard.explain(err);
  } finally {
    guard.dispose();
  }
}
