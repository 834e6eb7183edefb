/**
 * The landing log (docs/ARCHITECTURE.md, "Parallel tasks"): tasks that land write their final
 * files into the tree and note them in `.localexec/landed.jsonl` (under the project lock); a
 * workspace takes them in before its next checks (`syncLanded`), and a task about to answer
 * `passed` checks again when others landed after its checks ran.
 */
import { join } from "../deps.ts";
import { storeDir } from "./dir.ts";
import { writeWork } from "./workspace.ts";

/** One landing: a task's final files went into the tree. */
export interface Landing {
  seq: number;
  task_id: string;
  files: string[];
  /** Unique to this landing (what `noteLanded` returned). */
  note: string;
}

function _landedPath(root: string): string {
  return join(storeDir(root), "landed.jsonl");
}

/** Every landing so far, oldest first (seq counts from 1). */
export async function landings(root: string): Promise<Landing[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(_landedPath(root));
  } catch {
    return [];
  }
  const out: Landing[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      const l = JSON.parse(line);
      const note = String(l.note ?? "");
      out.push({ seq: out.length + 1, task_id: String(l.task_id), files: l.files ?? [], note });
    } catch {
      out.push({ seq: out.length + 1, task_id: "?", files: [], note: "" }); // cut by a crash
    }
  }
  return out;
}

/**
 * Notes that task `id` landed `files` (under the project lock, or for a task in the tree without
 * it: appends are ordered); returns the landing's note, unique to it, by which the task finds its
 * own line (its seq) among the others.
 */
export async function noteLanded(
  root: string,
  id: string,
  files: readonly string[],
): Promise<string> {
  const note = crypto.randomUUID();
  const line = JSON.stringify({ task_id: id, files, at: new Date().toISOString(), note }) + "\n";
  await Deno.writeTextFile(_landedPath(root), line, { append: true, create: true });
  return note;
}

/**
 * Copies into `ws` the files that tasks other than `self` landed after `since`; returns the last
 * seq and the tasks taken in. With `ws` equal to `root` (a task in the tree) only looks.
 */
export async function syncLanded(
  root: string,
  ws: string,
  since: number,
  self: string,
): Promise<{ seq: number; tasks: string[] }> {
  const all = await landings(root);
  const fresh = all.filter((l) => l.seq > since && l.task_id !== self);
  if (ws !== root) {
    const edits = new Map<string, Uint8Array | null>();
    for (const l of fresh) {
      for (const rel of l.files) {
        edits.set(rel, await Deno.readFile(join(root, rel)).catch(() => null));
      }
    }
    await writeWork(ws, edits);
  }
  return { seq: all.length, tasks: [...new Set(fresh.map((l) => l.task_id))] };
}
