/**
 * The model keys of `.localexec.json`: provider, ollama_host and base_url as one host or a
 * list, api_key_env, context_length; every problem names its key.
 */
import { PROVIDERS } from "../../lib/providers/mod.ts";
import assert from "node:assert/strict";
import { ConfigError, parseConfig } from "../../lib/config.ts";
import { normalizeBaseUrl } from "../../lib/openai/mod.ts";

function problem(data: Record<string, unknown>): string {
  try {
    parseConfig(data, "cfg", PROVIDERS);
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.message;
  }
  throw new Error(`no problem found in ${JSON.stringify(data)}`);
}

Deno.test("config reads an OpenAI-compatible server with its key variable and window", () => {
  const c = parseConfig(
    {
      model: "qwen",
      provider: "openai",
      base_url: "http://127.0.0.1:8080/v1/",
      api_key_env: "LLAMA_API_KEY",
      context_length: 16384,
    },
    "cfg",
    PROVIDERS,
  );
  assert.equal(c.provider, "openai");
  assert.deepEqual(c.hosts, ["http://127.0.0.1:8080/v1"]);
  assert.equal(c.api_key_env, "LLAMA_API_KEY");
  assert.equal(c.context_length, 16384);
  assert.deepEqual(c.warnings, []);
  const defaults = parseConfig({}, "cfg", PROVIDERS);
  assert.equal(defaults.provider, "ollama");
  assert.deepEqual(defaults.hosts, ["http://127.0.0.1:11434"]);
});

Deno.test("config takes a list of hosts for ollama_host and base_url, in order", () => {
  const o = parseConfig({ ollama_host: ["gpu1", "http://gpu2:11500/"] }, "cfg", PROVIDERS);
  assert.deepEqual(o.hosts, ["http://gpu1:11434", "http://gpu2:11500"]);
  const v = parseConfig(
    { provider: "openai", base_url: ["gpu1:8000", "https://gpu2/v1"] },
    "cfg",
    PROVIDERS,
  );
  assert.deepEqual(v.hosts, ["http://gpu1:8000/v1", "https://gpu2/v1"]);
});

Deno.test("base_url gets /v1 only when it has no path", () => {
  assert.equal(normalizeBaseUrl("localhost:1234"), "http://localhost:1234/v1");
  assert.equal(normalizeBaseUrl("http://0.0.0.0:8000"), "http://127.0.0.1:8000/v1");
  assert.equal(normalizeBaseUrl("https://proxy.lan/litellm/v1/"), "https://proxy.lan/litellm/v1");
  assert.throws(() => normalizeBaseUrl("ftp://x"));
});

Deno.test("config errors name the model key and say what to write", () => {
  assert.match(
    problem({ provider: "lmstudio" }),
    /provider: unknown provider "lmstudio"; known: ollama, openai/,
  );
  assert.match(
    problem({ provider: "openai" }),
    /base_url: required with provider "openai", e\.g\. "http:\/\/127\.0\.0\.1:8080\/v1"/,
  );
  assert.match(
    problem({ base_url: "http://x:8080/v1" }),
    /base_url: only used with provider "openai" \(add "provider": "openai"\)/,
  );
  assert.match(
    problem({ provider: "openai", base_url: "x:1/v1", ollama_host: "y" }),
    /ollama_host: only used with provider "ollama"/,
  );
  assert.match(
    problem({ provider: "openai", base_url: "x:1/v1", num_ctx: 8192 }),
    /num_ctx: only used with provider "ollama"; .*use context_length/,
  );
  assert.match(
    problem({ provider: "openai", base_url: "x:1/v1", api_key_env: "sk-abc123def" }),
    /api_key_env: must be the name of an environment variable .*never the key itself/,
  );
  assert.match(
    problem({ provider: "openai", base_url: ["x:1/v1", 7] }),
    /base_url\.1: expected a URL string, got number/,
  );
  assert.match(
    problem({ provider: "openai", base_url: [] }),
    /base_url: the list must not be empty/,
  );
  assert.match(
    problem({ ollama_host: ["a", "http://a:11434"] }),
    /ollama_host\.1: http:\/\/a:11434 is listed twice/,
  );
  assert.match(
    problem({ ollama_host: "http://[bad" }),
    /ollama_host: not a valid URL or host:port/,
  );
  assert.match(
    problem({ provider: "openai", base_url: "x:1", context_length: 100 }),
    /context_length: must be between 512 and 1048576, got 100/,
  );
  assert.match(
    problem({ provider: "openai", base_url: "x:1", context_length: "8k" }),
    /context_length: expected an integer, got string/,
  );
});
