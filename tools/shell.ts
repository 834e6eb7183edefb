/** shell: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "shell",
  title: "Run shell command",
  description: "Not available yet.",
  input: z.object({
    command: z.string().min(1).max(100_000).describe("Shell command, run by sh -c"),
    timeout: z.number().positive().max(3600).default(5).describe(
      "Seconds before the whole process group is killed (default 5)",
    ),
    cwd: z.string().max(4096).default(".").describe("Working folder, relative to the project root"),
    stdin: z.string().nullable().optional().describe("Data for the command's standard input"),
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
    return Promise.reject(new ToolError("shell is not built yet"));
  },
});
