/**
 * Model capacity (`parallel` in `.localexec.json`): how many chats one host serves at once. A
 * chat takes a free slot on a host that serves its model, waiting for one when every such host is
 * full. One {@linkcode HostSlots} is shared by every task a server runs (it lives on the server's
 * state, not in this module); a pool without one counts its own chats only.
 */
import { ModelError } from "./errors.ts";

/** A host a chat may go to, and how many chats it serves at once. */
export interface SlotHost {
  url: string;
  capacity: number;
}

/** A slot taken on the host `url`; `release` frees it (calling it twice frees it once). */
export interface Slot {
  url: string;
  release(): void;
}

/** The chats in progress on each model host of one server. */
export class HostSlots {
  readonly #busy = new Map<string, number>();
  #wake = new Set<() => void>();

  /** How many chats `url` serves now. */
  busy(url: string): number {
    return this.#busy.get(url) ?? 0;
  }

  /**
   * A slot on the first of `hosts` (in the order given) with one free; when none has, `onWait`
   * hears it once and the chat waits for the first slot freed on any of them. Throws a cancelled
   * ModelError when `signal` aborts first.
   */
  async take(hosts: readonly SlotHost[], signal?: AbortSignal, onWait?: () => void): Promise<Slot> {
    let told = false;
    for (;;) {
      if (signal?.aborted) throw new ModelError("cancelled", "the call was cancelled");
      const free = hosts.find((h) => this.busy(h.url) < h.capacity);
      if (free) return this.#hold(free.url);
      if (!told) onWait?.();
      told = true;
      await new Promise<void>((resolve) => {
        const done = () => {
          this.#wake.delete(done);
          signal?.removeEventListener("abort", done);
          resolve();
        };
        this.#wake.add(done);
        signal?.addEventListener("abort", done, { once: true });
      });
    }
  }

  #hold(url: string): Slot {
    this.#busy.set(url, this.busy(url) + 1);
    let held = true;
    return {
      url,
      release: () => {
        if (!held) return;
        held = false;
        this.#busy.set(url, this.busy(url) - 1);
        const waiting = this.#wake;
        this.#wake = new Set();
        for (const wake of waiting) wake();
      },
    };
  }
}
