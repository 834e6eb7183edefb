/** run_python: run a Python snippet with `python3` from a temporary file under `.localexec/tmp/`. */
import { z } from "zod";
import description from "./run_python.md" with { type: "text" };
import { ToolError } from "../lib/errors.ts";
import { join } from "../lib/deps.ts";
import { runProcess } from "../lib/process/mod.ts";
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";
import { KEEP_BYTES, readEnv, resolveCwd, runOutput, runResult } from "../lib/commands.ts";
import { tempFolder } from "../lib/tasks/mod.ts";

export default defineTool({
  name: "run_python",
  title: "Run Python",
  description: prose(description),
  input: z.object({
    code: z.string().min(1).max(10_000_000).describe("Python source to run with python3"),
    cwd: z.string().max(4096).default(".").describe("Working folder, relative to the project root"),
    timeout: z.number().positive().max(3600).default(5).describe(
      "Seconds before the process group is killed (default 5)",
    ),
    stdin: z.string().nullable().optional().describe("Data for the script's standard input"),
  }),
  output: runOutput,
  needs: ["read", "write", "run"],
  annotations: ANNOTATIONS.CHANGES,
  async run({ code, cwd, timeout, stdin }, ctx) {
    const dir = await resolveCwd(ctx.root, cwd);
    const file = join(
      await tempFolder(ctx.root),
      `run_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}.py`,
    );
    await Deno.writeTextFile(file, code, { createNew: true, mode: 0o600 });
    try {
      ctx.progress("running");
      const inherited = readEnv("PYTHONPATH");
      const result = await runProcess(["python3", "-u", file], {
        cwd: dir,
        timeoutS: timeout,
        stdin: stdin ?? undefined,
        signal: ctx.signal,
        keepBytes: KEEP_BYTES,
        env: { PYTHONPATH: inherited ? `${dir}:${inherited}` : dir },
      });
      if (result.code === 127 && /python3: (not found|No such file)/.test(result.output)) {
        throw new ToolError("python3 is not installed or not on PATH; run_python needs it");
      }
      return runResult(result, timeout);
    } finally {
      await Deno.remove(file).catch(() => {});
    }
  },
});
