/** revert_task: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "revert_task",
  title: "Revert task",
  description: "Not available yet.",
  input: z.object({
    task_id: z.string().max(64).describe("The task to undo"),
    dry_run: z.boolean().default(false).describe(
      "Report what would happen without changing anything",
    ),
    force: z.boolean().default(false).describe(
      "Also restore files that were edited after the task",
    ),
  }),
  output: z.looseObject({ status: z.string() }),
  needs: ["read", "write"],
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  run() {
    return Promise.reject(new ToolError("revert_task is not built yet"));
  },
});
