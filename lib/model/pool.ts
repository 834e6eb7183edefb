/**
 * Several hosts serving one model: pick the one to use, and move an attempt to the next host
 * when the current one drops during it.
 *
 * The pick: the first host (in the configured order) that already has the model loaded, else the
 * first reachable one that has it. With one host nothing is probed ahead: its own `facts` call
 * proves it is up, and its error is reported as it is.
 *
 * Capacity (`slots.ts`): each chat holds a slot on its host while it runs. When the current host
 * is full, the chat goes to the next host that has the model and a free slot, or waits for the
 * first slot freed on any of them (the notice says so).
 */
import { ModelError } from "./errors.ts";
import { HostSlots, type Slot, type SlotHost } from "./slots.ts";
import type {
  CallOptions,
  HostReport,
  ModelChatRequest,
  ModelChatResult,
  ModelFacts,
  ModelHost,
} from "./types.ts";

/** Options for {@linkcode ModelPool.prepare} and {@linkcode ModelPool.chat}. */
export interface PoolCallOptions extends CallOptions {
  /** Receives a line for the task's log when a host is skipped or an attempt moves. */
  notice?: (message: string) => void;
}

/** How the chats of a pool share its hosts. */
export interface PoolCapacity {
  /** Chats each host serves at once, in the order of the hosts; default 1 each. */
  parallel?: readonly number[];
  /** The slots shared with the other pools of the same server; default the pool's own. */
  slots?: HostSlots;
}

/** The hosts of one configuration, with the one in use. */
export class ModelPool {
  #current: ModelHost;
  /** Hosts that have the model, in the order to fall back to. */
  #usable: ModelHost[];
  readonly #slots: HostSlots;
  readonly #capacity: Map<ModelHost, number>;

  constructor(readonly hosts: readonly ModelHost[], capacity: PoolCapacity = {}) {
    if (!hosts.length) throw new Error("a model pool needs at least one host");
    this.#current = hosts[0];
    this.#usable = [...hosts];
    this.#slots = capacity.slots ?? new HostSlots();
    this.#capacity = new Map(hosts.map((h, i) => [h, capacity.parallel?.[i] ?? 1]));
  }

  /** The host the next chat goes to. */
  get current(): ModelHost {
    return this.#current;
  }

  /** Picks the host for `model` and reads its facts; throws the ModelError that says what to do. */
  async prepare(model: string, opts: PoolCallOptions = {}): Promise<ModelFacts> {
    if (this.hosts.length === 1) return await this.#current.facts(model, opts);
    const reports = await Promise.all(this.hosts.map((h) => h.report(model, opts)));
    opts.signal?.throwIfAborted();
    const has = (i: number) => reports[i].reachable && reports[i].model_installed === true;
    const order = this.hosts.map((_, i) => i);
    const loaded = order.filter((i) => has(i) && reports[i].model_loaded);
    const installed = order.filter((i) => has(i) && !reports[i].model_loaded);
    const picks = [...loaded, ...installed];
    for (const r of reports) {
      if (!r.reachable) {
        opts.notice?.(`model host ${r.url} is not usable: ${r.error ?? "no answer"}`);
      }
    }
    // Nothing usable: the first host's own error says best what to do.
    if (!picks.length) {
      const first = order.find((i) => reports[i].reachable) ?? 0;
      return await this.hosts[first].facts(model, opts);
    }
    this.#usable = picks.map((i) => this.hosts[i]);
    let last: unknown;
    for (const host of [...this.#usable]) {
      try {
        const facts = await host.facts(model, opts);
        this.#current = host;
        if (host !== this.hosts[0]) {
          opts.notice?.(
            `using model host ${host.url}${
              loaded.includes(this.hosts.indexOf(host)) ? " (the model is loaded there)" : ""
            }`,
          );
        }
        return facts;
      } catch (err) {
        if (!(err instanceof ModelError) || !err.hostDown) throw err;
        last = err;
        this.#usable = this.#usable.filter((h) => h !== host);
      }
    }
    throw last;
  }

  /**
   * Streams one chat on the current host. When that host drops during it (refused, reset, 5xx,
   * a stream cut short), the same request is sent once to the next host that has the model, and
   * that host stays the current one.
   */
  async chat(req: ModelChatRequest, opts: PoolCallOptions = {}): Promise<ModelChatResult> {
    const first = await this.#take(
      [this.#current, ...this.#usable.filter((h) => h !== this.#current)],
      req.signal,
      opts,
    );
    let others: ModelHost[] = [];
    try {
      return await _timed(first.host, req);
    } catch (err) {
      others = this.#moveFrom(first.host, err, req, opts);
    } finally {
      // Released once, here, whatever happened: the retry below takes a slot of its own.
      first.slot.release();
    }
    const next = await this.#take(others, req.signal, opts);
    try {
      return await _timed(next.host, req);
    } finally {
      next.slot.release();
    }
  }

  /**
   * The hosts to retry a chat on after `err` ended it on `host`; rethrows `err` when it is not a
   * host that dropped (a model error, a cancel) or no other host is left.
   */
  #moveFrom(
    host: ModelHost,
    err: unknown,
    req: ModelChatRequest,
    opts: PoolCallOptions,
  ): ModelHost[] {
    if (!(err instanceof ModelError) || !err.hostDown || req.signal?.aborted) throw err;
    const others = this.#usable.filter((h) => h !== host);
    if (!others.length) throw err;
    opts.notice?.(
      `model host ${host.url} dropped during the attempt (${err.message}); retrying it on ${
        others.length === 1 ? others[0].url : "the next host with a free slot"
      }`,
    );
    this.#usable = [...others, host];
    return others;
  }

  /**
   * A slot on the first of `hosts` with one free (which becomes the current host), waiting for
   * one when all are full.
   */
  async #take(
    hosts: ModelHost[],
    signal: AbortSignal | undefined,
    opts: PoolCallOptions,
  ): Promise<{ host: ModelHost; slot: Slot }> {
    const wanted: SlotHost[] = hosts.map((h) => ({ url: h.url, capacity: this.#capacity.get(h)! }));
    const slot = await this.#slots.take(wanted, signal, () => {
      opts.notice?.(
        `waiting for a free slot on ${hosts.map((h) => h.url).join(", ")} (${
          wanted.map((w) => `${this.#slots.busy(w.url)}/${w.capacity}`).join(", ")
        } chats at once)`,
      );
    });
    const host = hosts.find((h) => h.url === slot.url)!;
    this.#current = host;
    return { host, slot };
  }

  /** What every host says about `model`, in the configured order. */
  report(model: string | undefined, opts: CallOptions = {}): Promise<HostReport[]> {
    return Promise.all(this.hosts.map((h) => h.report(model, opts)));
  }
}

/** One chat on `host`, with the seconds to its first text measured here, whatever the backend. */
async function _timed(host: ModelHost, req: ModelChatRequest): Promise<ModelChatResult> {
  const started = performance.now();
  let first: number | undefined;
  const result = await host.chat({
    ...req,
    onChunk: (p) => {
      first ??= performance.now();
      req.onChunk?.(p);
    },
  });
  return first === undefined
    ? result
    : { ...result, firstTokenSecs: Math.round(first - started) / 1000 };
}
