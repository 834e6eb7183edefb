/** run_checks: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "run_checks",
  title: "Run checks",
  description: "Not available yet.",
  input: z.object({
    names: z.array(z.string().max(64)).max(20).optional().describe("Checks to run; default all"),
    task_id: z.string().max(64).optional().describe("Run file-scoped checks on this task's files"),
  }),
  output: z.looseObject({ status: z.string() }),
  needs: ["read", "write", "run"],
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  run() {
    return Promise.reject(new ToolError("run_checks is not built yet"));
  },
});
