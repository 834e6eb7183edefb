/**
 * `localexec eval` (docs/EVAL.md): measure a model on delegation before trusting it. A suite of
 * small tasks runs through the real implement_task path, each in a fresh temporary project, and
 * the result is a table per model, a `--json` document, and a run in the project's eval record
 * (`.localexec/eval/`), which {@linkcode evalRows} summarises for `status`.
 */
export { CANCELLED_EXIT, evalCommand, type EvalOptions } from "./command.ts";
export { type EvalResult, type ModelResult, renderTables } from "./report.ts";
export { type EvalRow, evalRows, readEvalRuns } from "./record.ts";
export { countRefused, type TaskOutcome, totalAttempts } from "./run_task.ts";
export { type BundleTexts, readBundle, writeBundle } from "./bundle.ts";
export { median, recommend, type Score, score } from "./score.ts";
export {
  BUNDLE_EXT,
  BUNDLED_SUITE,
  EVAL_ID_PREFIX,
  type EvalTask,
  loadBundle,
  loadTask,
  loadTasks,
  TaskFormatError,
  taskText,
  TOOLCHAINS,
} from "./tasks.ts";
export { type Skipped, splitByToolchain, toolchainProblem } from "./toolchains.ts";
export { copyTree, TEMP_PREFIX, writeTaskFiles } from "./project.ts";
