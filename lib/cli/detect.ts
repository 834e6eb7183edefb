/**
 * Which local model server `localexec init` should point at: each provider of the table
 * (`lib/providers/`) looks at its places (`init.targets`: Ollama's default host; llama.cpp's
 * `llama-server` on 8080 and LM Studio on 1234 for the OpenAI-compatible API), all at once; the
 * first provider in the table's order with a server that answers wins. Every probe is one short
 * request; nothing answering means the default provider (the table's first) at its first place.
 */
import type { Provider } from "../model/mod.ts";

/** Where to look: per provider name, the URLs in order of preference (absent: its defaults). */
export type ProbeTargets = Readonly<Record<string, readonly string[]>>;

/** One server looked at: what it is, where, and whether it answered. */
export interface Probe {
  /** `Ollama`, `llama-server`, `LM Studio`, or what usually listens there when it did not say. */
  name: string;
  url: string;
  answered: boolean;
}

/**
 * What was found: the provider and the URL to write, what answered there (`server`) and its
 * models (with their sizes when it says; absent when nothing answered); `probes`, every server
 * looked at, in order.
 */
export interface Detected {
  provider: Provider;
  url: string;
  server: string;
  models?: { name: string; size?: number }[];
  probes: Probe[];
}

/**
 * Probes every provider's places at once (`targets` replaces a provider's defaults; a provider
 * `targets` leaves out is looked for at its defaults, unless `only` is set); returns the first
 * that answers, or the table's first provider at its first place when none does. Takes at most
 * about `timeoutS` seconds.
 */
export async function detectServer(
  targets: ProbeTargets = {},
  opts: { timeoutS?: number; only?: boolean; table?: readonly Provider[] } = {},
): Promise<Detected> {
  // Loaded here, not on import: the backends are not part of every command's start.
  const table = opts.table ?? (await import("../providers/mod.ts")).PROVIDERS;
  const places = table.flatMap((provider) =>
    (targets[provider.name] ?? (opts.only ? [] : provider.init.targets)).map((url) => ({
      provider,
      url,
    }))
  );
  const found = await Promise.all(
    places.map((p) => p.provider.init.probe(p.url, opts.timeoutS ?? 1.5)),
  );
  const probes = found.map((f, i) => ({ name: f.name, url: places[i].url, answered: f.answered }));
  const at = found.findIndex((f) => f.answered);
  if (at < 0) {
    const provider = table[0];
    const url = targets[provider.name]?.[0] ?? provider.init.targets[0];
    return { provider, url, server: provider.label, probes };
  }
  return {
    provider: places[at].provider,
    url: places[at].url,
    server: found[at].name,
    ...(found[at].models ? { models: found[at].models } : {}),
    probes,
  };
}
