/**
 * Where localexec keeps its own files: `<root>/.localexec/`, the names of a task's files there, and
 * `tmp/` (run_python's code files).
 *
 * The folder carries its own `.gitignore` (`*`) so it never shows in `git status`. It must be a
 * real folder: a symlink planted at `.localexec` is refused rather than followed out of the root.
 */
import { ToolError } from "../errors.ts";
import { join } from "../deps.ts";
import { STORE_NAME } from "../paths.ts";

export { STORE_NAME };

/** Task ids: letters, digits, `.`, `_` and `-`, up to 64 characters. */
export const TASK_ID: RegExp = /^[A-Za-z0-9._-]{1,64}$/;

/** The store folder of `root` (it may not exist yet). */
export function storeDir(root: string): string {
  return join(root, STORE_NAME);
}

/** Creates `.localexec/` with its `.gitignore` when missing; returns its path. */
export async function ensureStore(root: string): Promise<string> {
  const dir = storeDir(root);
  const info = await Deno.lstat(dir).catch(() => undefined);
  if (!info) {
    await Deno.mkdir(dir).catch((err) => {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    });
  } else if (!info.isDirectory) {
    throw new ToolError(
      `"${STORE_NAME}" exists but is not a folder (a file or a link); localexec keeps its files ` +
        "there: move it away",
    );
  }
  try {
    await Deno.writeTextFile(join(dir, ".gitignore"), "*\n", { createNew: true });
  } catch (err) {
    if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
  }
  return dir;
}

/**
 * `<root>/.localexec/tmp/`, created (with the store and its `.gitignore`) when missing: where
 * run_python writes the code it runs.
 */
export async function tempFolder(root: string): Promise<string> {
  const path = join(await ensureStore(root), "tmp");
  const info = await Deno.lstat(path).catch((err) => {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  });
  if (!info) {
    await Deno.mkdir(path).catch((err) => {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    });
  } else if (!info.isDirectory) {
    throw new ToolError(
      `".localexec/tmp" exists but is not a folder; run_python keeps temporary files there`,
    );
  }
  return path;
}

/** Absolute paths of one task's files in the store. */
export interface TaskPaths {
  /** `<id>.json`: the task record. */
  record: string;
  /** `<id>.orig/`: backups, with `manifest.json` and the original files under `files/`. */
  orig: string;
  manifest: string;
  originals: string;
  /** `<id>.patch`: the task's whole diff against the backups. */
  patch: string;
  /** `<id>.log`: prompts, replies, apply results and check output. */
  log: string;
}

/** The store paths of task `id` (which must match {@linkcode TASK_ID}). */
export function taskPaths(root: string, id: string): TaskPaths {
  if (!TASK_ID.test(id)) throw new ToolError(`invalid task id ${JSON.stringify(id.slice(0, 80))}`);
  const dir = storeDir(root);
  const orig = join(dir, `${id}.orig`);
  return {
    record: join(dir, `${id}.json`),
    orig,
    manifest: join(orig, "manifest.json"),
    originals: join(orig, "files"),
    patch: join(dir, `${id}.patch`),
    log: join(dir, `${id}.log`),
  };
}

/** `.localexec/<name>` as tool results show it. */
export function storeRel(name: string): string {
  return `${STORE_NAME}/${name}`;
}
