/** list_tasks: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "list_tasks",
  title: "List tasks",
  description: "Not available yet.",
  input: z.object({
    limit: z.number().int().min(1).max(1000).default(20).describe("How many tasks, newest first"),
  }),
  output: z.looseObject({ status: z.string() }),
  needs: ["read"],
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  run() {
    return Promise.reject(new ToolError("list_tasks is not built yet"));
  },
});
