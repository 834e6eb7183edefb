/**
 * Ollama's record of the provider table (docs/PROVIDERS.md): `ollama_host` (one host or a list;
 * default `OLLAMA_HOST`, else `http://127.0.0.1:11434`), `num_ctx` chosen per request, and the
 * words `status` and `localexec init` use for it.
 */
import type { Provider } from "../model/mod.ts";
import { createOllama } from "./client.ts";
import { ollamaHost } from "./host.ts";

/** Where Ollama listens when neither the config nor `OLLAMA_HOST` says otherwise. */
export const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";

/** Normalises an Ollama host the way the Ollama CLI does: scheme and port are optional. */
export function normalizeHost(host: string): string {
  let h = host.trim().replace(/\/+$/, "");
  if (!/^[a-z]+:\/\//i.test(h)) h = `http://${h}`;
  const url = new URL(h);
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  if (!url.port) url.port = url.protocol === "https:" ? "443" : "11434";
  return url.origin;
}

/** Ollama (the default provider: the table's first). */
export const ollama: Provider = {
  name: "ollama",
  label: "Ollama",
  hostKey: "ollama_host",
  defaultHost: DEFAULT_OLLAMA_HOST,
  hostEnv: "OLLAMA_HOST",
  example: DEFAULT_OLLAMA_HOST,
  keys: ["num_ctx"],
  keyHints: {
    num_ctx: "; with another provider the server fixes its window: use context_length",
  },
  normalize: normalizeHost,
  create: (url, _settings, timeouts) => ollamaHost(createOllama(url, timeouts)),
  status: {
    about: (report) => ({ ollama_version: report.version }),
    contextKey: "loaded_context",
    missing: (model) =>
      `model "${model}" is not installed in Ollama: run \`ollama list\` to see what is, and ` +
      `\`ollama pull ${model}\` to install it`,
    down: "start Ollama (`ollama serve`), then run `ollama list` to see the installed models",
  },
  init: {
    targets: [DEFAULT_OLLAMA_HOST],
    async probe(url, timeoutS) {
      const client = createOllama(url, { connectTimeoutS: timeoutS });
      const answered = await client.version().then(() => true, () => false);
      if (!answered) return { name: "Ollama", answered };
      const tags = await client.tags().catch(() => []);
      return {
        name: "Ollama",
        answered,
        models: tags.map((t) => ({ name: t.name, size: t.size })),
      };
    },
    pull: (model) => `run \`ollama pull ${model}\``,
    help: (model) =>
      `install Ollama (https://ollama.com), run \`ollama serve\` and \`ollama pull ${model}\``,
  },
};
