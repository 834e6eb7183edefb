/**
 * A scripted OpenAI-compatible model server for tests: a real HTTP server on 127.0.0.1 that
 * answers `/v1/chat/completions` (SSE streaming or one JSON), `/v1/models`, and, by flavor,
 * llama-server's `/props` and `/health` or LM Studio's `/api/v0/models`. It replays scripted
 * replies, records every request, and fails the ways real servers do.
 *
 * ```ts
 * const fake = await startFakeOpenAI({ flavor: "llama-server", models: [{ id: "qwen", contextLength: 16384 }] });
 * fake.script("calc.py\n<<<<<<< SEARCH\n…", { content: "…", finishReason: "length" });
 * // … point the code under test at fake.baseUrl (ends in /v1) …
 * fake.chats[0].max_tokens;   // what was asked
 * await fake.kill();          // drop every open stream mid-answer, then stop listening
 * ```
 *
 * Faithful details (from llama.cpp's `tools/server` README and captured streams, vLLM's and
 * LM Studio's documented answers and bug reports): chunks are
 * `data: {json}\n\n` with `object: "chat.completion.chunk"`; the first chunk carries
 * `delta.role`, the last an empty delta and `finish_reason`; `data: [DONE]` ends the stream.
 * Usage: llama-server puts `usage` (and `timings`) on the finish chunk; vLLM and LM Studio send
 * a separate chunk with `choices: []` only when `stream_options.include_usage` is true.
 * Reasoning: llama-server and LM Studio send `delta.reasoning_content`, vLLM `delta.reasoning`.
 * `max_tokens` cuts the reply with `finish_reason: "length"`. Errors use each server's body:
 * llama-server `{"error":{"code","message","type"}}`, vLLM `{"object":"error","message",…}`,
 * LM Studio `{"error":{"message","type","param","code"}}`.
 */
import {
  countWaiters,
  modelTime,
  type OpenStreams,
  readRequest,
  scriptedStream,
} from "./stream.ts";

/** Which server the fake imitates. */
export type FakeFlavor = "llama-server" | "vllm" | "lmstudio";

/** A model the fake serves. */
export interface FakeServedModel {
  id: string;
  /** The served window: llama-server `n_ctx`, vLLM `max_model_len`, LM Studio loaded context. */
  contextLength?: number;
  /** LM Studio only: whether it is loaded now. Default true. */
  loaded?: boolean;
}

/** How a request fails instead of answering normally. */
export type FakeFailure =
  /** HTTP 500 with the flavor's error body. */
  | "error"
  /** HTTP 503 `Loading model` (llama-server while it loads). */
  | "loading"
  /** Headers, then nothing. */
  | "stall"
  /** The role chunk and one content chunk, then nothing. */
  | "stall_after_first"
  /** A few chunks, then the connection breaks (the server died). */
  | "drop"
  /** Every chunk but `[DONE]` and the finish chunk, then a clean close. */
  | "no_done"
  /** An `{"error": …}` event inside the 200 stream. */
  | "stream_error"
  /** An `error: {…}` line inside the 200 stream, as older llama-server builds send. */
  | "stream_error_line"
  /** Not even headers. */
  | "hang";

/** One scripted reply. */
export interface FakeReply {
  content: string;
  /** Sent as reasoning deltas before the content. */
  reasoning?: string;
  /** Default `"stop"`; `"length"` also when `max_tokens` cuts the reply. */
  finishReason?: string;
  promptTokens?: number;
  completionTokens?: number;
  /** Milliseconds between chunks. */
  chunkDelayMs?: number;
  fail?: FakeFailure;
}

/** A scripted reply: text, a full reply, or a function of the request body returning either. */
export type FakeScripted =
  | string
  | FakeReply
  | ((body: FakeChatBody) => string | FakeReply | Promise<string | FakeReply>);

/** The body of a chat request as received. */
export interface FakeChatBody {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  temperature?: number;
  [key: string]: unknown;
}

/** One request the fake received. */
export interface FakeRequest {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
  /** Milliseconds since the fake started. */
  receivedMs: number;
  /** When the answer was complete or abandoned; unset while it streams. */
  doneMs?: number;
}

/** Options for {@linkcode startFakeOpenAI}. */
export interface FakeOpenAIOptions {
  flavor?: FakeFlavor;
  models?: FakeServedModel[];
  /** When set, every request but `/health` needs `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Characters per content chunk. Default 8. */
  chunkChars?: number;
  chunkDelayMs?: number;
  /** Send no usage at all, as some servers do. */
  noUsage?: boolean;
  /** The model's time: every chat is answered after this many milliseconds. */
  modelMs?: number;
}

/** A running fake. */
export interface FakeOpenAI {
  readonly flavor: FakeFlavor;
  /** `http://127.0.0.1:<port>/v1`: what `base_url` is set to. */
  readonly baseUrl: string;
  readonly origin: string;
  readonly port: number;
  readonly requests: FakeRequest[];
  /** Chat request bodies, in order. */
  readonly chats: FakeChatBody[];
  models: FakeServedModel[];
  /** Failure for every chat request (the script is left alone). */
  chatFailure?: FakeFailure;
  /** Milliseconds each chat takes before its answer starts (the model's time). */
  modelMs: number;
  /** How many chats are in their model time now, and the most there ever were at once. */
  readonly busy: { now: number; most: number };
  /** Failure for every endpoint. */
  failure?: FakeFailure;
  readonly pending: number;
  script(...replies: FakeScripted[]): void;
  waitForChats(count?: number): Promise<void>;
  /**
   * Dies: every open answer ends mid-stream (the client sees the connection drop, its
   * content-length unmet) and the port refuses connections from now on.
   */
  kill(): Promise<void>;
  /** Same as `kill`; for the end of a test. */
  close(): Promise<void>;
}

const enc = new TextEncoder();
const SSE = { "content-type": "text/event-stream", "cache-control": "no-cache" };

/** Starts a fake OpenAI-compatible server on a free loopback port. */
export function startFakeOpenAI(opts: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const flavor = opts.flavor ?? "llama-server";
  const started = performance.now();
  const queue: FakeScripted[] = [];
  const requests: FakeRequest[] = [];
  const open: OpenStreams = new Map();
  const waiters = countWaiters(() => fake.chats.length);
  let closing!: () => void;
  const closed = new Promise<void>((r) => closing = r);
  let shutdown: Promise<void> | undefined;
  const chunkChars = opts.chunkChars ?? 8;
  const now = () => performance.now() - started;

  const stop = () => {
    if (!shutdown) {
      closing();
      for (const end of [...open.values()]) end();
      shutdown = server.shutdown();
    }
    return shutdown;
  };

  const fake: FakeOpenAI = {
    flavor,
    baseUrl: "",
    origin: "",
    port: 0,
    requests,
    modelMs: opts.modelMs ?? 0,
    busy: { now: 0, most: 0 },
    get chats() {
      return requests.filter((r) => r.path === "/v1/chat/completions" && r.body).map((r) =>
        r.body as FakeChatBody
      );
    },
    models: opts.models ?? [{ id: "qwen2.5-coder-7b-instruct", contextLength: 32768 }],
    get pending() {
      return queue.length;
    },
    script: (...replies) => void queue.push(...replies),
    waitForChats: (count = 1) => waiters.wait(count),
    kill: () => stop(),
    close: () => stop(),
  };

  const errorBody = (status: number, message: string, type: string) => {
    if (flavor === "vllm") {
      return { object: "error", message, type, param: null, code: status };
    }
    if (flavor === "lmstudio") return { error: { message, type, param: null, code: null } };
    return { error: { code: status, message, type } };
  };
  const fail = (status: number, message: string, type: string) =>
    _json(errorBody(status, message, type), status);

  /**
   * An SSE answer of `events`. Its content-length is exact when the stream ends cleanly, and one
   * byte more when it stalls or breaks, so that ending it early reads as a dropped connection.
   */
  const stream = (
    events: string[],
    record: FakeRequest,
    o: { delayMs: number; end: "close" | "stall" | "break" },
  ): Response => {
    const bytes = events.map((e) => enc.encode(e));
    const length = bytes.reduce((n, b) => n + b.length, 0) + (o.end === "close" ? 0 : 1);
    const body = scriptedStream(bytes, {
      delayMs: o.delayMs,
      end: o.end === "stall" ? "stall" : "close",
      closed,
      open,
      onFinish: () => record.doneMs ??= now(),
    });
    return new Response(body, { headers: { ...SSE, "content-length": String(length) } });
  };

  const chat = async (body: FakeChatBody, record: FakeRequest): Promise<Response> => {
    const model = fake.models.find((m) => m.id === body.model);
    // llama-server serves its one model whatever the name; the others check it.
    if (!model && flavor !== "llama-server") {
      if (flavor === "vllm") {
        return fail(404, `The model \`${body.model}\` does not exist.`, "NotFoundError");
      }
      return _json({
        error: {
          message: `Model "${body.model}" not found. Please specify a valid model.`,
          type: "invalid_request_error",
          param: "model",
          code: "model_not_found",
        },
      }, 404);
    }
    const served = model ?? fake.models[0];
    const next = fake.chatFailure
      ? { content: "a reply cut short", fail: fake.chatFailure }
      : queue.shift();
    let reply: string | FakeReply | undefined;
    if (typeof next === "function") reply = await next(body);
    else reply = next;
    if (reply === undefined) {
      return fail(500, "fake server: no scripted reply left", "server_error");
    }
    const r: FakeReply = typeof reply === "string" ? { content: reply } : reply;
    const promptTokens = r.promptTokens ??
      body.messages.reduce((n, m) => n + _tokens(String(m.content ?? "")) + 4, 3);
    if (served.contextLength && promptTokens > served.contextLength) {
      if (flavor === "llama-server") {
        return _json({
          error: {
            code: 400,
            message:
              "the request exceeds the available context size. try increasing the context size or enable context shift",
            type: "exceed_context_size_error",
            n_prompt_tokens: promptTokens,
            n_ctx: served.contextLength,
          },
        }, 400);
      }
      return fail(
        400,
        `This model's maximum context length is ${served.contextLength} tokens. However, your request has ${promptTokens} input tokens.`,
        "BadRequestError",
      );
    }
    let content = r.content;
    let finish = r.finishReason ?? "stop";
    const max = typeof body.max_tokens === "number" && body.max_tokens > 0 ? body.max_tokens : 0;
    if (max && _tokens(content) > max) {
      content = content.slice(0, max * 4);
      finish = "length";
    }
    const completionTokens = r.completionTokens ??
      Math.max(1, _tokens((r.reasoning ?? "") + content));
    const usage = {
      completion_tokens: completionTokens,
      prompt_tokens: promptTokens,
      total_tokens: promptTokens + completionTokens,
    };
    const id = `chatcmpl-${record.receivedMs.toFixed(0)}`;
    const head = {
      id,
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model: served.id,
    };
    const mode = r.fail;
    if (mode === "error") return fail(500, "CUDA error: out of memory", "server_error");
    if (mode === "loading") return fail(503, "Loading model", "unavailable_error");
    if (mode === "hang") return closed.then(() => new Response(null, { status: 503 }));
    if (body.stream !== true) {
      const message: Record<string, unknown> = { role: "assistant", content };
      if (r.reasoning) message[_reasoningKey(flavor)] = r.reasoning;
      return _json({
        ...head,
        object: "chat.completion",
        choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
        ...(opts.noUsage ? {} : { usage }),
      });
    }
    const chunk = (delta: Record<string, unknown>, finishReason: string | null, extra = {}) =>
      `data: ${
        JSON.stringify({
          ...head,
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
          ...extra,
        })
      }\n\n`;
    const events = [chunk({ role: "assistant", content: null }, null)];
    const key = _reasoningKey(flavor);
    for (const piece of _pieces(r.reasoning ?? "", chunkChars)) {
      events.push(chunk({ [key]: piece }, null));
    }
    for (const piece of _pieces(content, chunkChars)) events.push(chunk({ content: piece }, null));
    const includeUsage = body.stream_options?.include_usage === true && !opts.noUsage;
    if (flavor === "llama-server" && !opts.noUsage) {
      events.push(chunk({}, finish, {
        usage,
        timings: { prompt_n: promptTokens, predicted_n: completionTokens },
      }));
    } else {
      events.push(chunk({}, finish));
      if (includeUsage) {
        events.push(`data: ${JSON.stringify({ ...head, choices: [], usage })}\n\n`);
      }
    }
    events.push("data: [DONE]\n\n");
    const delayMs = r.chunkDelayMs ?? opts.chunkDelayMs ?? 0;
    switch (mode) {
      case "stall":
        return stream([], record, { delayMs, end: "stall" });
      case "stall_after_first":
        return stream(events.slice(0, 2), record, { delayMs, end: "stall" });
      case "drop":
        return stream(events.slice(0, 3), record, { delayMs, end: "break" });
      case "no_done":
        return stream(events.slice(0, -3), record, { delayMs, end: "close" });
      case "stream_error": {
        const error = `data: ${
          JSON.stringify(errorBody(500, "llama_decode failed", "server_error"))
        }\n\n`;
        return stream([...events.slice(0, 2), error], record, { delayMs, end: "close" });
      }
      case "stream_error_line": {
        const body = errorBody(500, "llama_decode failed", "server_error");
        const line = `error: ${JSON.stringify((body as { error?: unknown }).error ?? body)}\n\n`;
        return stream([...events.slice(0, 2), line], record, { delayMs, end: "close" });
      }
    }
    return stream(events, record, { delayMs, end: "close" });
  };

  const modelsList = () => ({
    object: "list",
    data: fake.models.map((m) => {
      if (flavor === "vllm") {
        return {
          id: m.id,
          object: "model",
          created: 1736792100,
          owned_by: "vllm",
          root: m.id,
          parent: null,
          max_model_len: m.contextLength ?? 4096,
        };
      }
      if (flavor === "llama-server") {
        return {
          id: m.id,
          object: "model",
          created: 1735142223,
          owned_by: "llamacpp",
          meta: { vocab_type: 2, n_vocab: 151936, n_ctx_train: 131072, n_params: 7615616512 },
        };
      }
      return { id: m.id, object: "model", owned_by: "organization_owner" };
    }),
  });

  const route = async (req: Request, path: string, record: FakeRequest): Promise<Response> => {
    if (fake.failure === "hang") return closed.then(() => new Response(null, { status: 503 }));
    if (fake.failure === "stall") {
      return stream([], record, { delayMs: 0, end: "stall" });
    }
    if (fake.failure === "error") return fail(500, "internal server error", "server_error");
    if (flavor === "llama-server" && (path === "/health" || path === "/v1/health")) {
      return fake.failure === "loading"
        ? fail(503, "Loading model", "unavailable_error")
        : _json({ status: "ok" });
    }
    if (opts.apiKey && req.headers.get("authorization") !== `Bearer ${opts.apiKey}`) {
      if (flavor === "llama-server") return fail(401, "Invalid API Key", "authentication_error");
      if (flavor === "vllm") return _json({ error: "Unauthorized" }, 401);
      return _json({
        error: {
          message: "Invalid API key",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      }, 401);
    }
    if (fake.failure === "loading") return fail(503, "Loading model", "unavailable_error");
    if (req.method === "GET" && path === "/v1/models") return _json(modelsList());
    if (req.method === "GET" && path === "/props" && flavor === "llama-server") {
      const m = fake.models[0];
      return _json({
        default_generation_settings: { id: 0, id_task: -1, n_ctx: m?.contextLength ?? 4096 },
        total_slots: 1,
        model_path: m?.id ?? "",
        build_info: "b6881-8b11deea4",
        is_sleeping: false,
      });
    }
    if (req.method === "GET" && path === "/api/v0/models" && flavor === "lmstudio") {
      return _json({
        object: "list",
        data: fake.models.map((m) => ({
          id: m.id,
          object: "model",
          type: "llm",
          publisher: "lmstudio-community",
          arch: "qwen2",
          compatibility_type: "gguf",
          quantization: "Q4_K_M",
          state: m.loaded === false ? "not-loaded" : "loaded",
          max_context_length: 131072,
          ...(m.loaded === false ? {} : { loaded_context_length: m.contextLength ?? 4096 }),
        })),
      });
    }
    if (req.method === "POST" && path === "/v1/chat/completions") {
      const b = record.body as FakeChatBody | null;
      if (!b || typeof b.model !== "string" || !Array.isArray(b.messages)) {
        return fail(400, "'messages' is required", "invalid_request_error");
      }
      await modelTime(fake, closed);
      try {
        return await chat(b, record);
      } finally {
        fake.busy.now--;
      }
    }
    return fail(404, "File Not Found", "not_found_error");
  };

  const handle = async (req: Request): Promise<Response> => {
    const { path, body } = await readRequest(req);
    const record: FakeRequest = {
      method: req.method,
      path,
      headers: req.headers,
      body,
      receivedMs: now(),
    };
    requests.push(record);
    waiters.check();
    const res = await route(req, path, record);
    if (!res.body || res.headers.get("content-type") !== SSE["content-type"]) {
      record.doneMs ??= now();
    }
    return res;
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handle);
  const port = server.addr.port;
  const origin = `http://127.0.0.1:${port}`;
  Object.assign(fake, { origin, baseUrl: `${origin}/v1`, port });
  return Promise.resolve(fake);
}

function _reasoningKey(flavor: FakeFlavor): string {
  return flavor === "vllm" ? "reasoning" : "reasoning_content";
}

function _json(data: unknown, status = 200): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

function _tokens(text: string): number {
  return text ? Math.ceil(text.length / 4) : 0;
}

function _pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
