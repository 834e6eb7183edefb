/** run_checks: run the project's configured checks under the project write lock. */
import { z } from "zod";
import description from "./run_checks.md" with { type: "text" };
import { ToolError } from "../lib/errors.ts";
import { checkCannotStart, gitChangedFiles, runChecks } from "../lib/checks.ts";
import { loadToolConfig, selectChecks } from "../lib/config.ts";
import { PROVIDERS } from "../lib/providers/mod.ts";
import { basename, join } from "../lib/deps.ts";
import {
  listTasks,
  readTask,
  storeDir,
  storeRel,
  TASK_ID,
  unknownTask,
  withProjectLock,
} from "../lib/tasks/mod.ts";
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";

/** The log every run_checks call rewrites. */
const LOG_NAME = "run_checks.log";

async function _files(root: string, taskId?: string): Promise<string[]> {
  if (taskId !== undefined) {
    const task = TASK_ID.test(taskId) ? await readTask(root, taskId) : undefined;
    if (!task) throw await unknownTask(root, taskId);
    return task.files;
  }
  const open = (await listTasks(root)).filter((t) => !t.reverted_at).flatMap((t) => t.files);
  return [...new Set([...open, ...await gitChangedFiles(root)])];
}

export default defineTool({
  name: "run_checks",
  title: "Run checks",
  description: prose(description),
  input: z.object({
    names: z.array(z.string().max(64)).max(20).optional().describe("Checks to run; default all"),
    task_id: z.string().max(64).optional().describe("Run file-scoped checks on this task's files"),
  }),
  output: z.looseObject({
    status: z.string(),
    results: z.array(z.looseObject({
      name: z.string(),
      ok: z.boolean(),
      secs: z.number(),
      skipped: z.boolean().optional().describe("True when files_filter left it no file"),
    })).optional().describe("Each check, in the order of .localexec.json"),
    log: z.string().optional(),
    failed_check: z.string().optional(),
    output: z.string().optional(),
    note: z.string().optional(),
  }),
  needs: ["read", "write", "run"],
  annotations: ANNOTATIONS.RUNS_CHECKS,
  async run({ names, task_id }, ctx) {
    const config = await loadToolConfig(ctx.state.configPath, ctx.root, PROVIDERS, ctx.warn);
    const file = basename(config.path);
    if (!config.exists) {
      throw new ToolError(
        `no checks configured: ${file} not found; run "localexec init" to write one`,
      );
    }
    if (!config.checks.length) {
      throw new ToolError(`no checks configured: add some under "checks" in ${file}`);
    }
    const checks = selectChecks(config, names);
    // A check that cannot start (not installed, a toolchain that does not run) is told as such.
    const setup = await checkCannotStart(ctx.root, checks, { configName: file });
    if (setup) throw new ToolError(setup.message, { failed_check: setup.check });
    const lock = {
      timeoutS: config.lock_timeout_s,
      signal: ctx.signal,
      onWait: (m: string) => ctx.progress(m),
      tool: "run_checks",
    };
    return await withProjectLock(ctx.root, lock, async () => {
      const files = await _files(ctx.root, task_id);
      const logPath = join(storeDir(ctx.root), LOG_NAME);
      await Deno.writeTextFile(
        logPath,
        `run_checks at ${new Date().toISOString()}: ${checks.map((c) => c.name).join(", ")}\n` +
          `files: ${files.join(" ") || "(none)"}\n`,
      );
      const run = await runChecks(ctx.root, checks, {
        files,
        signal: ctx.signal,
        logPath,
        onProgress: (m, i, n) => ctx.progress(m, i, n),
      });
      const ran = run.results.filter((r) => !r.skipped).length;
      const late = checks.filter((c) => run.results.some((r) => r.name === c.name && r.timed_out));
      const note = !ran
        ? "every check was skipped: no file matches their {files} filters; " +
          "pass task_id or change files, or add a check without {files} for a full run"
        : late.length
        ? `${late.map((c) => `check ${c.name} timed out after ${c.timeout_s} s`).join(", ")} ` +
          "and was killed with its child processes; raise its timeout_s if it needs longer"
        : undefined;
      return {
        status: run.failed_check ? "failed" : "passed",
        // Exactly the fields of docs/reference/localexec-tool-reference.txt; a timeout is told in `note`.
        results: run.results.map(({ name, ok, secs, skipped }) => ({
          name,
          ok,
          secs,
          ...(skipped ? { skipped } : {}),
        })),
        log: storeRel(LOG_NAME),
        ...(run.failed_check ? { failed_check: run.failed_check, output: run.failed_output } : {}),
        ...(note ? { note } : {}),
      };
    });
  },
});
