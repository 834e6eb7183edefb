/**
 * A scripted Ollama for tests: a real HTTP server on 127.0.0.1 that speaks Ollama's API as
 * `server/routes.go` does, replays scripted replies, records every request, and can be told to
 * fail in the ways a real server does (refuse, 500, stall, garbage, a dropped connection).
 *
 * ```ts
 * const fake = await startFakeOllama({ models: [{ name: "qwen2.5-coder:7b", contextLength: 32768 }] });
 * fake.script("src/a.py\n<<<<<<< SEARCH\n…", (req) => ({ content: "…", doneReason: "length" }));
 * // … point the code under test at fake.url …
 * fake.chats[0].options.num_ctx;   // what was asked
 * fake.mode = "stall";             // every endpoint now sends headers and nothing more
 * await fake.close();
 * ```
 *
 * Faithful details: `/api/chat` streams NDJSON (`application/x-ndjson`) chunk by chunk and ends
 * with `done: true`, `done_reason` and token counts (about 4 characters a token; a prompt longer
 * than `num_ctx` is cut the way Ollama cuts it, to about half the window); `stream: false` gives
 * one JSON object; `num_predict` cuts the reply with `done_reason: "length"`; empty `messages`
 * loads (or, with `keep_alive: 0`, unloads) the model; `/api/ps` lists loaded models with their
 * `context_length` and `expires_at` from `keep_alive`; a changed `num_ctx` reloads the model
 * (counted in `loads`); unknown models get `404 {"error":"model 'x' not found"}`.
 */
import {
  countWaiters,
  modelTime,
  type OpenStreams,
  readRequest,
  scriptedStream,
} from "./stream.ts";

/** A model the fake has installed. */
export interface FakeModelSpec {
  name: string;
  /** Trained context length, shown by `/api/show` as `<family>.context_length`; omitted if unset. */
  contextLength?: number;
  family?: string;
  parameterSize?: string;
  quantization?: string;
  size?: number;
  /** `PARAMETER num_ctx` in the model's Modelfile: the default when a request sets none. */
  numCtx?: number;
  capabilities?: string[];
}

/**
 * How the fake answers: `normal`; `error` (HTTP 500 with `errorText`); `stall` (headers, then
 * nothing); `stall_after_first` (one chunk, then nothing); `hang` (not even headers); `html` (a web
 * page); `broken_json`; `drop` (one chunk, then the connection breaks); `no_done` (the reply
 * without its final chunk).
 */
export type FakeMode =
  | "normal"
  | "error"
  | "stall"
  | "stall_after_first"
  | "hang"
  | "html"
  | "broken_json"
  | "drop"
  | "no_done";

/** One scripted reply in full. */
export interface ReplySpec {
  content: string;
  thinking?: string;
  /** Default `"stop"`, or `"length"` when `num_predict` cut the reply. */
  doneReason?: string;
  promptEvalCount?: number;
  evalCount?: number;
  /** Milliseconds between chunks for this reply. */
  chunkDelayMs?: number;
  /** Answer this request in a failure mode instead (the entry is used up either way). */
  fail?: FakeMode;
}

/** The body of an `/api/chat` request as the fake received it. */
export interface FakeChatRequest {
  model: string;
  messages: { role: string; content: string; [key: string]: unknown }[];
  options?: Record<string, unknown> & { num_ctx?: number; num_predict?: number };
  stream?: boolean;
  keep_alive?: string | number;
  [key: string]: unknown;
}

/** A scripted reply: text, a full spec, or a function of the request returning either. */
export type ScriptedReply =
  | string
  | ReplySpec
  | ((req: FakeChatRequest) => string | ReplySpec | Promise<string | ReplySpec>);

/** One request the fake received. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The body parsed as JSON, or null. */
  body: unknown;
  text: string;
  /** Milliseconds since the fake started. */
  receivedMs: number;
  /** When the answer was complete (or abandoned); unset while it streams. */
  doneMs?: number;
}

/** Options for {@linkcode startFakeOllama}. */
export interface FakeOllamaOptions {
  /** Default: one model, `qwen2.5-coder:7b` with a 32768-token context. */
  models?: FakeModelSpec[];
  /** `num_ctx` when neither the request nor the model sets one (Ollama: 4096). */
  defaultNumCtx?: number;
  /** Characters per streamed chunk. Default 8. */
  chunkChars?: number;
  /** Milliseconds between chunks. Default 0. */
  chunkDelayMs?: number;
  /** The model's time: every chat with messages is answered after this many milliseconds. */
  modelMs?: number;
  version?: string;
}

/** A running fake; see the module doc. */
export interface FakeOllama {
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** Bodies of the `/api/chat` requests, in order. */
  readonly chats: FakeChatRequest[];
  /** Failure mode for every endpoint. */
  mode: FakeMode;
  /** Failure mode for `/api/chat` only (used when `mode` is `normal`; leaves the script alone). */
  chatMode: FakeMode;
  /** The error text for mode `error`. */
  errorText: string;
  chunkDelayMs: number;
  /** Milliseconds each chat with messages takes before its answer starts (the model's time). */
  modelMs: number;
  /** How many chats are in their model time now, and the most there ever were at once. */
  readonly busy: { now: number; most: number };
  /** Installed models; edit to add or remove one. */
  models: FakeModelSpec[];
  /** How many times a model was loaded or reloaded (a changed `num_ctx` reloads). */
  readonly loads: number;
  /** Scripted replies not used yet. */
  readonly pending: number;
  /**
   * Queues replies for the next `/api/chat` requests; when none is left the fake answers with
   * {@linkcode FakeOllama.answer}, or 500 when that is unset.
   */
  script(...replies: ScriptedReply[]): void;
  /** Answers every chat the script does not (a model that answers from the prompt alone). */
  answer?: ScriptedReply;
  /** Resolves once `count` chat requests have arrived. */
  waitForChats(count?: number): Promise<void>;
  /** Stops listening; the URL then refuses connections. Same as `close`. */
  refuse(): Promise<void>;
  /** Ends every open answer and stops the server; safe to call twice. */
  close(): Promise<void>;
}

interface Loaded {
  spec: FakeModelSpec;
  numCtx: number;
  expiresAt: number;
}

const enc = new TextEncoder();
const JSON_TYPE = "application/json; charset=utf-8";
const FOREVER = Date.parse("2318-01-01T00:00:00Z");
const HTML = "<!DOCTYPE html>\n<html><head><title>Welcome to nginx!</title></head>\n" +
  "<body><h1>Welcome to nginx!</h1></body></html>\n";

/** Starts a fake Ollama on a free loopback port. */
export function startFakeOllama(opts: FakeOllamaOptions = {}): Promise<FakeOllama> {
  const started = performance.now();
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const loaded = new Map<string, Loaded>();
  /** Answers still streaming, each with the function that ends it. */
  const open: OpenStreams = new Map();
  const waiters = countWaiters(() => fake.chats.length);
  const streamed = new WeakSet<RecordedRequest>();
  let closing!: () => void;
  const closed = new Promise<void>((resolve) => closing = resolve);
  let loads = 0;
  let shutdown: Promise<void> | undefined;
  const chunkChars = opts.chunkChars ?? 8;
  const defaultNumCtx = opts.defaultNumCtx ?? 4096;

  const fake: FakeOllama = {
    url: "",
    port: 0,
    requests,
    get chats() {
      return requests.filter((r) => r.path === "/api/chat" && r.body).map((r) =>
        r.body as FakeChatRequest
      );
    },
    mode: "normal",
    chatMode: "normal",
    errorText: "model requires more system memory (9.1 GiB) than is available (3.2 GiB)",
    chunkDelayMs: opts.chunkDelayMs ?? 0,
    modelMs: opts.modelMs ?? 0,
    busy: { now: 0, most: 0 },
    models: opts.models ?? [{ name: "qwen2.5-coder:7b", contextLength: 32768 }],
    get loads() {
      return loads;
    },
    get pending() {
      return queue.length;
    },
    script: (...replies) => void queue.push(...replies),
    waitForChats: (count = 1) => waiters.wait(count),
    refuse: () => fake.close(),
    close() {
      if (!shutdown) {
        closing();
        for (const stop of [...open.values()]) stop();
        shutdown = server.shutdown();
      }
      return shutdown;
    },
  };

  const find = (name: unknown) =>
    typeof name === "string" ? fake.models.find((m) => _same(m.name, name)) : undefined;

  const stream = (
    lines: string[],
    delayMs: number,
    end: "close" | "stall",
    record: RecordedRequest,
  ): ReadableStream<Uint8Array> => {
    streamed.add(record);
    return scriptedStream(lines, {
      delayMs,
      end,
      closed,
      open,
      onFinish: () => record.doneMs ??= performance.now() - started,
    });
  };

  const failure = (
    mode: FakeMode,
    lines: string[],
    record: RecordedRequest,
  ): Response | Promise<Response> => {
    const ndjson = { "content-type": "application/x-ndjson" };
    switch (mode) {
      case "error":
        return _json({ error: fake.errorText }, 500);
      case "html":
        return new Response(HTML, { headers: { "content-type": "text/html" } });
      case "broken_json":
        return new Response(
          '{"model":"x","created_at":"2025-01-01T00:00:00Z","message":{"role":\n',
          {
            headers: ndjson,
          },
        );
      case "stall":
        return new Response(stream([], 0, "stall", record), { headers: ndjson });
      case "stall_after_first":
        return new Response(stream(lines.slice(0, 1), 0, "stall", record), { headers: ndjson });
      case "drop": {
        // promise more bytes than are sent: the client sees the connection break mid-body
        const length = String(enc.encode(lines.join("")).length + 1);
        return new Response(stream(lines.slice(0, 1), 0, "close", record), {
          headers: { ...ndjson, "content-length": length },
        });
      }
      case "no_done":
        return new Response(stream(lines.slice(0, -1), 0, "close", record), { headers: ndjson });
      case "hang":
        return closed.then(() => new Response(null, { status: 503 }));
      default:
        return _json({ error: `fake ollama: unknown mode "${mode}"` }, 500);
    }
  };

  const touch = (spec: FakeModelSpec, numCtx: number, keepAlive: unknown) => {
    const prev = loaded.get(spec.name);
    const reload = !prev || prev.numCtx !== numCtx || prev.expiresAt < Date.now();
    if (reload) loads++;
    loaded.set(spec.name, { spec, numCtx, expiresAt: Date.now() + _keepAliveMs(keepAlive) });
    return reload;
  };

  const chat = async (body: FakeChatRequest, record: RecordedRequest) => {
    const spec = find(body.model);
    if (!spec) return _json({ error: `model '${body.model}' not found` }, 404);
    const streaming = body.stream !== false;
    const numCtx = Math.min(
      _int(body.options?.num_ctx) ?? spec.numCtx ?? defaultNumCtx,
      spec.contextLength ?? Infinity,
    );
    const head = { model: body.model, created_at: new Date().toISOString() };
    const keepAliveError = _checkKeepAlive(body.keep_alive);
    if (keepAliveError) return _json({ error: keepAliveError }, 400);
    const unload = _keepAliveMs(body.keep_alive) === 0;
    if (!body.messages.length) {
      if (unload) loaded.delete(spec.name);
      else touch(spec, numCtx, body.keep_alive);
      return _json({
        ...head,
        message: { role: "assistant", content: "" },
        done_reason: unload ? "unload" : "load",
        done: true,
      });
    }
    let reply: string | ReplySpec | undefined;
    const next = fake.chatMode === "normal"
      ? queue.shift() ?? fake.answer
      : { content: "a reply cut short" };
    if (next === undefined) reply = undefined;
    else if (typeof next === "function") reply = await next(body);
    else reply = next;
    if (reply === undefined) {
      return _json({ error: "fake ollama: no scripted reply left for this chat" }, 500);
    }
    const r: ReplySpec = typeof reply === "string" ? { content: reply } : reply;
    const reloaded = touch(spec, numCtx, body.keep_alive);
    let content = r.content;
    let doneReason = r.doneReason ?? "stop";
    const predict = _int(body.options?.num_predict);
    if (predict && predict > 0 && _tokens(content) > predict) {
      content = content.slice(0, predict * 4);
      doneReason = "length";
    }
    const promptTokens = body.messages.reduce(
      (n, m) => n + _tokens(String(m.content ?? "")) + 4,
      3,
    );
    const promptEvalCount = r.promptEvalCount ??
      (promptTokens > numCtx - 1 ? numCtx - Math.floor((numCtx - 5) / 2) : promptTokens);
    const evalCount = r.evalCount ?? Math.max(1, _tokens(content));
    const loadNs = reloaded ? 850_000_000 : 12_000_000;
    const final = {
      ...head,
      message: { role: "assistant", content: streaming ? "" : content },
      done: true,
      done_reason: doneReason,
      total_duration: loadNs + promptEvalCount * 1_000_000 + evalCount * 20_000_000,
      load_duration: loadNs,
      prompt_eval_count: promptEvalCount,
      prompt_eval_duration: promptEvalCount * 1_000_000,
      eval_count: evalCount,
      eval_duration: evalCount * 20_000_000,
    };
    if (unload) loaded.delete(spec.name);
    const lines = [
      ..._pieces(r.thinking ?? "", chunkChars).map((t) => ({ content: "", thinking: t })),
      ..._pieces(content, chunkChars).map((t) => ({ content: t })),
    ].map((m) => JSON.stringify({ ...head, message: { role: "assistant", ...m }, done: false }));
    lines.push(JSON.stringify(final));
    const ndjson = lines.map((l) => l + "\n");
    const mode = r.fail ?? fake.chatMode;
    if (mode !== "normal") return failure(mode, ndjson, record);
    if (!streaming) {
      if (!r.thinking) return _json(final);
      return _json({ ...final, message: { ...final.message, thinking: r.thinking } });
    }
    return new Response(stream(ndjson, r.chunkDelayMs ?? fake.chunkDelayMs, "close", record), {
      headers: { "content-type": "application/x-ndjson" },
    });
  };

  const handle = async (req: Request): Promise<Response> => {
    const { path, text, body } = await readRequest(req);
    const record: RecordedRequest = {
      method: req.method,
      path,
      body,
      text,
      receivedMs: performance.now() - started,
    };
    requests.push(record);
    waiters.check();
    const chat = path === "/api/chat" && _hasMessages(body);
    if (chat) await modelTime(fake, closed);
    let response: Response;
    try {
      response = await route(req, path, text, body, record);
    } finally {
      if (chat) fake.busy.now--;
    }
    if (!streamed.has(record)) record.doneMs ??= performance.now() - started;
    return response;
  };

  const route = (
    req: Request,
    path: string,
    text: string,
    body: unknown,
    record: RecordedRequest,
  ): Response | Promise<Response> => {
    if (path === "/" && (req.method === "GET" || req.method === "HEAD")) {
      return new Response("Ollama is running", { headers: { "content-type": "text/plain" } });
    }
    const routes: Record<string, string> = {
      "/api/version": "GET",
      "/api/tags": "GET",
      "/api/ps": "GET",
      "/api/show": "POST",
      "/api/chat": "POST",
    };
    if (routes[path] !== req.method) {
      return new Response("404 page not found", {
        status: 404,
        headers: { "content-type": "text/plain" },
      });
    }
    if (fake.mode !== "normal") {
      const json = JSON.stringify({ version: "0.0.0" });
      return failure(fake.mode, [json.slice(0, 8), json.slice(8)], record);
    }
    if (req.method === "POST") {
      if (!text) return _json({ error: "missing request body" }, 400);
      if (body === null || typeof body !== "object") {
        return _json({
          error: `invalid character '${text.trim()[0]}' looking for beginning of value`,
        }, 400);
      }
    }
    const b = (body ?? {}) as Record<string, unknown>;
    switch (path) {
      case "/api/version":
        return _json({ version: opts.version ?? "0.12.6" });
      case "/api/tags":
        return _json({ models: fake.models.map((m) => _listEntry(m)) });
      case "/api/ps": {
        const now = Date.now();
        const models = [...loaded.values()].filter((l) => l.expiresAt > now).map((l) => ({
          ..._listEntry(l.spec),
          expires_at: new Date(l.expiresAt).toISOString(),
          size_vram: _size(l.spec),
          context_length: l.numCtx,
        }));
        return _json({ models });
      }
      case "/api/show": {
        const name = b.model ?? b.name;
        const spec = find(name);
        if (!spec) return _json({ error: `model '${name}' not found` }, 404);
        return _json(_show(spec));
      }
      default: {
        if (typeof b.model !== "string" || !b.model) {
          return _json({ error: "model is required" }, 400);
        }
        if (b.messages !== undefined && !Array.isArray(b.messages)) {
          return _json({ error: "json: cannot unmarshal into messages" }, 400);
        }
        const request = { ...b, messages: b.messages ?? [] } as unknown as FakeChatRequest;
        return chat(request, record);
      }
    }
  };

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    handle,
  );
  const port = server.addr.port;
  Object.assign(fake, { url: `http://127.0.0.1:${port}`, port });
  return Promise.resolve(fake);
}

/** A loopback URL where nothing listens (a port just opened and closed). */
export function closedUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

function _json(data: unknown, status = 200): Response {
  return new Response(JSON.stringify(data), { status, headers: { "content-type": JSON_TYPE } });
}

function _same(a: string, b: string): boolean {
  const canon = (n: string) => (n.includes(":") ? n : `${n}:latest`).toLowerCase();
  return canon(a) === canon(b);
}

function _tokens(text: string): number {
  return text ? Math.ceil(text.length / 4) : 0;
}

function _int(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? Math.floor(v) : undefined;
}

function _pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Ollama's (Go's) complaint about a `keep_alive` string that is not a duration, if any. */
function _checkKeepAlive(v: unknown): string | undefined {
  if (typeof v !== "string" || v === "0" || /^-?(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(v)) {
    return undefined;
  }
  return /^-?\d+(\.\d+)?$/.test(v)
    ? `time: missing unit in duration "${v}"`
    : `time: invalid duration "${v}"`;
}

/** Milliseconds from Ollama's `keep_alive`: seconds as a number, or a Go duration string. */
function _keepAliveMs(v: unknown): number {
  if (v === undefined || v === null) return 5 * 60_000;
  if (typeof v === "number") return v < 0 ? FOREVER - Date.now() : v * 1000;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  const s = String(v).trim();
  if (s.startsWith("-")) return FOREVER - Date.now();
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(m[1]) * units[m[2]];
  return total;
}

function _family(m: FakeModelSpec): string {
  return m.family ?? (m.name.startsWith("llama") ? "llama" : "qwen2");
}

function _size(m: FakeModelSpec): number {
  return m.size ?? 4_683_087_332;
}

function _details(m: FakeModelSpec) {
  return {
    parent_model: "",
    format: "gguf",
    family: _family(m),
    families: [_family(m)],
    parameter_size: m.parameterSize ?? "7.6B",
    quantization_level: m.quantization ?? "Q4_K_M",
  };
}

function _listEntry(m: FakeModelSpec) {
  const digest = Array.from(m.name).reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  return {
    name: m.name,
    model: m.name,
    modified_at: "2025-06-01T10:00:00.000000000Z",
    size: _size(m),
    digest: digest.toString(16).padStart(8, "0").repeat(8),
    details: _details(m),
  };
}

function _show(m: FakeModelSpec) {
  const family = _family(m);
  const params = [
    ...(m.numCtx ? [["num_ctx", String(m.numCtx)]] : []),
    ["stop", '"<|im_start|>"'],
    ["stop", '"<|im_end|>"'],
  ].map(([k, v]) => `${k.padEnd(30)} ${v}`).join("\n");
  const info: Record<string, unknown> = {
    "general.architecture": family,
    "general.file_type": 15,
    "general.parameter_count": 7_615_616_512,
    "general.quantization_version": 2,
    [`${family}.attention.head_count`]: 28,
    [`${family}.block_count`]: 28,
    [`${family}.embedding_length`]: 3584,
    "tokenizer.ggml.model": "gpt2",
  };
  if (m.contextLength) info[`${family}.context_length`] = m.contextLength;
  return {
    license: "Apache License\nVersion 2.0, January 2004",
    modelfile: `# Modelfile generated by "ollama show"\nFROM ${m.name}\n`,
    parameters: params,
    template: "{{- range .Messages }}<|im_start|>{{ .Role }}\n{{ .Content }}<|im_end|>\n{{ end }}",
    details: _details(m),
    model_info: info,
    capabilities: m.capabilities ?? ["completion", "tools", "insert"],
    modified_at: "2025-06-01T10:00:00.000000000Z",
  };
}

/** Whether a chat body carries messages (a load or unload has none). */
function _hasMessages(body: unknown): boolean {
  const messages = (body as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) && messages.length > 0;
}
