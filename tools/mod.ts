/**
 * Every tool localexec offers, as a plain literal list: `deno compile` sees each import, and a
 * reader sees the whole set at once. Which of them are on is decided at start-up from Deno's
 * permissions (`lib/permissions.ts`).
 */
import type { AnyTool } from "../lib/mcp/mod.ts";
import listFiles from "./list_files.ts";
import readFile from "./read_file.ts";
import writeFile from "./write_file.ts";
import patchFile from "./patch_file.ts";
import shell from "./shell.ts";
import runPython from "./run_python.ts";
import implementTask from "./implement_task.ts";
import runChecks from "./run_checks.ts";
import revertTask from "./revert_task.ts";
import listTasks from "./list_tasks.ts";
import showPatch from "./show_patch.ts";
import status from "./status.ts";
import outline from "./outline.ts";
import find from "./find.ts";

/** All tools, host tools first, then delegation, then navigation. */
export const TOOLS: readonly AnyTool[] = [
  listFiles,
  readFile,
  writeFile,
  patchFile,
  shell,
  runPython,
  implementTask,
  runChecks,
  revertTask,
  listTasks,
  showPatch,
  status,
  outline,
  find,
];
