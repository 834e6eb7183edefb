/**
 * Cleaning up after runs that died: a run killed between creating a temporary file and renaming
 * it leaves `.<name>.<8 hex>.localexec-tmp` in the tree. Its record named the file before it was
 * created (write-ahead), so a fresh server removes it without searching the tree.
 */
import { withProjectLock } from "./lock.ts";
import { removeChecked } from "../fs_atomic.ts";
import { storeDir } from "./dir.ts";
import { listTasks, updateTask } from "./store.ts";

/**
 * Removes the temporary files named by tasks whose run died (shown as `interrupted`), when the
 * project lock is free right now; returns how many were removed. Never throws.
 */
export async function removeStaleTemps(root: string): Promise<number> {
  const store = await Deno.lstat(storeDir(root)).catch(() => undefined);
  if (!store?.isDirectory) return 0;
  let removed = 0;
  try {
    await withProjectLock(root, { timeoutS: 0, tool: "cleanup" }, async () => {
      for (const task of await listTasks(root)) {
        if (task.status !== "interrupted" || !task.temps?.length) continue;
        for (const temp of task.temps) {
          try {
            if (removeChecked(root, temp)) removed++;
          } catch {
            // no longer a regular file of ours
          }
        }
        await updateTask(root, task.id, { temps: [] });
      }
    });
  } catch {
    // busy (another server holds the lock) or not writable: the next start tries again
  }
  return removed;
}
