/** run_python: run a Python snippet with `python3` from a temporary file under `.localexec/tmp/`. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { join } from "../lib/deps.ts";
import { runProcess } from "../lib/process.ts";
import { ANNOTATIONS, defineTool } from "../lib/tool.ts";
import { KEEP_BYTES, resolveCwd, runOutput, runResult } from "./shell.ts";

async function _lstat(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** An environment variable, or undefined when unset or not readable under the granted permissions. */
function _env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** Creates `path` as a real folder unless it is one already; refuses links and files. */
async function _ensureFolder(root: string, name: string): Promise<string> {
  const path = join(root, name);
  const info = await _lstat(path);
  if (!info) {
    await Deno.mkdir(path).catch((err) => {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    });
  } else if (!info.isDirectory) {
    throw new ToolError(
      `"${name}" exists but is not a folder; run_python keeps temporary files there`,
    );
  }
  return path;
}

/** `<root>/.localexec/tmp/`, created (with `.localexec/.gitignore` holding `*`) when missing. */
export async function tempFolder(root: string): Promise<string> {
  const base = await _ensureFolder(root, ".localexec");
  await Deno.writeTextFile(join(base, ".gitignore"), "*\n", { createNew: true }).catch((err) => {
    if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
  });
  return await _ensureFolder(root, ".localexec/tmp");
}

export default defineTool({
  name: "run_python",
  title: "Run Python",
  description:
    "Run a Python snippet with `python3` in a folder of the project (`cwd`, relative to the root) " +
    "and return its exit code and combined stdout/stderr, in order. The code is written to a " +
    "temporary file under .localexec/tmp/ (removed afterwards) and `cwd` is on the import path, so " +
    "project modules import as with `python3 -c`. Use for calculations, data processing, or " +
    'testing small scripts. Answers {"status":"ok"|"failed"|"timeout","exit_code":N,' +
    '"output":"..."}; tracebacks come back as-is in `output`. Pass `stdin` for code that reads ' +
    "standard input. The default timeout is 5 s — raise it for longer work; on timeout the whole " +
    "process group is killed and the output so far is returned. Output beyond 30,000 bytes keeps " +
    "its start and end, with a note saying how much was cut.",
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
      const inherited = _env("PYTHONPATH");
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
