/**
 * `localexec eval`: runs the suite (bundled or `--tasks DIR`) once per model, each task in its own
 * temporary project, `--jobs` at a time up to the model capacity; prints the tables (or `--json`)
 * on stdout, progress on stderr, and keeps the run in the project's eval record. Ctrl-C cancels
 * the running tasks and removes every temporary project before exiting (a second Ctrl-C removes
 * them at once and exits).
 */
import { ConfigError, hostPort, loadConfig } from "../config.ts";
import { PROVIDERS } from "../providers/mod.ts";
import { errorLine } from "../errors.ts";
import { availableTools, type ToolEntry } from "../mcp/mod.ts";
import { Projects } from "./project.ts";
import { writeEvalRecord } from "./record.ts";
import { type EvalResult, modelResult, outcomeLine, Progress, renderTables } from "./report.ts";
import { runTask, type TaskOutcome } from "./run_task.ts";
import { reachedModel } from "./score.ts";
import { BUNDLED_SUITE, type EvalTask, loadTasks } from "./tasks.ts";
import { noServerAnswers } from "./server.ts";
import { splitByToolchain } from "./toolchains.ts";

/** What `localexec eval` was asked. */
export interface EvalOptions {
  /** The project: its configuration gives the model settings, its store keeps the record. */
  root: string;
  configPath: string;
  /** `--models a,b`: run the suite once per model, each as the configuration's `model`. */
  models?: string[];
  /** `--tasks DIR`: the user's own task set instead of the bundled suite. */
  tasksDir?: string;
  /** `--jobs N`: tasks at once (capped to the model capacity). */
  jobs: number;
  /** `--json`: the full result on stdout instead of the tables. */
  json: boolean;
  /** PATH the toolchain probes see (default: the environment's). */
  path?: string;
  /** localexec's tools, as `main.ts` has them (tools/names.ts `toolEntries`). */
  tools: readonly ToolEntry[];
}

/** Exit code when no model server answered (nothing was run). */
export const NO_SERVER_EXIT = 1;

/** Exit code of a run that Ctrl-C cancelled. */
export const CANCELLED_EXIT = 130;

/** The configuration as written (JSON), or {} when the file does not exist. */
async function _rawConfig(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return {};
    throw new ConfigError(`cannot read ${path}: ${errorLine(err)}`);
  }
  const data = JSON.parse(text);
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ConfigError(`${path}: expected a JSON object`);
  }
  return data;
}

/** The name of what the user configured: the model, or the ladder's models (cheapest first). */
function _configuredLabel(raw: Record<string, unknown>): string | undefined {
  if (Array.isArray(raw.ladder) && raw.ladder.length) {
    return raw.ladder.map((r) => String(r?.model ?? "?")).join(" > ");
  }
  return typeof raw.model === "string" && raw.model.trim() ? raw.model : undefined;
}

/** The settings each model's temporary projects get (the checks come from each task). */
function _settings(raw: Record<string, unknown>, model?: string): Record<string, unknown> {
  const { checks: _, ...rest } = raw;
  if (model === undefined) return rest;
  const { ladder: __, ...single } = rest;
  return { ...single, model };
}

/** Runs `localexec eval`; returns the exit code. */
export async function evalCommand(opts: EvalOptions): Promise<number> {
  const raw = await _rawConfig(opts.configPath);
  const tasks = await loadTasks(opts.tasksDir ?? BUNDLED_SUITE);
  const runs = opts.models?.length
    ? opts.models.map((m) => ({ label: m, settings: _settings(raw, m) }))
    : [{ label: _configuredLabel(raw), settings: _settings(raw) }];
  if (runs.some((r) => !r.label)) {
    throw new ConfigError(
      `no model to evaluate: set "model" in ${opts.configPath} or pass --models a,b`,
    );
  }
  // The settings must load as a configuration (bad keys are refused here, not once per task),
  // and implement_task must be on for a temporary project.
  const probe = await _probeConfig(runs[0].settings, opts.tools);
  // One look at the model servers, not one "could not be reached" per task.
  const down = await noServerAnswers(probe, { configPath: opts.configPath });
  if (down) {
    console.error(`localexec eval: ${down}`);
    return NO_SERVER_EXIT;
  }
  const { runnable, skipped } = await splitByToolchain(tasks, { cwd: opts.root, path: opts.path });
  const capacity = Math.max(1, probe.hosts.length);
  const jobs = Math.max(1, Math.min(opts.jobs, capacity));
  const progress = new Progress(runnable.length * runs.length);
  if (opts.jobs > jobs) {
    progress.note(
      `--jobs ${opts.jobs} capped to ${jobs}: the configuration names ${capacity} model ` +
        `host${capacity === 1 ? "" : "s"}, and each host takes one task at a time`,
    );
  }
  for (const s of skipped) progress.note(`${s.language} skipped: ${s.why} (${s.tasks} tasks)`);
  (await import("../process/mod.ts")).wantWatchdog();

  const projects = new Projects();
  const abort = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    if (++interrupts > 1) {
      projects.removeAllSync();
      Deno.exit(CANCELLED_EXIT);
    }
    progress.note("cancelling: stopping the running tasks and removing their temporary projects");
    abort.abort(new DOMException("eval cancelled", "AbortError"));
  };
  Deno.addSignalListener("SIGINT", onInterrupt);
  const started = new Date().toISOString();
  const results = [];
  try {
    for (const run of runs) {
      const outcomes = await _runAll(runnable, jobs, async (task) => {
        if (abort.signal.aborted) return undefined;
        const root = await projects.make(task, run.settings);
        try {
          progress.update(task.name, "starting");
          const outcome = await runTask(task, root, run.label!, {
            signal: abort.signal,
            progress: (m) => progress.update(task.name, m),
            tools: opts.tools,
          });
          if (abort.signal.aborted) return undefined;
          progress.finish(task.name, outcomeLine(outcome));
          return outcome;
        } finally {
          await projects.remove(root);
        }
      });
      if (abort.signal.aborted) break;
      results.push(modelResult(run.label!, outcomes));
    }
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
    projects.removeAllSync();
  }
  if (abort.signal.aborted) {
    progress.note("cancelled; no temporary project is left");
    return CANCELLED_EXIT;
  }
  const result: EvalResult = {
    started,
    finished: new Date().toISOString(),
    suite: opts.tasksDir ?? "bundled",
    models: results,
    skipped,
  };
  await _keep(opts, result, progress);
  await _print(opts.json ? JSON.stringify(result, null, 1) : renderTables(result));
  // A model that no task reached (not running, not installed) measured nothing: say so.
  return result.models.every((m) => reachedModel(m.tasks)) ? 0 : 1;
}

/**
 * Keeps the run in the project's eval record when the root is a project (it has a config),
 * without the models that no task reached (they measured nothing).
 */
async function _keep(opts: EvalOptions, result: EvalResult, progress: Progress): Promise<void> {
  if (!(await Deno.stat(opts.configPath).catch(() => undefined))) return;
  const models = result.models.filter((m) => reachedModel(m.tasks));
  if (!models.length) return;
  try {
    const path = await writeEvalRecord(opts.root, { ...result, models });
    progress.note(`recorded in ${path}`);
  } catch (err) {
    progress.note(`could not record the run: ${errorLine(err)}`);
  }
}

/**
 * Loads `settings` as a temporary project would load them (in a scratch folder that is removed),
 * and checks that implement_task would be on there; throws with the reason when it would not.
 */
async function _probeConfig(settings: Record<string, unknown>, tools: readonly ToolEntry[]) {
  const dir = await Deno.makeTempDir({ prefix: "localexec-eval-config-" });
  try {
    const path = `${dir}/.localexec.json`;
    await Deno.writeTextFile(path, JSON.stringify(settings));
    const config = await loadConfig(path, PROVIDERS);
    const off = availableTools(tools, { root: dir, modelHosts: config.hosts.map(hostPort) }, {
      only: ["implement_task"],
    }).off.find((t) => t.name === "implement_task");
    if (off) throw new Error(`eval needs implement_task, which is off: ${off.why}`);
    return config;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Runs `work` on every task, `jobs` at a time, keeping the tasks' order in the answer. */
async function _runAll(
  tasks: EvalTask[],
  jobs: number,
  work: (task: EvalTask) => Promise<TaskOutcome | undefined>,
): Promise<TaskOutcome[]> {
  const out: (TaskOutcome | undefined)[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await work(tasks[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
  return out.filter((o): o is TaskOutcome => o !== undefined);
}

async function _print(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(`${text}\n`);
  for (let done = 0; done < bytes.length;) done += await Deno.stdout.write(bytes.subarray(done));
}
