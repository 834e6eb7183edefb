/**
 * What eval shows: the result (one table per model, for stdout or `--json`) and the progress on
 * stderr, one line per task (on a terminal, a live line shows the running tasks until each ends).
 */
import { ProgressLine, type ProgressLineOptions } from "../cli/mod.ts";
import type { TaskOutcome } from "./run_task.ts";
import { groupBy, recommend, type Score, score } from "./score.ts";
import type { Skipped } from "./toolchains.ts";

/** One model's result. */
export interface ModelResult {
  model: string;
  score: Score;
  by_language: Record<string, Score>;
  by_kind: Record<string, Score>;
  recommendation: string;
  tasks: TaskOutcome[];
}

/** A whole eval run, as `--json` prints it and the record keeps it. */
export interface EvalResult {
  started: string;
  finished: string;
  /** Where the tasks came from: "bundled" or the `--tasks` folder. */
  suite: string;
  models: ModelResult[];
  /** Languages left out because their toolchain is missing. */
  skipped: Skipped[];
}

/** The result of one model's outcomes. */
export function modelResult(model: string, outcomes: TaskOutcome[]): ModelResult {
  const by = (key: (o: TaskOutcome) => string) =>
    Object.fromEntries([...groupBy(outcomes, key)].map(([k, list]) => [k, score(list)]));
  return {
    model,
    score: score(outcomes),
    by_language: by((o) => o.language),
    by_kind: by((o) => o.kind),
    recommendation: recommend(outcomes),
    tasks: outcomes,
  };
}

const COLUMNS = [
  "tasks",
  "passed",
  "first try",
  "median attempts",
  "median s",
  "prompt tokens",
  "reply tokens",
  "refused",
];

function _cells(s: Score): string[] {
  return [
    s.tasks,
    s.passed,
    s.first_try,
    s.median_attempts ?? "-",
    s.median_seconds ?? "-",
    s.prompt_tokens,
    s.reply_tokens,
    s.refused,
  ].map(String);
}

/** The tables of `result`, one per model, as text. */
export function renderTables(result: EvalResult): string {
  const out: string[] = [];
  for (const m of result.models) {
    const rows: string[][] = [["language", ...COLUMNS]];
    for (const [language, s] of Object.entries(m.by_language)) rows.push([language, ..._cells(s)]);
    rows.push(["all", ..._cells(m.score)]);
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    const line = (r: string[]) =>
      "  " + r.map((c, i) => i ? c.padStart(widths[i]) : c.padEnd(widths[i])).join("  ");
    out.push(m.model);
    out.push(...rows.slice(0, -1).map(line));
    for (const s of result.skipped) {
      out.push(`  ${s.language.padEnd(widths[0])}  skipped: ${s.why} (${s.tasks} tasks)`);
    }
    out.push(line(rows[rows.length - 1]));
    out.push(`  ${savingsLine(m.score)}`);
    out.push(`  recommendation: ${m.recommendation}`, "");
  }
  if (!result.models.length) out.push("no model ran", "");
  return out.join("\n");
}

/**
 * What delegating saved the caller over a model's passed tasks (docs/EVAL.md, "What delegating
 * saves"): its tokens for the calls and verdicts against those of doing the steps itself.
 */
export function savingsLine(s: Score): string {
  if (!s.passed) return "delegating saved: nothing (no task passed)";
  if (!s.self_tokens) return "delegating saved: not measured (no passed task recorded it)";
  const n = (x: number) => x.toLocaleString("en-US");
  const saved = s.self_tokens - s.call_tokens;
  const head = saved >= 0
    ? `delegating saved the caller ${n(saved)} tokens`
    : `delegating cost the caller ${n(-saved)} more tokens`;
  const ratio = s.call_tokens && saved > 0
    ? ` (${(s.self_tokens / s.call_tokens).toFixed(1)}x fewer)`
    : "";
  return `${head} over ${s.passed} passed task${s.passed === 1 ? "" : "s"}: ${
    n(s.call_tokens)
  } for the calls and verdicts against ${
    n(s.self_tokens)
  } to read the files and write the changes itself${ratio}`;
}

/** The line that says how one task ended. */
export function outcomeLine(o: TaskOutcome): string {
  const tries = `${o.attempts} attempt${o.attempts === 1 ? "" : "s"}`;
  const refused = o.refused ? `, ${o.refused} refused` : "";
  const why = o.passed ? "" : `: ${o.why}`.slice(0, 120);
  return `${o.status.padEnd(7)} ${o.task} (${o.model}; ${tries}${refused}, ${
    o.seconds.toFixed(1)
  } s)${why}`;
}

/**
 * Progress on stderr: a line per finished task, and on a terminal a live line of running ones
 * (`lib/cli/progress_line.ts`, the line `localexec call` shows too).
 */
export class Progress {
  #running = new Map<string, string>();
  #done = 0;
  #line: ProgressLine;

  constructor(private total: number, options: ProgressLineOptions = {}) {
    this.#line = new ProgressLine("localexec eval", options);
  }

  #draw(): void {
    if (!this.#line.tty || !this.#running.size) return;
    const parts = [...this.#running].map(([task, msg]) => `${task}: ${msg}`);
    this.#line.show(`[${this.#done}/${this.total}] ${parts.join(" | ")}`);
  }

  /** Shows that `task` is running and what it does now. */
  update(task: string, message: string): void {
    this.#running.set(task, message);
    this.#draw();
  }

  /** Writes the line of a finished task. */
  finish(task: string, line: string): void {
    this.#running.delete(task);
    this.#done++;
    this.#line.note(`[${this.#done}/${this.total}] ${line}`);
    this.#draw();
  }

  /** Writes a note on its own line. */
  note(text: string): void {
    this.#line.note(`localexec eval: ${text}`);
    this.#draw();
  }
}
