/** implement_task: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "implement_task",
  title: "Implement task with the local model",
  description: "Not available yet.",
  input: z.object({
    task_id: z.string().regex(
      /^[A-Za-z0-9._-]{1,64}$/,
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
      "Checks from .localexec.json; default all",
    ),
    symbols: z.array(z.string().max(4096)).max(20).optional().describe(
      "path::name entries: show the model only these functions or classes",
    ),
  }),
  output: z.looseObject({ status: z.string() }),
  needs: ["read", "write", "run", "net"],
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  run() {
    return Promise.reject(new ToolError("implement_task is not built yet"));
  },
});
