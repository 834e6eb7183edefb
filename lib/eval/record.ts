/**
 * Eval runs in the delegation record, apart from real work: each run is one file,
 * `<root>/.localexec/eval/<time>.json` (the {@linkcode EvalResult}), never a task record of the
 * project, so `list_tasks`, `revert_task` and the record of real tasks never see eval tasks; and
 * every eval task id starts with `eval-` wherever it appears. {@linkcode evalRows} is the hook
 * for `status`: rows shaped like the record's rows of real work, marked `eval: true`.
 */
import { join } from "../deps.ts";
import { writeFileAtomic } from "../fs_atomic.ts";
import { ensureStore, storeDir } from "../tasks/mod.ts";
import type { EvalResult } from "./report.ts";
import type { TaskOutcome } from "./run_task.ts";
import { groupBy, score } from "./score.ts";

/** The folder of eval runs inside the store. */
export const EVAL_DIR = "eval";

/** Writes `result` as one run of the project at `root`; returns the file's path. */
export async function writeEvalRecord(root: string, result: EvalResult): Promise<string> {
  const dir = join(await ensureStore(root), EVAL_DIR);
  await Deno.mkdir(dir, { recursive: true });
  const stamp = result.finished.replace(/[:.]/g, "-");
  const path = join(dir, `${stamp}.json`);
  await writeFileAtomic(path, JSON.stringify(result, null, 1) + "\n");
  return path;
}

/** Every eval run recorded for `root`, oldest first; unreadable files are left out. */
export async function readEvalRuns(root: string): Promise<EvalResult[]> {
  const dir = join(storeDir(root), EVAL_DIR);
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(".json")) names.push(e.name);
    }
  } catch {
    return [];
  }
  const runs: EvalResult[] = [];
  for (const name of names.sort()) {
    try {
      const run = JSON.parse(await Deno.readTextFile(join(dir, name)));
      if (Array.isArray(run?.models)) runs.push(run);
    } catch {
      // a file being written or damaged: skip it
    }
  }
  return runs;
}

/** One row of the eval record: the figures of one model on one language, over every run. */
export interface EvalRow {
  model: string;
  /** The language of the edited files, as the record of real work has it. */
  kind: string;
  tasks: number;
  passed: number;
  first_try: number;
  median_attempts: number | null;
  median_seconds: number | null;
  /** Over the passed tasks: the caller's tokens for the calls and verdicts. */
  call_tokens: number;
  /** Over the same tasks: the tokens of reading the files and writing the changes itself. */
  self_tokens: number;
  /** Always true: these rows measure the eval suite, not the project's own work. */
  eval: true;
  /** When the latest run that counts here finished. */
  last: string;
}

/**
 * The eval record of `root` for `status`: rows per model and language, over every recorded run
 * (each task outcome counts once per run), sorted by model then language.
 */
export async function evalRows(root: string): Promise<EvalRow[]> {
  const outcomes: (TaskOutcome & { finished: string })[] = [];
  for (const run of await readEvalRuns(root)) {
    for (const m of run.models) {
      for (const t of m.tasks ?? []) {
        outcomes.push({ ...t, model: m.model, finished: run.finished });
      }
    }
  }
  const rows: EvalRow[] = [];
  for (const [key, list] of groupBy(outcomes, (o) => `${o.model}\u0000${o.language}`)) {
    const [model, kind] = key.split("\u0000");
    const s = score(list);
    rows.push({
      model,
      kind,
      tasks: s.tasks,
      passed: s.passed,
      first_try: s.first_try,
      median_attempts: s.median_attempts,
      median_seconds: s.median_seconds,
      call_tokens: s.call_tokens,
      self_tokens: s.self_tokens,
      eval: true,
      last: list.map((o) => o.finished).sort().pop()!,
    });
  }
  return rows.sort((a, b) => a.model.localeCompare(b.model) || a.kind.localeCompare(b.kind));
}
