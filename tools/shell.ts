/** shell: run a command with `sh -c` in a folder of the project, with a timeout and capped output. */
import { z } from "zod";
import description from "./shell.md" with { type: "text" };
import { KEEP_BYTES, resolveCwd, runOutput, runResult } from "../lib/commands.ts";
import { runProcess } from "../lib/process/mod.ts";
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";

export default defineTool({
  name: "shell",
  title: "Run shell command",
  description: prose(description),
  input: z.object({
    command: z.string().min(1).max(100_000).describe("Shell command, run by sh -c"),
    timeout: z.number().positive().max(3600).default(5).describe(
      "Seconds before the whole process group is killed (default 5)",
    ),
    cwd: z.string().max(4096).default(".").describe("Working folder, relative to the project root"),
    stdin: z.string().nullable().optional().describe("Data for the command's standard input"),
  }),
  output: runOutput,
  needs: ["read", "write", "run"],
  annotations: ANNOTATIONS.CHANGES,
  async run({ command, timeout, cwd, stdin }, ctx) {
    const dir = await resolveCwd(ctx.root, cwd);
    ctx.progress("running");
    const result = await runProcess(command, {
      cwd: dir,
      timeoutS: timeout,
      stdin: stdin ?? undefined,
      signal: ctx.signal,
      keepBytes: KEEP_BYTES,
    });
    return runResult(result, timeout);
  },
});
