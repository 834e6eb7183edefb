/** list_tasks: one line per recorded task, newest first, with totals of the local work. */
import { z } from "zod";
import description from "./list_tasks.md" with { type: "text" };
import { listTasks, type TaskRecord, taskTotals, TOTALS_OUTPUT } from "../lib/tasks/mod.ts";
import { ANNOTATIONS, defineTool, prose, RUNNING_OUTPUT } from "../lib/mcp/mod.ts";

const SPEC_CHARS = 48;
const PATH_CHARS = 60;

/** `path`, or its last {@linkcode PATH_CHARS} characters after `…` when it is longer. */
function _short(path: string): string {
  return path.length > PATH_CHARS ? `…${path.slice(path.length - PATH_CHARS + 1)}` : path;
}

/**
 * `T1 passed 1 attempt by qwen2.5-coder:7b calc.py — Fix add…` (with `[reverted]` after the status
 * when undone; `by <model>` names the model that produced the result, when the record says). A
 * task running in this server counts the attempt it is in (`attempt`, as `running[]` says it),
 * which its record counts only once the model has answered.
 */
export function taskLine(t: TaskRecord, attempt = 0): string {
  const spec = t.spec.replace(/\s+/g, " ").trim();
  const start = spec.length > SPEC_CHARS ? `${spec.slice(0, SPEC_CHARS).trimEnd()}…` : spec;
  const shown = t.files.slice(0, 2).map(_short).join(", ");
  const files = t.files.length > 2 ? `${shown} +${t.files.length - 2}` : shown;
  const n = Math.max(t.attempts, attempt);
  const attempts = `${n} attempt${n === 1 ? "" : "s"}`;
  const by = typeof t.model === "string" ? ` by ${t.model}` : "";
  return `${t.id} ${t.status}${
    t.reverted_at ? " [reverted]" : ""
  } ${attempts}${by} ${files} — ${start}`;
}

export default defineTool({
  name: "list_tasks",
  title: "List tasks",
  description: prose(description),
  input: z.object({
    limit: z.number().default(20).describe(
      "How many tasks to list, newest first; default 20, clamped between 1 and 1000",
    ),
  }),
  output: z.looseObject({
    status: z.string(),
    total: z.number().optional(),
    tasks: z.array(z.string()).optional(),
    running: z.array(RUNNING_OUTPUT).optional().describe(
      "The tasks this server runs in the background",
    ),
    totals: TOTALS_OUTPUT.optional().describe("The model's tokens and seconds over every task"),
    note: z.string().optional(),
  }),
  needs: ["read"],
  annotations: ANNOTATIONS.READS,
  async run({ limit }, ctx) {
    const tasks = await listTasks(ctx.root);
    const shown = tasks.slice(0, Math.min(1000, Math.max(1, Math.trunc(limit))));
    // Tasks this server runs in the background, those still waiting for the lock included.
    const running = ctx.state.tasks.running();
    return {
      status: "ok",
      total: tasks.length,
      tasks: shown.map((t) => taskLine(t, running.find((r) => r.task_id === t.id)?.attempt)),
      ...(running.length ? { running } : {}),
      totals: taskTotals(tasks),
      ...(tasks.length > shown.length
        ? { note: `showing the newest ${shown.length} of ${tasks.length}; raise limit for more` }
        : {}),
    };
  },
});
