/** show_patch: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "show_patch",
  title: "Show task patch",
  description: "Not available yet.",
  input: z.object({
    task_id: z.string().max(64).describe("The task whose diff to show"),
    file: z.string().max(4096).nullable().optional().describe("Show only this file"),
    max_lines: z.number().int().default(60).describe("Lines to show, clamped between 5 and 300"),
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
    return Promise.reject(new ToolError("show_patch is not built yet"));
  },
});
