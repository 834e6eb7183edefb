/**
 * One record of the provider table (docs/PROVIDERS.md): what the configuration reads of a provider
 * (`ProviderSpec` of `lib/config.ts`: its name, host key, defaults, own keys, normalise) and what
 * the rest of localexec asks of it — its host for the ladder's rungs (`create`), its words in
 * `status`, and where `localexec init` looks for it. Each backend folder exports its record; the
 * table (`lib/providers/`) lists them, and no code outside a backend tests a provider's name.
 */
import type { ModelSettings, ProviderSpec } from "../config.ts";
import type { ModelTimeouts } from "./transport.ts";
import type { HostReport, ModelHost } from "./types.ts";

/** What `localexec init` learns from one server it looked at. */
export interface Probed {
  /** What answered (`Ollama`, `llama-server`, `LM Studio`), or what usually listens there. */
  name: string;
  answered: boolean;
  /** The models it has (with their sizes on disk when it says); absent when it did not answer. */
  models?: { name: string; size?: number }[];
}

/** A provider's words in `status`. */
export interface StatusHints {
  /** The fields that say what answered, e.g. `{ ollama_version }` or `{ server }`. */
  about(report: HostReport): Record<string, unknown>;
  /** The key status shows the model's context under (`loaded_context`, `context`). */
  contextKey: string;
  /** The hint when `model` is not on the host that answered. */
  missing(model: string, report: HostReport): string;
  /** The hint when no host answered. */
  down: string;
}

/** Where and how `localexec init` looks for a provider's servers. */
export interface InitDetection {
  /** The URLs to look at when nothing says otherwise, in order of preference. */
  targets: readonly string[];
  /** One short look at `url`; never throws. */
  probe(url: string, timeoutS: number): Promise<Probed>;
  /** What to tell the user to get a model such as `model` onto the server `server`. */
  pull(model: string, server: string): string;
  /** How to get a server of this provider running with `model`, when none answered. */
  help(model: string): string;
}

/** One provider: its configuration, its hosts, its status words and its detection. */
export interface Provider extends ProviderSpec {
  /** What its servers are called in messages (`Ollama`, `OpenAI-compatible server`). */
  readonly label: string;
  /** A host for the server at `url` (normalised) with the rung's `settings`; no I/O. */
  create(url: string, settings: ModelSettings, timeouts: ModelTimeouts): ModelHost;
  readonly status: StatusHints;
  readonly init: InitDetection;
}
