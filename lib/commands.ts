/**
 * What `shell` and `run_python` share: the working folder check, the result shape and the output
 * cap. (run_python's temporary folder belongs to the store: `tempFolder` in `lib/tasks/`.)
 */
import { z } from "zod";
import { ToolError } from "./errors.ts";
import { resolveForRead } from "./paths.ts";
import type { RunResult } from "./process/mod.ts";

/** Bytes of output kept from the start, and again from the end, of a command's output. */
export const KEEP_BYTES = 15_000;

/** The result fields `shell` and `run_python` share. */
export const runOutput: z.ZodObject = z.looseObject({
  status: z.string().describe("ok (exit 0), failed, timeout or error"),
  exit_code: z.number().nullable().optional().describe("The exit code; null after a timeout"),
  output: z.string().optional().describe("stdout and stderr together, the middle cut when long"),
  signal: z.string().optional().describe("The signal that ended the command"),
  note: z.string().optional().describe("What was killed or cut"),
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

/** An environment variable, or undefined when unset or not readable under the granted permissions. */
export function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}
