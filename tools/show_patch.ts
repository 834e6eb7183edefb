/** show_patch: a task's diff reduced to its changed lines plus one line of context. */
import { z } from "zod";
import description from "./show_patch.md" with { type: "text" };
import { ToolError } from "../lib/errors.ts";
import { resolveLexically, toRel } from "../lib/paths.ts";
import {
  readTask,
  reducePatch,
  storeRel,
  TASK_ID,
  taskDiff,
  taskPaths,
  unknownTask,
} from "../lib/tasks/mod.ts";
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";

const MIN_LINES = 5;
const MAX_LINES = 300;

export default defineTool({
  name: "show_patch",
  title: "Show task patch",
  description: prose(description),
  input: z.object({
    task_id: z.string().max(64).describe("The task whose diff to show"),
    file: z.string().max(4096).nullable().optional().describe("Show only this file"),
    max_lines: z.number().default(60).describe(
      "Lines to show, default 60; any number is accepted and clamped between 5 and 300",
    ),
  }),
  output: z.looseObject({
    status: z.string(),
    task_id: z.string().optional(),
    files: z.array(z.string()).optional(),
    stat: z.string().optional(),
    diff: z.string().optional(),
    patch: z.string().optional(),
    note: z.string().optional(),
  }),
  needs: ["read"],
  annotations: ANNOTATIONS.READS,
  async run({ task_id, file, max_lines }, ctx) {
    const task = TASK_ID.test(task_id) ? await readTask(ctx.root, task_id) : undefined;
    if (!task) throw await unknownTask(ctx.root, task_id);
    const notes: string[] = [];
    let text: string;
    try {
      text = await Deno.readTextFile(taskPaths(ctx.root, task_id).patch);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
      text = (await taskDiff(ctx.root, task_id)).map((d) => d.text).join("");
      notes.push("the run did not write a patch; this diff is computed from the backups now");
    }
    // Any number is accepted: fractions are cut, values out of range are clamped.
    const maxLines = Math.min(MAX_LINES, Math.max(MIN_LINES, Math.trunc(max_lines)));
    let reduced;
    try {
      // `./a.py`, `src/../a.py` and an absolute path inside the root all name `a.py`.
      const rel = file ? toRel(ctx.root, resolveLexically(ctx.root, file)) : undefined;
      reduced = reducePatch(text, { file: rel, maxLines });
    } catch (err) {
      if (err instanceof RangeError) throw new ToolError(err.message);
      throw err;
    }
    if (!reduced.files.length) notes.push("the task changed no files");
    if (reduced.cutLines) {
      notes.push(
        `${reduced.cutLines} long line${reduced.cutLines === 1 ? " was" : "s were"} shortened ` +
          `(marked "chars cut"); ${storeRel(`${task_id}.patch`)} has them whole`,
      );
    }
    if (reduced.dropped) {
      notes.push(
        `showing ${reduced.total - reduced.dropped} of ${reduced.total} lines; ` +
          (file || reduced.files.length < 2 ? "" : "pass file to see one file, ") +
          `raise max_lines (up to ${MAX_LINES}) or read ${storeRel(`${task_id}.patch`)}`,
      );
    }
    const added = text.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++ ")).length;
    const removed = text.split("\n").filter((l) => l.startsWith("-") && !l.startsWith("--- "))
      .length;
    return {
      status: "ok",
      task_id,
      files: reduced.files,
      stat: task.stat ??
        `+${added} -${removed} in ${reduced.files.length} file${
          reduced.files.length === 1 ? "" : "s"
        }`,
      diff: reduced.diff,
      patch: storeRel(`${task_id}.patch`),
      ...(notes.length ? { note: notes.join("; ") } : {}),
    };
  },
});
