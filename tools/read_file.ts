/** read_file: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "read_file",
  title: "Read file",
  description: "Not available yet.",
  input: z.object({
    filename: z.string().max(4096).describe("File to read, relative to the project root"),
    max_chars: z.number().int().min(1).max(2_000_000).default(32768).describe(
      "Cut the text after this many characters (a note says how to read on)",
    ),
    binary_as_hex: z.boolean().default(true).describe(
      "Return other binary files as hex (capped); false refuses them",
    ),
    start_line: z.number().int().min(1).nullable().optional().describe(
      "First line to return, 1-based",
    ),
    end_line: z.number().int().min(1).nullable().optional().describe(
      "Last line to return, inclusive",
    ),
    line_numbers: z.boolean().default(false).describe(
      "Prefix each line with its number and a tab; required before patch_file",
    ),
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
    return Promise.reject(new ToolError("read_file is not built yet"));
  },
});
