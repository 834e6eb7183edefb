/** revert_task: undo a task from its backups in .localexec/<id>.orig/. */
import { z } from "zod";
import description from "./revert_task.md" with { type: "text" };
import { loadToolConfig } from "../lib/config.ts";
import { PROVIDERS } from "../lib/providers/mod.ts";
import {
  askToCancel,
  claimAlive,
  claimOf,
  clearCancel,
  pendingAlive,
  revertTask,
  TASK_ID,
  TaskRunningError,
  unknownTask,
  withProjectLock,
} from "../lib/tasks/mod.ts";
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
    kept: z.array(z.string()).optional(),
    left: z.array(z.string()).optional(),
    cancelled: z.boolean().optional(),
    note: z.string().optional(),
  }),
  needs: ["read", "write"],
  annotations: ANNOTATIONS.OVERWRITES,
  async run({ task_id, dry_run, force }, ctx) {
    if (!TASK_ID.test(task_id)) throw await unknownTask(ctx.root, task_id);
    const { tasks } = ctx.state;
    let cancelled: string | undefined; // what was stopped before the revert, for the answer
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
      cancelled = `task ${task_id} was running: it was cancelled first`;
    }
    const timeoutS = await loadToolConfig(ctx.state.configPath, ctx.root, PROVIDERS, ctx.warn).then(
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
    // A task another server runs is asked to stop there first: it never lands after the revert.
    const elsewhere = await _runningElsewhere(ctx.root, task_id);
    if (elsewhere) {
      if (dry_run) {
        return {
          status: "ok",
          note: `task ${task_id} is running in another localexec server (${elsewhere}); without ` +
            "dry_run, revert_task asks it to stop first, then reverts it",
        };
      }
      ctx.progress(`asking ${elsewhere} to stop task ${task_id}`);
      await withProjectLock(ctx.root, lock, () => askToCancel(ctx.root, task_id));
      try {
        await _stopped(ctx.root, task_id, ctx.signal);
      } finally {
        await clearCancel(ctx.root, task_id);
      }
      cancelled = `task ${task_id} was running in another localexec server (${elsewhere}): ` +
        "it was asked to stop first, and stopped";
      const still = await _runningElsewhere(ctx.root, task_id);
      if (still) {
        throw new TaskRunningError(
          `task ${task_id} is running in another localexec server (${still}) and did not stop ` +
            `within ${STOP_WAIT_S} s of being asked; nothing was reverted: try again, or stop it ` +
            "there",
          0,
        );
      }
    }
    const out: Record<string, unknown> = await withProjectLock(
      ctx.root,
      lock,
      () => revertTask(ctx.root, task_id, { dryRun: dry_run, force }),
    );
    if (!cancelled) return out;
    const note = typeof out.note === "string" ? `${cancelled}; ${out.note}` : cancelled;
    return { ...out, cancelled: true, note };
  },
});

/** How long revert_task waits for another server to stop a task it asked to stop, in seconds. */
const STOP_WAIT_S = 30;

/** Who runs task `id` in another server (`pid N`, or `a server` before it has claimed), or none. */
async function _runningElsewhere(root: string, id: string): Promise<string | undefined> {
  const claim = await claimOf(root, id);
  if (claim) return claim.pid ? `pid ${claim.pid}` : "a server";
  return await pendingAlive(root, id) ? "a server, before it began" : undefined;
}

/** Waits until task `id` holds neither its claim nor its pending file, or STOP_WAIT_S pass. */
async function _stopped(root: string, id: string, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + STOP_WAIT_S * 1000;
  while (Date.now() < deadline) {
    if (!(await claimAlive(root, id)) && !(await pendingAlive(root, id))) return;
    signal.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
