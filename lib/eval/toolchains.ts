/**
 * Which programs a task's checks need are on PATH: a task whose toolchain is missing is skipped
 * (and the table says so) instead of failing for a reason that is not the model's.
 */
import { join } from "../deps.ts";
import type { EvalTask } from "./tasks.ts";

/** True when an executable file `name` is in one of the folders of `path` (PATH's format). */
export function onPath(name: string, path: string): boolean {
  for (const dir of path.split(":")) {
    if (!dir) continue;
    try {
      const info = Deno.statSync(join(dir, name));
      if (info.isFile && ((info.mode ?? 0o111) & 0o111)) return true;
    } catch {
      // not there, or not readable: look on
    }
  }
  return false;
}

/** A language left out, and why. */
export interface Skipped {
  language: string;
  tasks: number;
  why: string;
}

/** Splits `tasks` into those whose programs are on `path` and the languages skipped. */
export function splitByToolchain(
  tasks: EvalTask[],
  path: string,
): { runnable: EvalTask[]; skipped: Skipped[] } {
  const runnable: EvalTask[] = [];
  const skipped = new Map<string, Skipped>();
  const found = new Map<string, boolean>();
  for (const task of tasks) {
    const missing = task.requires.filter((p) => {
      if (!found.has(p)) found.set(p, onPath(p, path));
      return !found.get(p);
    });
    if (!missing.length) {
      runnable.push(task);
      continue;
    }
    const entry = skipped.get(task.language) ??
      { language: task.language, tasks: 0, why: `${missing.join(", ")} not found on PATH` };
    entry.tasks++;
    skipped.set(task.language, entry);
  }
  return { runnable, skipped: [...skipped.values()] };
}
