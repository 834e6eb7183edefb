/**
 * wait_tasks: the verdicts of the tasks this server runs in the background (implement_task with
 * `wait_s`), as soon as they are there (`lib/mcp/running.ts`).
 */
import { z } from "zod";
import description from "./wait_tasks.md" with { type: "text" };
import { ANNOTATIONS, defineTool, prose, RUNNING_OUTPUT, WAIT_TASKS_S } from "../lib/mcp/mod.ts";
import { ENGINE_NEEDS, VERDICT_SHAPE } from "../lib/implement/mod.ts";

export default defineTool({
  name: "wait_tasks",
  title: "Wait for background tasks",
  description: prose(description),
  input: z.object({
    task_ids: z.array(z.string().max(64)).max(100).optional().describe(
      "Tasks to wait for; default the running ones and those finished but not yet reported",
    ),
    timeout_s: z.number().min(0).max(3600).default(WAIT_TASKS_S).describe(
      `Seconds to wait at most; default ${WAIT_TASKS_S}`,
    ),
    mode: z.enum(["all", "any"]).default("all").describe(
      '"all" waits for every task, "any" for the first to end',
    ),
  }),
  output: z.looseObject({
    status: z.string(),
    finished: z.array(z.looseObject({ task_id: z.string(), ...VERDICT_SHAPE })).optional()
      .describe("The verdicts of the tasks that ended, each as implement_task answers it"),
    running: z.array(RUNNING_OUTPUT).optional().describe("The tasks still running"),
    unknown: z.array(z.string()).optional().describe(
      "Ids asked for that this server does not run in the background",
    ),
    note: z.string().optional(),
  }),
  needs: ENGINE_NEEDS,
  annotations: ANNOTATIONS.READS,
  async run({ task_ids, timeout_s, mode }, ctx) {
    const answer = await ctx.state.tasks.wait(task_ids, {
      ms: timeout_s * 1000,
      mode,
      signal: ctx.signal,
      progress: (m) => ctx.progress(m),
    });
    const none = !answer.finished.length && !answer.running.length;
    return {
      status: "ok",
      finished: answer.finished,
      running: answer.running,
      ...(answer.unknown.length ? { unknown: answer.unknown } : {}),
      ...(answer.unknown.length
        ? { note: "unknown: not run in the background by this server; list_tasks has every record" }
        : none
        ? { note: "no task is running in the background and every verdict was reported" }
        : {}),
    };
  },
});
