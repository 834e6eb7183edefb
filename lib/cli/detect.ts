/**
 * Which local model server `localexec init` should point at: Ollama when it answers, else a
 * llama.cpp `llama-server` (port 8080) or LM Studio (port 1234) serving the OpenAI-compatible
 * API. Every probe is one short request; nothing answering means Ollama, as before.
 */
import { DEFAULT_OLLAMA_HOST } from "../config.ts";

/** Where to look; the defaults are the servers' own default ports on this machine. */
export interface ProbeTargets {
  /** The Ollama host in effect. */
  ollama: string;
  /** OpenAI-compatible base URLs, in order of preference. */
  servers: string[];
}

/** The default targets: llama-server's 8080 and LM Studio's 1234 on the loopback. */
export const LOCAL_SERVERS: readonly string[] = [
  "http://127.0.0.1:8080/v1",
  "http://127.0.0.1:1234/v1",
];

/** What was found; `models` lists an answering Ollama's installed models with their sizes. */
export type Detected =
  | { provider: "ollama"; host: string; models?: { name: string; size: number }[] }
  | { provider: "openai"; base_url: string; server: string; models: string[] };

/**
 * Probes Ollama first, then each OpenAI-compatible server; returns the first that answers, or
 * Ollama at `targets.ollama` when none does. Takes at most about `timeoutS` seconds.
 */
export async function detectServer(
  targets: ProbeTargets = { ollama: DEFAULT_OLLAMA_HOST, servers: [...LOCAL_SERVERS] },
  timeoutS = 1.5,
): Promise<Detected> {
  const [{ createOllama }, { createOpenAIHost }] = await Promise.all([
    import("../ollama/mod.ts"),
    import("../openai/mod.ts"),
  ]);
  const fallback: Detected = { provider: "ollama", host: targets.ollama };
  const client = createOllama(targets.ollama, { connectTimeoutS: timeoutS });
  const ollama = client.version().then(() => true, () => false);
  const servers = targets.servers.map((base) =>
    createOpenAIHost(base, { connectTimeoutS: timeoutS }).report(undefined).catch(() => undefined)
  );
  if (await ollama) {
    const tags = await client.tags().catch(() => []);
    return { ...fallback, models: tags.map((t) => ({ name: t.name, size: t.size })) };
  }
  for (const [i, probe] of servers.entries()) {
    const report = await probe;
    if (report?.reachable && !report.error) {
      return {
        provider: "openai",
        base_url: targets.servers[i],
        server: report.server ?? "OpenAI-compatible server",
        models: report.served ?? [],
      };
    }
  }
  return fallback;
}
