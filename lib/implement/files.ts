/**
 * The task's files as bytes: snapshots of them, their text, and what a restore needs to know.
 */
import { PathError, ToolError } from "../errors.ts";
import { decodeText } from "../text.ts";
import { newDirs, readCurrent } from "../tasks/mod.ts";

/** Project-relative path → bytes, or null when the file does not exist. */
export type Snapshot = Map<string, Uint8Array | null>;

/** Reads `files` (project-relative) under `root` as they are now. */
export async function snapshot(root: string, files: readonly string[]): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const rel of files) out.set(rel, await readCurrent(root, rel));
  return out;
}

/**
 * Like {@linkcode snapshot}, for looking only: a file that is no longer a regular file (made a
 * folder, a link or a FIFO meanwhile) is left out instead of failing the look.
 */
export async function lookAt(root: string, files: readonly string[]): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const rel of files) {
    try {
      out.set(rel, await readCurrent(root, rel));
    } catch (err) {
      if (!(err instanceof ToolError) && !(err instanceof PathError)) throw err;
    }
  }
  return out;
}

/** The text of each file of `snap` (null for a file that does not exist). */
export function texts(snap: Snapshot): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const [rel, bytes] of snap) {
    out.set(rel, bytes === null ? null : decodeText(bytes) ?? "");
  }
  return out;
}

/** Folders (project-relative, outermost first) missing now above the files of `snap` that do not exist. */
export async function missingDirs(root: string, snap: Snapshot): Promise<string[]> {
  const out: string[] = [];
  for (const [rel, bytes] of snap) {
    if (bytes !== null) continue;
    for (const d of await newDirs(root, rel)) if (!out.includes(d)) out.push(d);
  }
  return out;
}
