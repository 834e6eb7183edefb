/** find: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "find",
  title: "Find in files",
  description: "Not available yet.",
  input: z.object({
    pattern: z.string().min(1).max(10_000).describe("JavaScript regular expression"),
    glob: z.string().max(1000).nullable().optional().describe(
      "Only paths matching this glob, e.g. src/**/*.py",
    ),
    max_results: z.number().int().min(1).max(1000).default(30).describe(
      "Most matching lines to return",
    ),
    ignore_case: z.boolean().default(false).describe("Match case-insensitively"),
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
    return Promise.reject(new ToolError("find is not built yet"));
  },
});
