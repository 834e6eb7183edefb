/**
 * The OpenAI-compatible servers' record of the provider table (docs/PROVIDERS.md): `base_url`
 * (one or a list; required), `api_key_env`, `context_length`, and where `localexec init` looks
 * (llama-server's 8080 and LM Studio's 1234 on the loopback).
 */
import type { Provider } from "../model/mod.ts";
import { createOpenAIHost } from "./host.ts";

/** The default places init looks: llama-server's 8080 and LM Studio's 1234 on the loopback. */
export const LOCAL_SERVERS: readonly string[] = [
  "http://127.0.0.1:8080/v1",
  "http://127.0.0.1:1234/v1",
];

/**
 * Normalises an OpenAI-compatible base URL: scheme optional (http), no trailing slash, and `/v1`
 * added when there is no path at all (`http://h:8080` means `http://h:8080/v1`).
 */
export function normalizeBaseUrl(text: string): string {
  let h = text.trim();
  if (!/^[a-z]+:\/\//i.test(h)) h = `http://${h}`;
  const url = new URL(h);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError("not http(s)");
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${path || "/v1"}`;
}

/** What usually listens at `url`: llama-server's 8080, LM Studio's 1234. */
function _guess(url: string): string {
  const port = new URL(url).port;
  return port === "8080"
    ? "llama-server"
    : port === "1234"
    ? "LM Studio"
    : "OpenAI-compatible server";
}

/** llama-server, LM Studio, vLLM, a LiteLLM proxy: `POST /chat/completions` streamed over SSE. */
export const openai: Provider = {
  name: "openai",
  label: "OpenAI-compatible server",
  hostKey: "base_url",
  example: "http://127.0.0.1:8080/v1",
  keys: ["api_key_env", "context_length"],
  normalize: normalizeBaseUrl,
  create: (url, settings, timeouts) =>
    createOpenAIHost(url, {
      apiKeyEnv: settings.api_key_env,
      contextLength: settings.context_length,
      ...timeouts,
    }),
  status: {
    about: (report) => ({ server: report.server }),
    contextKey: "context",
    missing(model, report) {
      const served = report.served?.map((m) => JSON.stringify(m)).join(", ");
      return `model "${model}" is not served at ${report.url}: ${
        served ? `it serves ${served}` : "it serves no model yet"
      }`;
    },
    down: "start the model server (llama-server, LM Studio, vLLM) at base_url, or fix base_url",
  },
  init: {
    targets: LOCAL_SERVERS,
    async probe(url, timeoutS) {
      const report = await createOpenAIHost(url, { connectTimeoutS: timeoutS }).report(undefined)
        .catch(() => undefined);
      const answered = !!report?.reachable && !report.error;
      return {
        name: report?.server ?? _guess(url),
        answered,
        ...(answered ? { models: (report?.served ?? []).map((name) => ({ name })) } : {}),
      };
    },
    pull: (model, server) => `load a model made for code (e.g. ${model}) in the ${server}`,
    help: () =>
      'start an OpenAI-compatible server (llama-server, LM Studio, vLLM) and set "provider": ' +
      '"openai" and "base_url"',
  },
};
