/**
 * Scores: the figures of a set of outcomes (per model, per language, per kind) and the one-line
 * recommendation that says which kinds of steps a model can be handed.
 */
import { savedTokens } from "../tasks/mod.ts";
import type { TaskOutcome } from "./run_task.ts";

/** The figures of a set of outcomes. */
export interface Score {
  tasks: number;
  passed: number;
  /** Passed on the first attempt. */
  first_try: number;
  /** Median attempts over every task run (a task that never reached the model counts 0). */
  median_attempts: number | null;
  /** Median wall-clock seconds per task. */
  median_seconds: number | null;
  prompt_tokens: number;
  reply_tokens: number;
  /** Replies the parser refused, over every attempt. */
  refused: number;
  /** Over the passed tasks: the caller's tokens for the calls and verdicts. */
  call_tokens: number;
  /** Over the same tasks: the tokens of reading the files and writing the changes itself. */
  self_tokens: number;
}

/** The median of `values`, or null when there are none. */
export function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const m = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return Math.round(m * 100) / 100;
}

/** The figures of `outcomes`. */
export function score(outcomes: TaskOutcome[]): Score {
  const sum = (f: (o: TaskOutcome) => number) => outcomes.reduce((n, o) => n + f(o), 0);
  return {
    tasks: outcomes.length,
    passed: sum((o) => o.passed ? 1 : 0),
    first_try: sum((o) => o.first_try ? 1 : 0),
    median_attempts: median(outcomes.map((o) => o.attempts)),
    median_seconds: median(outcomes.map((o) => o.seconds)),
    prompt_tokens: sum((o) => o.prompt_tokens),
    reply_tokens: sum((o) => o.reply_tokens),
    refused: sum((o) => o.refused),
    ...savedTokens(outcomes.filter((o) => o.passed)),
  };
}

/** `outcomes` grouped by `key`, groups in first-seen order. */
export function groupBy<T extends TaskOutcome>(
  outcomes: T[],
  key: (o: T) => string,
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const o of outcomes) {
    const k = key(o);
    groups.set(k, [...(groups.get(k) ?? []), o]);
  }
  return groups;
}

/** True when at least one of `outcomes` got as far as asking the model. */
export function reachedModel(outcomes: TaskOutcome[]): boolean {
  return outcomes.some((o) => o.attempts > 0);
}

/** How the bundled suite's kinds read in a sentence. */
const KIND_PHRASES: Record<string, string> = {
  "bug fix": "bug fixes",
  "new function": "new functions",
  "new file": "new files",
  "two files": "edits across two files",
  "symbols": "edits inside large files (symbols)",
  "context file": "steps that need a context file",
  "tabs": "tab-indented files",
};

function _list(kinds: string[]): string {
  const words = kinds.map((k) => KIND_PHRASES[k] ?? k);
  return words.length < 2
    ? words.join("")
    : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/**
 * The one-line recommendation for a model from its outcomes: the kinds of steps it passed every
 * time can be delegated; the others stay with the caller.
 */
export function recommend(outcomes: TaskOutcome[]): string {
  const all = score(outcomes);
  if (!all.tasks) return "no task ran: nothing to recommend";
  if (!reachedModel(outcomes)) {
    return `no task reached the model (${outcomes[0].why || outcomes[0].status}): nothing measured`;
  }
  if (!all.passed) return "do not delegate to this model: it passed no task";
  const good: string[] = [];
  const weak: string[] = [];
  for (const [kind, list] of groupBy(outcomes, (o) => o.kind)) {
    (list.every((o) => o.passed) ? good : weak).push(kind);
  }
  const retries = all.first_try < all.passed / 2 ? "; expect retries" : "";
  if (!weak.length) return `delegate any of these steps: ${_list(good)}${retries}`;
  if (!good.length) {
    return `delegate with care: it passed ${all.passed} of ${all.tasks} tasks and no kind of ` +
      `step every time; keep ${_list(weak)} for yourself${retries}`;
  }
  return `delegate ${_list(good)}; keep ${_list(weak)} for yourself${retries}`;
}
