/** run_python: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "run_python",
  title: "Run Python",
  description: "Not available yet.",
  input: z.object({
    code: z.string().min(1).max(10_000_000).describe("Python source to run with python3"),
    cwd: z.string().max(4096).default(".").describe("Working folder, relative to the project root"),
    timeout: z.number().positive().max(3600).default(5).describe(
      "Seconds before the process group is killed (default 5)",
    ),
    stdin: z.string().nullable().optional().describe("Data for the script's standard input"),
  }),
  output: z.looseObject({ status: z.string() }),
  needs: ["read", "write", "run"],
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  run() {
    return Promise.reject(new ToolError("run_python is not built yet"));
  },
});
