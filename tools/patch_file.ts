/** patch_file: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "patch_file",
  title: "Patch file",
  description: "Not available yet.",
  input: z.object({
    file_path: z.string().max(4096).describe("File to patch, relative to the project root"),
    from_line: z.number().int().min(1).describe("First line to replace, 1-based"),
    to_line: z.number().int().min(0).describe(
      "Last line to replace, inclusive; from_line - 1 inserts without deleting",
    ),
    content: z.string().describe("Replacement lines"),
    mode: z.number().int().min(0).max(0o7777).optional().describe(
      "Permission bits; default: keep the file's mode",
    ),
  }),
  output: z.looseObject({ status: z.string() }),
  needs: ["read", "write"],
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  run() {
    return Promise.reject(new ToolError("patch_file is not built yet"));
  },
});
