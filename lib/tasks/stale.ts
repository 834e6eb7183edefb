/**
 * Cleaning up after runs that died: a run killed between creating a temporary file (or a new
 * folder, made under a temporary name first) and renaming it leaves `.<name>.<8 hex>.localexec-tmp`
 * in the tree. Its record named it before it was created (write-ahead), so a fresh server removes
 * it without searching the tree. A dead run's workspace (`workspace.ts`) goes with its claim, and
 * other projects' copies unused for a day whose owner is gone go too (`sweep.ts`).
 */
import { join } from "../deps.ts";
import { removeChecked } from "../fs_atomic.ts";
import { removeStaleClaims } from "./claims.ts";
import { storeDir } from "./dir.ts";
import { listTasks } from "./store.ts";
import { sweepWorkspaces } from "./sweep.ts";

/**
 * Removes the temporary entry `temp` (project-relative) a task's record names: a file, or a folder
 * made under its temporary name (empty: nothing is put in it before its rename). Returns false when
 * nothing is there; throws for anything else under that name (a link, a folder with files).
 */
export function removeTemp(root: string, temp: string): boolean {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(join(root, temp));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
      return false;
    }
    throw err;
  }
  return removeChecked(root, temp, info.isDirectory);
}

/**
 * Removes the temporary files and folders named by tasks whose run died (shown as `interrupted`);
 * returns how many were removed. Also removes dead runs' workspaces, and sweeps the cache of other
 * projects' old copies (`sweepWorkspaces`). Never throws. It takes no lock (a lock taken at start
 * would make a dead run look alive to a reader for a moment): the names are unique to their run,
 * and a live run is never `interrupted`. The records keep the names; revert finds them gone.
 */
export async function removeStaleTemps(root: string): Promise<number> {
  const removed = await _removeOwn(root);
  await sweepWorkspaces(root);
  return removed;
}

/** Removes the project's own dead runs' claims, workspaces and temporary names. */
async function _removeOwn(root: string): Promise<number> {
  const store = await Deno.lstat(storeDir(root)).catch(() => undefined);
  if (!store?.isDirectory) return 0;
  // Workspaces of runs that died, and their claims.
  await removeStaleClaims(root);
  let removed = 0;
  try {
    for (const task of await listTasks(root)) {
      if (task.status !== "interrupted") continue;
      for (const temp of task.temps ?? []) {
        try {
          if (removeTemp(root, temp)) removed++;
        } catch {
          // gone, or no longer a regular file or empty folder of ours
        }
      }
    }
  } catch {
    // not readable: the next start tries again
  }
  return removed;
}
