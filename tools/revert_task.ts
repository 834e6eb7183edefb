/** revert_task: undo a task from its backups in .localexec/<id>.orig/. */
import { z } from "zod";
import description from "./revert_task.md" with { type: "text" };
import { loadConfig } from "../lib/config.ts";
import { revertTask, TASK_ID, unknownTask, withProjectLock } from "../lib/tasks/mod.ts";
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";

export default defineTool({
  name: "revert_task",
  title: "Revert task",
  description: prose(description),
  input: z.object({
    task_id: z.string().max(64).describe("The task to undo"),
    dry_run: z.boolean().default(false).describe(
      "Report what would happen without changing anything",
    ),
    force: z.boolean().default(false).describe(
      "Also restore files that were edited after the task",
    ),
  }),
  output: z.looseObject({
    status: z.string(),
    restore: z.array(z.string()).optional(),
    remove: z.array(z.string()).optional(),
    skipped: z.array(z.string()).optional(),
    left: z.array(z.string()).optional(),
    note: z.string().optional(),
  }),
  needs: ["read", "write"],
  annotations: ANNOTATIONS.OVERWRITES,
  async run({ task_id, dry_run, force }, ctx) {
    if (!TASK_ID.test(task_id)) throw await unknownTask(ctx.root, task_id);
    const { tasks } = ctx.state;
    if (tasks.isRunning(task_id)) {
      if (dry_run) {
        return {
          status: "ok",
          note: `task ${task_id} is running in the background; without dry_run, revert_task ` +
            "cancels it first, then reverts it",
        };
      }
      // Cancelled first: the run ends (its record says so), then its edits are undone.
      ctx.progress(`cancelling task ${task_id}`);
      await tasks.cancel(task_id);
    }
    const timeoutS = await loadConfig(ctx.state.configPath).then(
      (c) => c.lock_timeout_s,
      () => 120,
    );
    const lock = {
      timeoutS,
      signal: ctx.signal,
      onWait: (m: string) => ctx.progress(m),
      tool: "revert_task",
      taskId: task_id,
    };
    return await withProjectLock(
      ctx.root,
      lock,
      () => revertTask(ctx.root, task_id, { dryRun: dry_run, force }),
    );
  },
});
