/** outline: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "outline",
  title: "Outline file",
  description: "Not available yet.",
  input: z.object({
    path: z.string().max(4096).describe("File to outline, relative to the project root"),
    max_items: z.number().int().min(1).max(5000).default(60).describe("Most items to list"),
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
    return Promise.reject(new ToolError("outline is not built yet"));
  },
});
