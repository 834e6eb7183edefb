/** write_file: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "write_file",
  title: "Write file",
  description: "Not available yet.",
  input: z.object({
    file_path: z.string().max(4096).describe(
      "File to create or overwrite, relative to the project root",
    ),
    content: z.string().describe("The whole new content"),
    mode: z.number().int().min(0).max(0o7777).optional().describe(
      "Permission bits, e.g. 420 (0o644); default: keep an existing file's mode, 420 for a new file",
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
    return Promise.reject(new ToolError("write_file is not built yet"));
  },
});
