/**
 * The tasks one server runs in the background (docs/ARCHITECTURE.md, "Asynchronous tasks"): an
 * implement_task call that did not get its verdict within its `wait_s` answers `running`, and the
 * task goes on here until it ends, `revert_task` cancels it, or the server exits. `wait_tasks`
 * collects the verdicts. One object per server, on its state: nothing here is module-level.
 *
 * A task's work gets a signal of its own: the call that started it cancels it only while it is
 * still waiting for the verdict; once it has answered `running`, the task outlives the call.
 * Results are kept as the JSON the synchronous call would have answered.
 */

import { z } from "zod";

/** A result as the tool would answer it (a verdict, or the error JSON of the boundary). */
export type TaskResult = Record<string, unknown>;

/** Where a running task stands, as its progress last said. */
export interface RunningFacts {
  attempt: number;
  model?: string;
}

/** One running task as `wait_tasks` lists it. */
export interface RunningView {
  task_id: string;
  attempt: number;
  model?: string;
  seconds: number;
}

/** {@linkcode RunningView} as wait_tasks' and list_tasks' output schemas declare it. */
export const RUNNING_OUTPUT = z.object({
  task_id: z.string(),
  attempt: z.number().describe("The attempt under way (0 before the first)"),
  model: z.string().optional().describe("The model asked now"),
  seconds: z.number().describe("Seconds since the task began"),
});

/** What the work of a task gets: its own signal and a way to report progress. */
export interface TaskHooks {
  signal: AbortSignal;
  progress(message: string, facts?: Partial<RunningFacts>): void;
}

/** How many finished tasks, already reported, are kept for a later `wait_tasks` by id. */
const KEEP_REPORTED = 100;

class _Task {
  readonly started = performance.now();
  readonly controller = new AbortController();
  readonly facts: RunningFacts = { attempt: 0 };
  readonly listeners = new Set<(message: string) => void>();
  result?: TaskResult;
  reported = false;
  done!: Promise<TaskResult>;

  constructor(readonly id: string) {}

  view(): RunningView {
    return {
      task_id: this.id,
      attempt: this.facts.attempt,
      ...(this.facts.model !== undefined ? { model: this.facts.model } : {}),
      seconds: Math.round(performance.now() - this.started) / 1000,
    };
  }
}

/** What {@linkcode RunningTasks.wait} answers. */
export interface WaitAnswer {
  /** The results of the tasks that ended, each with its `task_id` first. */
  finished: TaskResult[];
  running: RunningView[];
  /** Ids asked for that this server has not run (or no longer keeps). */
  unknown: string[];
}

/** The background tasks of one server. */
export class RunningTasks {
  readonly #tasks = new Map<string, _Task>();

  /** Whether task `id` is running here now. */
  isRunning(id: string): boolean {
    const t = this.#tasks.get(id);
    return t !== undefined && t.result === undefined;
  }

  /** The tasks running now, oldest first. */
  running(): RunningView[] {
    return [...this.#tasks.values()].filter((t) => t.result === undefined).map((t) => t.view());
  }

  /**
   * Starts task `id`: `work` runs with a signal of its own and must not throw (it turns its
   * errors into the result the tool would answer). Throws when `id` is already running.
   */
  start(id: string, work: (hooks: TaskHooks) => Promise<TaskResult>): void {
    if (this.isRunning(id)) throw new Error(`task ${id} is already running`);
    const task = new _Task(id);
    this.#tasks.delete(id);
    this.#tasks.set(id, task);
    const hooks: TaskHooks = {
      signal: task.controller.signal,
      progress(message, facts) {
        if (facts?.attempt !== undefined) task.facts.attempt = facts.attempt;
        if (facts?.model !== undefined) task.facts.model = facts.model;
        for (const l of task.listeners) l(message);
      },
    };
    // `work` answers its own errors; this only keeps a task from never ending.
    task.done = work(hooks).catch((err): TaskResult => ({
      status: "error",
      error: String(err),
      escalate: false,
    })).then((result) => {
      task.result = result;
      this.#prune();
      return result;
    });
  }

  /**
   * Waits up to `ms` for task `id`'s result, its progress sent to `progress` meanwhile; the task
   * is cancelled if `signal` (the caller's) aborts first. The result, marked reported, or
   * undefined when the time ran out (the task goes on).
   */
  async follow(
    id: string,
    ms: number,
    signal: AbortSignal,
    progress: (message: string) => void,
  ): Promise<TaskResult | undefined> {
    const task = this.#tasks.get(id);
    if (!task) throw new Error(`task ${id} is not running`);
    const cancel = () => task.controller.abort();
    signal.addEventListener("abort", cancel, { once: true });
    if (signal.aborted) cancel();
    task.listeners.add(progress);
    try {
      const result = await _within(task.done, ms);
      // A cancelled call's answer reaches no one: wait_tasks still reports it.
      if (result && !signal.aborted) task.reported = true;
      return result;
    } finally {
      task.listeners.delete(progress);
      signal.removeEventListener("abort", cancel);
    }
  }

  /** Where task `id` stands now: its facts, and its start. */
  view(id: string): RunningView | undefined {
    return this.#tasks.get(id)?.view();
  }

  /**
   * Waits until the tasks `ids` (default: the running ones and those finished but not yet
   * reported) have all ended (`mode` "all") or one has ("any"), or `ms` passes, or `signal`
   * aborts (which cancels no task). Each task's progress goes to `progress` meanwhile.
   */
  async wait(
    ids: readonly string[] | undefined,
    options: {
      ms: number;
      mode: "all" | "any";
      signal: AbortSignal;
      progress: (message: string) => void;
    },
  ): Promise<WaitAnswer> {
    const wanted = ids === undefined
      ? [...this.#tasks.values()].filter((t) => t.result === undefined || !t.reported)
      : [...new Set(ids)].map((id) => this.#tasks.get(id)).filter((t) => t !== undefined);
    const unknown = ids === undefined ? [] : ids.filter((id) => !this.#tasks.has(id));
    const listeners = wanted.map((t) => {
      const l = (m: string) => options.progress(`${t.id}: ${m}`);
      t.listeners.add(l);
      return [t, l] as const;
    });
    try {
      if (wanted.length) {
        const ends = wanted.map((t) => t.done);
        const met = options.mode === "any" ? Promise.any(ends) : Promise.all(ends);
        const aborted = new Promise<void>((resolve) => {
          if (options.signal.aborted) resolve();
          options.signal.addEventListener("abort", () => resolve(), { once: true });
        });
        await _within(Promise.race([met, aborted]), options.ms);
      }
    } finally {
      for (const [t, l] of listeners) t.listeners.delete(l);
    }
    const finished: TaskResult[] = [];
    const running: RunningView[] = [];
    for (const t of wanted) {
      if (t.result === undefined) {
        running.push(t.view());
        continue;
      }
      t.reported = true;
      finished.push({ task_id: t.id, ...t.result });
    }
    this.#prune();
    return { finished, running, unknown: [...new Set(unknown)] };
  }

  /** Cancels task `id` if it is running and waits for its end; false when it was not running. */
  async cancel(id: string): Promise<boolean> {
    const task = this.#tasks.get(id);
    if (!task || task.result !== undefined) return false;
    task.controller.abort();
    await task.done;
    return true;
  }

  /** Forgets the oldest reported results beyond {@linkcode KEEP_REPORTED}. */
  #prune(): void {
    const old = [...this.#tasks.values()].filter((t) => t.result !== undefined && t.reported);
    for (const t of old.slice(0, Math.max(0, old.length - KEEP_REPORTED))) {
      this.#tasks.delete(t.id);
    }
  }
}

/** `work`'s value, or undefined when `ms` passes first (`work` goes on). */
async function _within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  if (ms === Infinity) return await work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((
    resolve,
  ) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * implement_task's default `wait_s` for a client whose name (`clientInfo.name`) says it cancels
 * calls on its own (docs/CONFIG.md, "Asynchronous calls"): Codex (`codex-mcp-client` in 0.171.0's
 * `initialize`, logged on the wire) cancels any call after 300 s
 * (`tool_timeout_sec`), whatever progress arrives. opencode's 60 s are reset by the heartbeat and
 * Claude Code waits about 28 h unless told otherwise: they get the verdict.
 */
export function clientWaitS(client: string | undefined): number | undefined {
  return client && /codex/i.test(client) ? CODEX_WAIT_S : undefined;
}

/** Under Codex's 300 s, with room for the lock and the last check. */
const CODEX_WAIT_S = 240;

/** wait_tasks's default `timeout_s`: under the strictest cap that progress does not extend. */
export const WAIT_TASKS_S = 240;
