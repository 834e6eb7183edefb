/**
 * Which toolchains a task's checks need actually run: each program is found on PATH and a
 * toolchain wrapper answers its version probe (`rustc --version` exits 0; `lib/process/probe.ts`),
 * so a task whose toolchain is missing or broken (rustup with no default toolchain) is skipped, and
 * the table says why, instead of failing for a reason that is not the model's.
 */
import { cannotStart } from "../process/mod.ts";
import type { EvalTask } from "./tasks.ts";

/** A language left out, and why. */
export interface Skipped {
  language: string;
  tasks: number;
  why: string;
}

/** Why `program` cannot run from `cwd` with `path` as PATH, or undefined when it runs. */
export async function toolchainProblem(
  program: string,
  o: { cwd: string; path?: string },
): Promise<string | undefined> {
  const found = await cannotStart([program], o.cwd, { path: o.path });
  if (!found) return undefined;
  return /: command not found$/.test(found.problem)
    ? `${program} not found on PATH`
    : found.problem;
}

/**
 * Splits `tasks` into those whose programs run and the languages skipped. `path` replaces the
 * PATH the probes see; `cwd` is where they run.
 */
export async function splitByToolchain(
  tasks: EvalTask[],
  o: { cwd: string; path?: string },
): Promise<{ runnable: EvalTask[]; skipped: Skipped[] }> {
  const runnable: EvalTask[] = [];
  const skipped = new Map<string, Skipped>();
  const problems = new Map<string, string | undefined>();
  for (const p of new Set(tasks.flatMap((t) => t.requires))) {
    problems.set(p, await toolchainProblem(p, o));
  }
  for (const task of tasks) {
    const why = task.requires.map((p) => problems.get(p)).filter((w) => w !== undefined);
    if (!why.length) {
      runnable.push(task);
      continue;
    }
    const entry = skipped.get(task.language) ??
      { language: task.language, tasks: 0, why: why.join("; ") };
    entry.tasks++;
    skipped.set(task.language, entry);
  }
  return { runnable, skipped: [...skipped.values()] };
}
