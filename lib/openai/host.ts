/**
 * An OpenAI-compatible model server (llama.cpp's llama-server, LM Studio, vLLM, a LiteLLM proxy)
 * as a {@linkcode ModelHost}: `POST /chat/completions` streamed over SSE, and the served models
 * and context window read from `/v1/models`, llama-server's `/props` or LM Studio's
 * `/api/v0/models`.
 *
 * ```ts
 * const host = createOpenAIHost("http://127.0.0.1:8080/v1", { apiKeyEnv: "LLAMA_KEY" });
 * const facts = await host.facts("qwen2.5-coder-7b");   // proves it is up and serves the model
 * const reply = await host.chat({ model: facts.model, messages, contextLength: 8192, maxTokens: 2048, temperature: 0.1 });
 * ```
 *
 * Requires `--allow-net` for the host, and `--allow-env` for the key's variable when one is named.
 */
import {
  chatTimeouts,
  type HostReport,
  ModelError,
  type ModelFacts,
  type ModelHost,
  type ModelTimeouts,
  withDefaults,
} from "../model/mod.ts";
import { streamChat } from "./chat.ts";
import { badResponseError, type KeyInfo, keyUnsetError, notServedError } from "./errors.ts";
import { findServed, mergeLmStudio, parseModels, parseProps, type ServedInfo } from "./models.ts";
import { type CallSpec, openCall, readJson } from "./transport.ts";

/** Options for {@linkcode createOpenAIHost}; timeouts in seconds (see `ModelTimeouts`). */
export interface OpenAIHostOptions extends ModelTimeouts {
  /** The name of the environment variable holding the API key (`api_key_env`). */
  apiKeyEnv?: string;
  /** The served window when the server does not say (`context_length` in the config). */
  contextLength?: number;
}

/** A host for the server whose API lives at `baseUrl` (normalised, e.g. `http://h:8080/v1`). */
export function createOpenAIHost(baseUrl: string, opts: OpenAIHostOptions = {}): ModelHost {
  const base = baseUrl.replace(/\/+$/, "");
  const t = withDefaults(opts);
  const key = { env: opts.apiKeyEnv };
  const apiKey = () => _apiKey(opts.apiKeyEnv);
  const quick = _quickCalls(base, t.connectTimeoutS, key, apiKey);
  /** What kind of server answered last (llama-server gets `cache_prompt`). */
  let kind: string | undefined;
  const served = async (signal?: AbortSignal): Promise<ServedInfo> => {
    const info = await _served(base, quick, signal);
    kind = info.server;
    return info;
  };
  return {
    url: base,
    async facts(model, o = {}) {
      return _facts(base, await served(o.signal), model, opts.contextLength);
    },
    async chat(req) {
      return await streamChat(base, req, {
        cachePrompt: kind === "llama-server",
        apiKey: apiKey(),
        key,
        timeouts: chatTimeouts(t),
      });
    },
    async report(model, o = {}): Promise<HostReport> {
      let info: ServedInfo;
      try {
        info = await served(o.signal);
      } catch (err) {
        if (!(err instanceof ModelError) || err.kind === "cancelled") throw err;
        return { url: base, reachable: err.kind === "auth", error: err.message };
      }
      return _report(base, info, model, opts.contextLength);
    },
  };
}

/** A quick JSON call on the server: `path` under `base` (or the whole `url`), within the timeout. */
type Quick = (path: string, signal?: AbortSignal, url?: string) => Promise<{
  text: string;
  data: unknown;
}>;

function _quickCalls(
  base: string,
  timeoutS: number,
  key: KeyInfo,
  apiKey: () => string | undefined,
): Quick {
  const message =
    `the model server at ${base} did not answer within ${timeoutS} s: check that it is running and responsive`;
  return async (path, signal, url) => {
    const spec: CallSpec = {
      base,
      path,
      url,
      apiKey: apiKey(),
      key,
      signal,
      headersMs: timeoutS * 1000,
      totalMs: timeoutS * 3000,
      messages: { headers: message, total: message },
    };
    const call = await openCall(spec);
    try {
      return await readJson(call, spec);
    } finally {
      call.dispose();
    }
  };
}

/** `/v1/models`, then the window from wherever this server keeps it. */
async function _served(base: string, quick: Quick, signal?: AbortSignal): Promise<ServedInfo> {
  const { text, data } = await quick("/models", signal);
  const info = parseModels(data);
  if (!info) throw badResponseError(base, text, "/models is not a model list");
  const origin = base.replace(/\/v1$/, "");
  const optional = async (path: string) => {
    try {
      return (await quick(path, signal, `${origin}${path}`)).data;
    } catch (err) {
      if (err instanceof ModelError && err.kind === "cancelled") throw err;
      return undefined;
    }
  };
  if (info.server === "llama-server") {
    const window = parseProps(await optional("/props"));
    if (window) { for (const m of info.models) m.context = window; }
  } else if (info.server === "OpenAI-compatible") {
    mergeLmStudio(info, await optional("/api/v0/models"));
  }
  return info;
}

/** The served model `model` names: llama-server serves its one model whatever name is asked. */
function _match(info: ServedInfo, model: string) {
  return findServed(info.models, model) ??
    (info.server === "llama-server" && info.models.length === 1 ? info.models[0] : undefined);
}

function _facts(
  base: string,
  info: ServedInfo,
  model: string,
  contextLength: number | undefined,
): ModelFacts {
  const match = _match(info, model);
  if (!match) throw notServedError(base, model, info.models.map((m) => m.id));
  // Only the served window counts: a model's trained maximum (llama-server's n_ctx_train, LM
  // Studio's max_context_length) says nothing of what the server will load it with.
  const window = contextLength ?? match.context;
  if (!window) return { model: match.id, fixedContext: false, cutsLongPrompts: false };
  return {
    model: match.id,
    contextLength: window,
    loaded: window,
    fixedContext: true,
    cutsLongPrompts: false,
  };
}

function _report(
  base: string,
  info: ServedInfo,
  model: string | undefined,
  contextLength: number | undefined,
): HostReport {
  const report: HostReport = {
    url: base,
    reachable: true,
    server: info.server,
    served: info.models.slice(0, 10).map((m) => m.id),
  };
  if (!model) return report;
  const match = _match(info, model);
  const context = match ? contextLength ?? match.context : undefined;
  return {
    ...report,
    model_installed: !!match,
    model_loaded: !!match?.loaded,
    ...(context ? { context } : {}),
  };
}

/** The key from the variable `env` names; throws when it is named but not set. */
function _apiKey(env: string | undefined): string | undefined {
  if (!env) return undefined;
  let value: string | undefined;
  try {
    const granted = Deno.permissions.querySync({ name: "env", variable: env }).state === "granted";
    value = granted ? Deno.env.get(env) : undefined;
  } catch {
    value = undefined;
  }
  if (!value?.trim()) throw keyUnsetError(env);
  return value.trim();
}
