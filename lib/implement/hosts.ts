/**
 * The model hosts of a configuration, as one {@linkcode ModelPool}: the one place that turns
 * `provider` into a backend. Everything after this talks to the contract in `lib/model/`.
 */
import type { ModelSettings } from "../config.ts";
import { type HostSlots, type ModelHost, ModelPool } from "../model/mod.ts";
import { createOllama, ollamaHost } from "../ollama/mod.ts";
import { createOpenAIHost } from "../openai/mod.ts";

/** Timeouts for every call to the hosts, in seconds. */
export interface PoolTimeouts {
  /** How long a quick call (listings, facts) may wait for an answer. */
  connectTimeoutS?: number;
  /** How long a chat may wait for its first chunk (`first_token_timeout_s`). */
  firstChunkTimeoutS?: number;
  /** How long a whole chat may take (`request_timeout_s`). */
  requestTimeoutS?: number;
}

/**
 * A pool over the hosts `config` (a configuration or one rung of its ladder) names, each serving
 * `config.capacity` chats at once counted in `slots` (default: the pool's own). No I/O.
 */
export function modelPool(
  config: ModelSettings & { capacity?: readonly number[] },
  t: PoolTimeouts = {},
  slots?: HostSlots,
): ModelPool {
  const hosts: ModelHost[] = config.hosts.map((url) =>
    config.provider === "openai"
      ? createOpenAIHost(url, {
        apiKeyEnv: config.api_key_env,
        contextLength: config.context_length,
        ...t,
      })
      : ollamaHost(createOllama(url, t))
  );
  return new ModelPool(hosts, { parallel: config.capacity, slots });
}
