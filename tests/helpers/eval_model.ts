/**
 * Scripted models for eval tests, to plug into the fake Ollama's `answer`: one that answers each
 * task with its reference solution (it recognises the task by its spec in the prompt, as a model
 * reads it) and one that answers garbage. The reference answer is what a good model writes:
 * SEARCH/REPLACE blocks for the changed parts of existing files (each SEARCH long enough to match
 * one place), an empty SEARCH for a new file.
 */
import { structuredPatch } from "diff";
import { type EvalTask, taskText } from "../../lib/eval/mod.ts";
import type { FakeChatRequest } from "./fake_ollama.ts";

function _block(path: string, search: string, replace: string): string {
  return `${path}\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n`;
}

/** SEARCH/REPLACE blocks turning `before` into `after`, each SEARCH found once in `before`. */
export function blocksFor(path: string, before: string, after: string): string {
  for (let context = 1; context < 64; context *= 2) {
    const patch = structuredPatch(path, path, before, after, "", "", { context });
    const blocks = patch.hunks.map((h) => {
      const old: string[] = [];
      const now: string[] = [];
      for (const line of h.lines) {
        if (line.startsWith("\\")) continue;
        if (line[0] !== "+") old.push(line.slice(1) + "\n");
        if (line[0] !== "-") now.push(line.slice(1) + "\n");
      }
      return { search: old.join(""), replace: now.join("") };
    });
    const unique = blocks.every((b) =>
      b.search && before.indexOf(b.search) === before.lastIndexOf(b.search)
    );
    if (unique) return blocks.map((b) => _block(path, b.search, b.replace)).join("\n");
  }
  throw new Error(`no unique SEARCH parts for ${path}`);
}

/** The reply that applies `task`'s reference solution. */
export async function referenceReply(task: EvalTask): Promise<string> {
  const parts: string[] = [];
  for (const rel of task.files_to_edit) {
    const before = await taskText(task, "files", rel);
    const after = await taskText(task, "solution", rel);
    if (after === null || after === before) continue;
    parts.push(before === null ? _block(rel, "", after) : blocksFor(rel, before, after));
  }
  return parts.join("\n");
}

/** The prompt's text: every message, joined. */
export function promptText(req: FakeChatRequest): string {
  return req.messages.map((m) => String(m.content ?? "")).join("\n");
}

/**
 * A model that answers each of `tasks` with its reference solution, recognising the task by its
 * spec in the prompt; a prompt with no known spec gets a question back.
 */
export function referenceModel(tasks: EvalTask[]): (req: FakeChatRequest) => Promise<string> {
  return async (req) => {
    const text = promptText(req);
    const task = tasks.find((t) => text.includes(t.spec));
    return task ? await referenceReply(task) : "QUESTION: which task is this?";
  };
}

/**
 * Garbage, as a broken model writes it: prose, an edit to a path outside the project, an edit to
 * a file it was not given, and a SEARCH that matches nothing.
 */
export const GARBAGE = [
  "Sure! Here is an overview of how I would approach the refactoring in general terms.",
  "../../outside-the-project.txt\n<<<<<<< SEARCH\n=======\nowned\n>>>>>>> REPLACE\n",
  "/tmp/localexec-eval-garbage.txt\n```\nowned\n```\n",
  "NOT_A_FILE_YOU_GAVE.md\n<<<<<<< SEARCH\n=======\nhello\n>>>>>>> REPLACE\n",
].join("\n");
