/**
 * The model hosts of a configuration, as one {@linkcode ModelPool}: each made by its provider's
 * record of the table (`lib/providers/`). Everything after this talks to the contract in
 * `lib/model/`.
 */
import type { ModelSettings } from "../config.ts";
import { type HostSlots, ModelPool } from "../model/mod.ts";
import { providerNamed } from "../providers/mod.ts";

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
  const provider = providerNamed(config.provider);
  const hosts = config.hosts.map((url) => provider.create(url, config, t));
  return new ModelPool(hosts, { parallel: config.capacity, slots });
}
