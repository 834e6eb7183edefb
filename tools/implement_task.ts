/**
 * implement_task: have the local model make one small, precisely specified change, verified by
 * the project's checks. The loop lives in `lib/implement/`; it is loaded on first use so that
 * server start-up does not pay for the Ollama client, the diff library or the grammars.
 */
import { z } from "zod";
import { ANNOTATIONS, defineTool } from "../lib/tool.ts";
import { errorVerdict } from "../lib/implement/verdict.ts";

export default defineTool({
  name: "implement_task",
  title: "Implement task with the local model",
  description:
    "Delegate ONE small, precisely specified coding step to the local model (Ollama): it writes " +
    "the edit, localexec applies it to `files_to_edit` (1-2 files; list new files too), runs the " +
    "project's checks from .localexec.json, and feeds failures back to the model up to " +
    "max_attempts times. Backups are kept (revert_task undoes the step); it never commits. " +
    "Write `spec` as for a junior colleague: goal, exact signatures, edge cases, acceptance. " +
    "Pass `context_files` the model must read, and `symbols` (path::name, e.g. calc.py::Calc.add) " +
    "to show only those functions of a large file. Takes seconds to minutes; sends progress. " +
    'Answers short JSON: {"status":"passed"|"failed"|"blocked"|"error","attempts":N,' +
    '"escalate":bool,"why":"…"} plus files, stat, patch and log paths, question (blocked), ' +
    "failed_check (name: output), error, warnings, truncated, note. On escalate: true, do the " +
    "step yourself (show_patch shows what the model did; revert_task undoes it). Calling again " +
    "with the same task_id continues that task.",
  input: z.object({
    task_id: z.string().regex(
      /^[A-Za-z0-9._-]{1,64}$/,
      "letters, digits, ., _ and -, up to 64 characters",
    ).describe("Unique id such as T1-add-retry"),
    spec: z.string().min(1).max(100_000).describe(
      "Precise instructions: goal, signatures, edge cases and acceptance",
    ),
    files_to_edit: z.array(z.string().max(4096)).min(1).max(2).describe(
      "One or two project-relative paths; new files must be listed too",
    ),
    context_files: z.array(z.string().max(4096)).max(20).optional().describe(
      "Read-only files the model should see",
    ),
    checks: z.array(z.string().max(64)).max(20).optional().describe(
      "Checks from .localexec.json; default all; [] runs none",
    ),
    symbols: z.array(z.string().max(4096)).max(20).optional().describe(
      "path::name entries: show the model only these functions or classes",
    ),
  }),
  output: z.looseObject({
    status: z.string(),
    attempts: z.number(),
    escalate: z.boolean(),
    why: z.string(),
  }),
  needs: ["read", "write", "run", "net"],
  annotations: ANNOTATIONS.CHANGES,
  async run(args, ctx) {
    const { implementTask } = await import("../lib/implement/run.ts");
    return await implementTask(args, ctx);
  },
  errorFields(message) {
    const { attempts, why, escalate } = errorVerdict(message);
    return { attempts, why, escalate };
  },
});
