/**
 * The model-server keys of `.localexec.json`: `provider`, `ollama_host` (one host or a list),
 * `base_url` (one or a list), `api_key_env` and `context_length`. Each problem names its key.
 *
 * ```json
 * { "provider": "openai", "base_url": ["http://gpu1:8000/v1", "http://gpu2:8000/v1"],
 *   "api_key_env": "VLLM_API_KEY", "context_length": 32768 }
 * ```
 */

/** Which API the model servers speak. */
export type Provider = "ollama" | "openai";

/** The model-server settings, normalised. */
export interface ModelSettings {
  provider: Provider;
  /** Base URLs of the model servers, in the order to try them (Ollama hosts or `base_url`s). */
  hosts: string[];
  api_key_env?: string;
  context_length?: number;
}

/** Where Ollama listens when neither the config nor `OLLAMA_HOST` says otherwise. */
export const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";

const PROVIDERS: readonly Provider[] = ["ollama", "openai"];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Normalises an Ollama host the way the Ollama CLI does: scheme and port are optional. */
export function normalizeHost(host: string): string {
  let h = host.trim().replace(/\/+$/, "");
  if (!/^[a-z]+:\/\//i.test(h)) h = `http://${h}`;
  const url = new URL(h);
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  if (!url.port) url.port = url.protocol === "https:" ? "443" : "11434";
  return url.origin;
}

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

/** `host:port` of a base URL, as Deno's net permission names it. */
export function hostPort(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

/**
 * Reads the model keys of `data`. `envHost` is `OLLAMA_HOST` when set. Problems go to `fail`
 * as `key: problem`; the result is undefined when any was found.
 */
export function readModelSettings(
  data: Record<string, unknown>,
  envHost: string | undefined,
  fail: (key: string, problem: string) => void,
): ModelSettings | undefined {
  let bad = false;
  const problem = (key: string, text: string) => {
    bad = true;
    fail(key, text);
  };
  const provider = data.provider ?? "ollama";
  if (!PROVIDERS.includes(provider as Provider)) {
    problem("provider", `expected "ollama" or "openai", got ${JSON.stringify(provider)}`);
    return undefined;
  }
  const openai = provider === "openai";
  const only = (key: string, which: Provider, hint: string) => {
    if (data[key] !== undefined && provider !== which) {
      problem(key, `only used with provider "${which}"${hint}`);
    }
  };
  only("ollama_host", "ollama", '; set base_url for provider "openai"');
  only(
    "num_ctx",
    "ollama",
    '; a server with provider "openai" fixes its window: use context_length',
  );
  only("base_url", "openai", ' (add "provider": "openai")');
  only("api_key_env", "openai", ' (add "provider": "openai")');
  let hosts: string[] = [];
  if (openai) {
    if (data.base_url === undefined) {
      problem("base_url", 'required with provider "openai", e.g. "http://127.0.0.1:8080/v1"');
    } else {
      hosts = _urls("base_url", data.base_url, normalizeBaseUrl, problem);
    }
  } else if (data.ollama_host !== undefined) {
    hosts = _urls("ollama_host", data.ollama_host, normalizeHost, problem);
  } else {
    try {
      hosts = [normalizeHost(envHost ?? DEFAULT_OLLAMA_HOST)];
    } catch {
      problem("OLLAMA_HOST", "not a valid URL or host:port");
    }
  }
  const env = data.api_key_env;
  if (env !== undefined) {
    if (typeof env !== "string") problem("api_key_env", `expected a string, got ${_kind(env)}`);
    else if (!ENV_NAME.test(env)) {
      problem(
        "api_key_env",
        "must be the name of an environment variable (such as OPENAI_API_KEY), never the key itself",
      );
    }
  }
  const ctx = data.context_length;
  if (ctx !== undefined) {
    if (typeof ctx !== "number" || !Number.isInteger(ctx)) {
      problem(
        "context_length",
        `expected an integer, got ${typeof ctx === "number" ? ctx : _kind(ctx)}`,
      );
    } else if (ctx < 512 || ctx > 1_048_576) {
      problem("context_length", `must be between 512 and 1048576, got ${ctx}`);
    }
  }
  if (bad) return undefined;
  return {
    provider: provider as Provider,
    hosts,
    ...(typeof env === "string" ? { api_key_env: env } : {}),
    ...(typeof ctx === "number" ? { context_length: ctx } : {}),
  };
}

function _urls(
  key: string,
  v: unknown,
  normalize: (text: string) => string,
  problem: (key: string, text: string) => void,
): string[] {
  const list = Array.isArray(v) ? v : [v];
  if (Array.isArray(v) && !v.length) {
    problem(key, "the list must not be empty");
    return [];
  }
  const out: string[] = [];
  for (const [i, item] of list.entries()) {
    const at = Array.isArray(v) ? `${key}.${i}` : key;
    if (typeof item !== "string") {
      problem(
        at,
        `expected a URL string${Array.isArray(v) ? "" : " or a list of them"}, got ${_kind(item)}`,
      );
      continue;
    }
    if (!item.trim()) {
      problem(at, "must not be empty");
      continue;
    }
    try {
      const url = normalize(item);
      if (out.includes(url)) problem(at, `${url} is listed twice`);
      else out.push(url);
    } catch {
      problem(at, `not a valid URL or host:port: ${JSON.stringify(item.slice(0, 100))}`);
    }
  }
  return out;
}

function _kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}
