/**
 * A test-only model provider: an Anthropic-style Messages API (`POST /v1/messages` streamed,
 * `GET /v1/models`), written as a newcomer would add one (docs/PROVIDERS.md): one record, its
 * backend on `lib/model/`'s shared HTTP transport (`openHttpCall`) and SSE reader (`pumpSse`),
 * registered by one line (`PROVIDERS.push(anthropic)`). Its own key `anthropic_version` is sent as
 * the `anthropic-version` header; it shares `base_url`, `api_key_env` and `context_length` with
 * the OpenAI-compatible provider.
 */
import {
  chatTimeouts,
  type HostReport,
  type HttpErrors,
  type ModelChatRequest,
  type ModelChatResult,
  ModelError,
  type ModelTimeouts,
  notifyChunk,
  openHttpCall,
  type Provider,
  pumpSse,
  readJson,
  snippet,
  startProgress,
  tokenCount,
  withDefaults,
} from "../../lib/model/mod.ts";
import type { ModelSettings } from "../../lib/config.ts";
import { normalizeBaseUrl } from "../../lib/openai/mod.ts";

/** Where it listens when the configuration does not say. */
export const DEFAULT_ANTHROPIC_HOST = "http://127.0.0.1:4141/v1";

const ERRORS: HttpErrors = {
  fetch: (base, err) =>
    new ModelError("unreachable", `the Messages server at ${base} is not reachable: start it`, {
      cause: err,
    }),
  broke: (base, err) =>
    new ModelError("unreachable", `the Messages server at ${base} broke off its answer`, {
      cause: err,
    }),
  status: (base, o) => {
    let said = o.text;
    try {
      said = JSON.parse(o.text).error?.message ?? o.text;
    } catch { /* not JSON: as it is */ }
    const kind = o.status === 401 ? "auth" : o.status === 404 ? "model_missing" : "http";
    return new ModelError(
      kind,
      `the Messages server at ${base} answered ${o.status}: ${snippet(said)}`,
      {
        status: o.status,
      },
    );
  },
};

/** The headers every request carries: the key and the API version. */
function _headers(settings: ModelSettings): Record<string, string> {
  const env = settings.api_key_env;
  return {
    "x-api-key": (env ? Deno.env.get(env) : undefined) ?? "local",
    "anthropic-version": String(settings.options?.anthropic_version ?? "2023-06-01"),
  };
}

async function _models(base: string, settings: ModelSettings, timeoutS: number) {
  const message = `the Messages server at ${base} did not answer within ${timeoutS} s`;
  const spec = {
    base,
    path: "/models",
    headers: _headers(settings),
    headersMs: timeoutS * 1000,
    totalMs: timeoutS * 3000,
    messages: { headers: message, total: message },
  };
  const call = await openHttpCall(spec, ERRORS);
  try {
    const { data } = await readJson(call, spec);
    const list = (data as { data?: { id: string }[] })?.data ?? [];
    return list.map((m) => m.id);
  } finally {
    call.dispose();
  }
}

async function _chat(
  base: string,
  settings: ModelSettings,
  t: ModelTimeouts,
  req: ModelChatRequest,
): Promise<ModelChatResult> {
  const started = performance.now();
  const timeouts = chatTimeouts(withDefaults(t));
  const call = await openHttpCall({
    base,
    path: "/messages",
    headers: _headers(settings),
    body: {
      model: req.model,
      system: req.messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n"),
      messages: req.messages.filter((m) => m.role !== "system"),
      max_tokens: req.maxTokens,
      temperature: req.temperature,
      stream: true,
    },
    model: req.model,
    signal: req.signal,
    headersMs: timeouts.firstChunkS * 1000,
    totalMs: timeouts.requestS * 1000,
    messages: { headers: "no answer", total: "too slow" },
  }, ERRORS);
  const progress = startProgress();
  let content = "";
  let stop = "";
  let input = 0;
  let output = 0;
  let stopped = false;
  try {
    await pumpSse(call, {
      timeouts,
      hasText: () => content.length > 0,
      done: () => stopped,
      bad: (head, why) => new ModelError("bad_response", `not a Messages stream: ${why ?? head}`),
      onData(data) {
        const e = JSON.parse(data);
        if (e.type === "message_start") input = tokenCount(e.message?.usage?.input_tokens);
        if (e.type === "content_block_delta" && e.delta?.type === "text_delta") {
          content += e.delta.text;
          progress.chunks++;
          progress.chars = content.length;
          progress.delta = e.delta.text;
          notifyChunk(req.onChunk, progress);
        }
        if (e.type === "message_stop") stopped = true;
        if (e.type === "message_delta") {
          output = tokenCount(e.usage?.output_tokens);
          stop = e.delta?.stop_reason === "max_tokens" ? "length" : "stop";
        }
      },
    });
  } finally {
    call.dispose();
  }
  return {
    content,
    thinking: "",
    doneReason: stop,
    promptEvalCount: input,
    evalCount: output,
    estimated: false,
    wallSecs: (performance.now() - started) / 1000,
    chunks: progress.chunks,
    host: base,
  };
}

/** The test-only provider's record. */
export const anthropic: Provider = {
  name: "anthropic",
  label: "Messages server",
  hostKey: "base_url",
  defaultHost: DEFAULT_ANTHROPIC_HOST,
  example: DEFAULT_ANTHROPIC_HOST,
  keys: ["api_key_env", "context_length", "anthropic_version"],
  normalize: normalizeBaseUrl,
  create(url, settings, t) {
    const window = settings.context_length ?? 200_000;
    const connect = withDefaults(t).connectTimeoutS;
    return {
      url,
      async facts(model) {
        const served = await _models(url, settings, connect);
        if (!served.includes(model)) {
          throw new ModelError("model_missing", `model "${model}" is not served at ${url}`);
        }
        return { model, contextLength: window, loaded: window, fixedContext: true };
      },
      chat: (req) => _chat(url, settings, t, req),
      async report(model): Promise<HostReport> {
        try {
          const served = await _models(url, settings, connect);
          return {
            url,
            reachable: true,
            server: "Messages server",
            served,
            ...(model
              ? { model_installed: served.includes(model), model_loaded: true, context: window }
              : {}),
          };
        } catch (err) {
          return { url, reachable: false, error: String((err as Error).message) };
        }
      },
    };
  },
  status: {
    about: (report) => ({ server: report.server }),
    contextKey: "context",
    missing: (model, report) => `model "${model}" is not served at ${report.url}`,
    down: "start the Messages server at base_url",
  },
  init: {
    targets: [DEFAULT_ANTHROPIC_HOST],
    async probe(url, timeoutS) {
      try {
        const served = await _models(url, {} as ModelSettings, timeoutS);
        return {
          name: "Messages server",
          answered: true,
          models: served.map((name) => ({ name })),
        };
      } catch {
        return { name: "Messages server", answered: false };
      }
    },
    pull: (model) => `serve ${model} there`,
    help: () => 'start a Messages server and set "provider": "anthropic"',
  },
};
