/**
 * Several hosts serving one model: pick the one to use, and move an attempt to the next host
 * when the current one drops during it.
 *
 * The pick: the first host (in the configured order) that already has the model loaded, else the
 * first reachable one that has it. With one host nothing is probed ahead: its own `facts` call
 * proves it is up, and its error is reported as it is.
 */
import { ModelError } from "./errors.ts";
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

/** The hosts of one configuration, with the one in use. */
export class ModelPool {
  #current: ModelHost;
  /** Hosts that have the model, in the order to fall back to. */
  #usable: ModelHost[];

  constructor(readonly hosts: readonly ModelHost[]) {
    if (!hosts.length) throw new Error("a model pool needs at least one host");
    this.#current = hosts[0];
    this.#usable = [...hosts];
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
    const host = this.#current;
    try {
      return await _timed(host, req);
    } catch (err) {
      if (!(err instanceof ModelError) || !err.hostDown || req.signal?.aborted) throw err;
      const next = this.#usable.find((h) => h !== host);
      if (!next) throw err;
      opts.notice?.(
        `model host ${host.url} dropped during the attempt (${err.message}); retrying it on ${next.url}`,
      );
      this.#usable = [...this.#usable.filter((h) => h !== host), host];
      this.#current = next;
      return await _timed(next, req);
    }
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
