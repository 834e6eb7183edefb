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

/** One server looked at: what it is, where, and whether it answered. */
export interface Probe {
  /** `Ollama`, `llama-server`, `LM Studio`, or `OpenAI-compatible server` when it did not say. */
  name: string;
  url: string;
  answered: boolean;
}

/**
 * What was found; `models` lists an answering Ollama's installed models with their sizes (absent
 * when no Ollama answered); `probes`, every server looked at, in order.
 */
export type Detected =
  & (
    | { provider: "ollama"; host: string; models?: { name: string; size: number }[] }
    | { provider: "openai"; base_url: string; server: string; models: string[] }
  )
  & { probes: Probe[] };

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
  const client = createOllama(targets.ollama, { connectTimeoutS: timeoutS });
  const ollama = client.version().then(() => true, () => false);
  const servers = await Promise.all(
    targets.servers.map((base) =>
      createOpenAIHost(base, { connectTimeoutS: timeoutS }).report(undefined).catch(() => undefined)
    ),
  );
  const probes: Probe[] = [{ name: "Ollama", url: targets.ollama, answered: await ollama }];
  for (const [i, report] of servers.entries()) {
    probes.push({
      name: report?.server ?? _guess(targets.servers[i]),
      url: targets.servers[i],
      answered: !!report?.reachable && !report.error,
    });
  }
  const fallback: Detected = { provider: "ollama", host: targets.ollama, probes };
  if (probes[0].answered) {
    const tags = await client.tags().catch(() => []);
    return { ...fallback, models: tags.map((t) => ({ name: t.name, size: t.size })) };
  }
  const at = probes.findIndex((p, i) => i > 0 && p.answered);
  if (at < 0) return fallback;
  return {
    provider: "openai",
    base_url: targets.servers[at - 1],
    server: probes[at].name,
    models: servers[at - 1]?.served ?? [],
    probes,
  };
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
