/**
 * implement_task: have the local model make one small, precisely specified change, verified by
 * the project's checks. The loop lives in `lib/implement/`, loaded on first use.
 */
import { z } from "zod";
import description from "./implement_task.md" with { type: "text" };
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";
import { loadToolConfig } from "../lib/config.ts";
import { ENGINE_NEEDS, errorVerdict, implementTask } from "../lib/implement/mod.ts";
import { TASK_ID } from "../lib/tasks/mod.ts";

export default defineTool({
  name: "implement_task",
  title: "Implement task with the local model",
  description: prose(description),
  input: z.object({
    task_id: z.string().regex(
      TASK_ID,
      "letters, digits, ., _ and -, up to 64 characters",
    ).describe("Unique id such as T1-add-retry"),
    spec: z.string().min(1).max(100_000).describe(
      "Precise instructions: goal, signatures, edge cases and acceptance",
    ),
    files_to_edit: z.array(z.string().max(4096)).min(1).max(2).describe(
      "One or two project-relative paths; new files must be listed too",
    ),
    context_files: z.array(z.string().max(4096)).max(20).optional().describe(
      "Read-only files the model should see",
    ),
    checks: z.array(z.string().max(64)).max(20).optional().describe(
      "Checks from .localexec.json; default all; [] runs none",
    ),
    symbols: z.array(z.string().max(4096)).max(20).optional().describe(
      "path::name entries: show the model only these functions or classes",
    ),
    model: z.string().min(1).max(200).optional().describe(
      "Start at the ladder's rung with this model (see status); default the first rung",
    ),
  }),
  output: z.looseObject({
    status: z.string(),
    attempts: z.number(),
    escalate: z.boolean(),
    why: z.string(),
  }),
  needs: ENGINE_NEEDS,
  annotations: ANNOTATIONS.CHANGES,
  async run(args, ctx) {
    // The engine's own context: it never sees the MCP layer's.
    return await implementTask(args, {
      root: ctx.root,
      signal: ctx.signal,
      progress: (message) => ctx.progress(message),
      config: () => loadToolConfig(ctx.state.configPath, ctx.root),
    });
  },
  errorFields(message) {
    const { attempts, why, escalate } = errorVerdict(message);
    return { attempts, why, escalate };
  },
});
