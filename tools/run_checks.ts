/** run_checks: run the project's configured checks under the project write lock. */
import { z } from "zod";
import { ToolError } from "../lib/boundary.ts";
import { runChecks } from "../lib/checks.ts";
import { loadToolConfig, selectChecks } from "../lib/config.ts";
import { basename, join } from "../lib/deps.ts";
import { withProjectLock } from "../lib/lock.ts";
import { runProcess } from "../lib/process.ts";
import { listTasks, readTask, storeDir, storeRel, TASK_ID, unknownTask } from "../lib/tasks.ts";
import { ANNOTATIONS, defineTool } from "../lib/tool.ts";

/** The log every run_checks call rewrites. */
const LOG_NAME = "run_checks.log";

async function _git(root: string, args: string[]): Promise<string[] | undefined> {
  const r = await runProcess(["git", ...args], {
    cwd: root,
    timeoutS: 20,
    keepBytes: 1 << 20,
    env: { GIT_OPTIONAL_LOCKS: "0" },
  });
  if (r.code !== 0 || r.droppedBytes) return undefined;
  return r.output.split("\0").filter(Boolean);
}

/** Tracked files with uncommitted changes, relative to `root`; empty outside a git repository. */
export async function gitChangedFiles(root: string): Promise<string[]> {
  const base = ["diff", "--name-only", "-z", "--relative", "--no-renames"];
  const vsHead = await _git(root, [...base, "HEAD", "--"]);
  if (vsHead) return vsHead;
  // A repository without commits yet: staged and unstaged changes.
  const staged = await _git(root, [...base, "--cached", "--"]) ?? [];
  const unstaged = await _git(root, [...base, "--"]) ?? [];
  return [...new Set([...staged, ...unstaged])];
}

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
  description:
    "Run the checks configured in .localexec.json (lint, tests, …) in the order written and get " +
    'a short verdict: {"status":"passed"|"failed","results":[{"name","ok","secs"}],"log",' +
    '"failed_check","output"}. `output` is the first failing check\'s output, trimmed to about ' +
    "2,000 characters (head and tail); every check's full output is in .localexec/run_checks.log. " +
    "All selected checks run even after one fails. Checks whose command uses {files} run on the " +
    "files of task_id, or by default on the files of all open (not reverted) tasks plus tracked " +
    'files with uncommitted git changes; with no matching file they are reported "skipped":true. ' +
    "Takes the project write lock (waits while implement_task runs). Costs as long as the checks " +
    "take.",
  input: z.object({
    names: z.array(z.string().max(64)).max(20).optional().describe("Checks to run; default all"),
    task_id: z.string().max(64).optional().describe("Run file-scoped checks on this task's files"),
  }),
  output: z.looseObject({
    status: z.string(),
    results: z.array(z.looseObject({ name: z.string(), ok: z.boolean(), secs: z.number() }))
      .optional(),
    log: z.string().optional(),
    failed_check: z.string().optional(),
    output: z.string().optional(),
    note: z.string().optional(),
  }),
  needs: ["read", "write", "run"],
  annotations: ANNOTATIONS.RUNS_CHECKS,
  async run({ names, task_id }, ctx) {
    const config = await loadToolConfig(ctx.state.configPath, ctx.root);
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
        // Exactly the reference's fields; a timeout is told in `note`.
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
