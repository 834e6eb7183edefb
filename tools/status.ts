/** status: not built yet; see the open issue that owns it. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "status",
  title: "Status",
  description: "Not available yet.",
  input: z.object({}),
  output: z.looseObject({ status: z.string() }),
  needs: ["read"],
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  run() {
    return Promise.reject(new ToolError("status is not built yet"));
  },
});
