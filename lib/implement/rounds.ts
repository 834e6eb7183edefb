/**
 * Landing rounds (docs/ARCHITECTURE.md, "Parallel tasks"): a task whose checks passed before
 * another task landed checks again before it may answer `passed`. Tasks of one server that come to
 * that point close together share one run of the checks: the first waits briefly for the others
 * that are still checking or landing, then the checks run once against everything landed and every
 * member's files. One object per server (on its state, like the model slots); a caller without one
 * checks each task again on its own.
 */
/** How often the first task of a round looks whether the others have come. */
const LOOK_MS = 20;

/** A round: its members, and its outcome once its checks ran. */
interface _Round<M> {
  members: M[];
  ids: string[];
  closed: boolean;
  done: Promise<boolean>;
  /** Per member, whether it landed after the round (settled once it knows). */
  landed: Map<string, { promise: Promise<boolean>; settle: (ok: boolean) => void }>;
}

/** What {@linkcode LandingRounds.join} answers a member. */
export interface Joined {
  /** Whether the round's shared checks passed (false: check again alone). */
  passed: boolean;
  /** The other members. */
  with: string[];
  /** Tell the round whether this member landed (its shared checks counted on its files). */
  landed(ok: boolean): void;
  /** Whether every other member landed: the shared checks held only with all of them. */
  mates(): Promise<boolean>;
}

function _deferred(): { promise: Promise<boolean>; settle: (ok: boolean) => void } {
  let settle!: (ok: boolean) => void;
  const promise = new Promise<boolean>((resolve) => settle = resolve);
  return { promise, settle };
}

/** A member's answer: the round's outcome, and its part in the landing that follows. */
function _joined<M>(round: _Round<M>, id: string, passed: boolean): Joined {
  return {
    passed,
    with: round.ids.filter((x) => x !== id),
    landed: (ok) => round.landed.get(id)?.settle(ok),
    mates: async () => {
      const others = [...round.landed].filter(([x]) => x !== id).map(([, d]) => d.promise);
      return (await Promise.all(others)).every(Boolean);
    },
  };
}

/** The landing rounds of one server. */
export class LandingRounds<M = object> {
  /** Tasks checking, or past their checks and not yet landed. */
  readonly #busy = new Set<string>();
  #open?: _Round<M>;

  /** Task `id` runs its checks, or has passed them and is about to land. */
  busy(id: string): void {
    this.#busy.add(id);
  }

  /** Task `id` is done with checks and landing (or goes back to its model). */
  idle(id: string): void {
    this.#busy.delete(id);
  }

  /** How many tasks are busy, for tests. */
  get busyCount(): number {
    return this.#busy.size;
  }

  /**
   * Joins task `id` (`member`) to the round that is gathering, or starts one: the first member
   * waits up to `o.windowMs` while other tasks are busy, then runs `o.lead` with every member
   * once. Answers whether the shared checks passed and which other tasks shared them (`passed`
   * false: each member checks again on its own); when they passed, each member then says whether
   * it landed, and asks whether the others did (the shared checks held only with all of them).
   */
  async join(
    id: string,
    member: M,
    o: { windowMs: number; signal: AbortSignal; lead: (members: M[]) => Promise<boolean> },
  ): Promise<Joined> {
    this.#busy.delete(id);
    const open = this.#open;
    if (open && !open.closed) {
      open.members.push(member);
      open.ids.push(id);
      open.landed.set(id, _deferred());
      try {
        return _joined(open, id, await _unlessAborted(open.done, o.signal));
      } catch (err) {
        open.landed.get(id)?.settle(false);
        throw err;
      }
    }
    let settle!: (passed: boolean) => void;
    const round: _Round<M> = {
      members: [member],
      ids: [id],
      closed: false,
      done: new Promise<boolean>((resolve) => settle = resolve),
      landed: new Map([[id, _deferred()]]),
    };
    this.#open = round;
    const began = Date.now();
    try {
      while (this.#busy.size > 0 && Date.now() - began < o.windowMs) {
        o.signal.throwIfAborted();
        await new Promise((resolve) => setTimeout(resolve, LOOK_MS));
      }
    } catch (err) {
      // The first task was cancelled while it gathered: the others check again on their own.
      round.landed.get(id)?.settle(false);
      settle(false);
      throw err;
    } finally {
      round.closed = true;
      if (this.#open === round) this.#open = undefined;
    }
    let passed = false;
    try {
      passed = await o.lead(round.members);
    } finally {
      settle(passed);
    }
    return _joined(round, id, passed);
  }
}

/** `p`'s value, or an `AbortError` as soon as `signal` aborts. */
function _unlessAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new DOMException("cancelled", "AbortError"));
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new DOMException("cancelled", "AbortError"));
    signal.addEventListener("abort", abort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
