/**
 * The temporary project of one task: a fresh folder holding the task's files and a
 * `.localexec.json` made of the user's model settings and the task's checks. Every folder made
 * here is tracked until it is removed, so a cancelled run can remove what is left.
 */
import { dirname, join } from "../deps.ts";
import type { EvalTask } from "./tasks.ts";

/** The prefix of every temporary project's folder name. */
export const TEMP_PREFIX = "localexec-eval-";

/** Copies the regular files and folders under `from` into `to` (links are left out). */
export async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

/** Writes the task's files (the project before the step) into the folder `to`. */
export async function writeTaskFiles(task: EvalTask, to: string): Promise<void> {
  if (!task.bundle) return await copyTree(join(task.dir, "files"), to);
  for (const [rel, text] of Object.entries(task.bundle.files)) {
    await Deno.mkdir(dirname(join(to, rel)), { recursive: true });
    await Deno.writeTextFile(join(to, rel), text);
  }
}

/** The temporary projects that exist now. */
export class Projects {
  readonly live: Set<string> = new Set();

  /**
   * Makes the project of `task`: its files, and `.localexec.json` = `settings` (the user's
   * configuration without its checks) + the task's checks.
   */
  async make(task: EvalTask, settings: Record<string, unknown>): Promise<string> {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: TEMP_PREFIX }));
    this.live.add(root);
    await writeTaskFiles(task, root);
    // One task per project, gone at its end: no standby copy of it is worth making.
    const config = { ...settings, checks: task.checks, workspace_standby: false };
    await Deno.writeTextFile(join(root, ".localexec.json"), JSON.stringify(config, null, 2));
    return root;
  }

  /** Removes one project; never throws. */
  async remove(root: string): Promise<void> {
    await Deno.remove(root, { recursive: true }).catch(() => {});
    this.live.delete(root);
  }

  /** Removes every project left, at once (for a second Ctrl-C); never throws. */
  removeAllSync(): void {
    for (const root of this.live) {
      try {
        Deno.removeSync(root, { recursive: true });
      } catch {
        // already gone
      }
    }
    this.live.clear();
  }
}
