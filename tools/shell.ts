/** shell: run a command with `sh -c` in a folder of the project, with a timeout and capped output. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { resolveForRead } from "../lib/paths.ts";
import { runProcess, type RunResult } from "../lib/process.ts";
import { ANNOTATIONS, defineTool } from "../lib/tool.ts";

/** Bytes of output kept from the start, and again from the end, of a command's output. */
export const KEEP_BYTES = 15_000;

/** The result fields `shell` and `run_python` share. */
export const runOutput: z.ZodObject = z.looseObject({
  status: z.string(),
  exit_code: z.number().nullable().optional(),
  output: z.string().optional(),
  signal: z.string().optional(),
  note: z.string().optional(),
});

/** Checks `cwd` (relative to `root`): it must be an existing folder inside the root. */
export async function resolveCwd(root: string, cwd: string): Promise<string> {
  const dir = await resolveForRead(root, cwd);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir.abs);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new ToolError(`cwd: folder "${dir.rel}" does not exist`);
    }
    throw err;
  }
  if (!info.isDirectory) throw new ToolError(`cwd: "${dir.rel}" is a file, not a folder`);
  return dir.abs;
}

/**
 * Turns a finished run into the tool result: `ok` for exit code 0, `failed` for any other code or
 * a kill by signal, `timeout` when the timeout ended it; notes say what was killed or cut.
 */
export function runResult(r: RunResult, timeoutS: number): Record<string, unknown> {
  if (r.cancelled) throw new ToolError("cancelled");
  const notes: string[] = [];
  if (r.timedOut) {
    notes.push(
      `killed after ${timeoutS} s (whole process group); raise timeout for long commands`,
    );
  }
  if (r.droppedBytes) {
    notes.push(
      `output was ${r.totalBytes} bytes; the middle ${r.droppedBytes} bytes were cut (marked ` +
        `"[… cut …]"); redirect to a file and read_file it, or filter with grep, head or tail`,
    );
  }
  return {
    status: r.timedOut ? "timeout" : r.code === 0 ? "ok" : "failed",
    exit_code: r.timedOut ? null : r.code,
    output: r.output,
    ...(r.signal && !r.timedOut ? { signal: r.signal } : {}),
    ...(notes.length ? { note: notes.join("; ") } : {}),
  };
}

export default defineTool({
  name: "shell",
  title: "Run shell command",
  description:
    "Run a shell command with `sh -c` in a folder of the project (`cwd`, relative to the root) " +
    "and return its exit code and combined stdout/stderr, in order. Use for git, build tools, " +
    "grep, tests, or any CLI operation. Answers " +
    '{"status":"ok"|"failed"|"timeout","exit_code":N,"output":"..."}; a non-zero exit is ' +
    '"failed", a kill by signal adds `signal`. Pass `stdin` for commands that read standard ' +
    "input (otherwise it is empty). The default timeout is 5 s — raise it for long-running " +
    "commands (installs, builds and test suites often need 60-300 s); on timeout the whole " +
    "process group is killed and the output so far is returned. Background processes still " +
    "running when the command ends are killed. Output beyond 30,000 bytes keeps its start and " +
    "end, with a note saying how much was cut. Avoid interactive commands.",
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
