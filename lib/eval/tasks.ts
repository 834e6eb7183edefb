/**
 * The eval task format (docs/EVAL.md): one folder per task holding `task.json` (what a frontier
 * model would pass to implement_task, plus the checks that judge it), `files/` (the project as it
 * is before the step) and, optionally, `solution/` (the files a right answer leaves, overlaid on
 * `files/`); or the same as one text bundle, `<name>.txtar` (bundle.ts). The bundled suite is
 * stored as bundles; `--tasks DIR` takes either.
 */
import { basename, extname, join } from "../deps.ts";
import { errorLine } from "../errors.ts";
import { fileURLToPath } from "node:url";
import { type BundleTexts, readBundle } from "./bundle.ts";

/** The folder of the bundled suite (one `.txtar` bundle per task). */
export const BUNDLED_SUITE: string = fileURLToPath(new URL("./suite", import.meta.url));

/** The extension of a task bundle. */
export const BUNDLE_EXT = ".txtar";

/** Task names: what a task id allows, short enough for the `eval-` prefix. */
const TASK_NAME = /^[A-Za-z0-9._-]{1,58}$/;

/** The prefix of every eval task id, which keeps eval runs apart from real work in records. */
export const EVAL_ID_PREFIX = "eval-";

const KEYS = [
  "spec",
  "files_to_edit",
  "context_files",
  "symbols",
  "checks",
  "kind",
  "language",
  "requires",
];

/** The language of a task, from the extension of its first file to edit. */
const LANGUAGES: Record<string, string> = {
  ".py": "python",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".ts": "typescript",
  ".go": "go",
  ".rs": "rust",
};

/** The programs a language's checks need by default (a task may name its own in `requires`). */
export const TOOLCHAINS: Record<string, string[]> = {
  python: ["python3"],
  javascript: ["node"],
  typescript: ["deno"],
  go: ["go"],
  rust: ["rustc"],
};

/** One task, loaded and checked. */
export interface EvalTask {
  /** The folder's (or bundle's) name; the task id is {@linkcode EVAL_ID_PREFIX} + name. */
  name: string;
  /** The task folder, or the bundle file. */
  dir: string;
  /** A bundle's texts (a task folder's files are read from `dir`). */
  bundle?: BundleTexts;
  language: string;
  /** What kind of step it is ("bug fix", "new file", …): the recommendation groups by it. */
  kind: string;
  spec: string;
  files_to_edit: string[];
  context_files?: string[];
  symbols?: string[];
  /** The `checks` of the temporary project's `.localexec.json`. */
  checks: Record<string, unknown>;
  /** Programs the checks run, looked up on PATH before the task runs. */
  requires: string[];
  /** True when the task has a solution. */
  hasSolution: boolean;
}

/** A task folder that cannot be used; the message names the folder and the problem. */
export class TaskFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TaskFormatError";
  }
}

function _strings(v: unknown, key: string, where: string, min: number, max: number): string[] {
  if (
    !Array.isArray(v) || v.length < min || v.length > max ||
    v.some((s) => typeof s !== "string" || !s.trim())
  ) {
    throw new TaskFormatError(`${where}: "${key}" must be a list of ${min} to ${max} paths`);
  }
  return v as string[];
}

/** The fields of `task.json`'s text, checked; `where` names the task in errors. */
function _fields(text: string, where: string) {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new TaskFormatError(`${where}: cannot read task.json: ${errorLine(err)}`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new TaskFormatError(`${where}: task.json must hold an object`);
  }
  const extra = Object.keys(data).filter((k) => !KEYS.includes(k));
  if (extra.length) {
    throw new TaskFormatError(`${where}: unknown key "${extra[0]}" (task.json takes ${KEYS})`);
  }
  if (typeof data.spec !== "string" || !data.spec.trim()) {
    throw new TaskFormatError(`${where}: "spec" must be a non-empty string`);
  }
  const files = _strings(data.files_to_edit, "files_to_edit", where, 1, 2);
  const context = data.context_files === undefined
    ? undefined
    : _strings(data.context_files, "context_files", where, 0, 20);
  const symbols = data.symbols === undefined
    ? undefined
    : _strings(data.symbols, "symbols", where, 0, 20);
  const checks = data.checks;
  if (
    typeof checks !== "object" || checks === null || Array.isArray(checks) ||
    !Object.keys(checks).length
  ) {
    throw new TaskFormatError(
      `${where}: "checks" must name at least one check, as in .localexec.json ` +
        `({"tests": {"command": "..."}}): a task without checks cannot be scored`,
    );
  }
  const language = typeof data.language === "string"
    ? data.language
    : LANGUAGES[extname(files[0]).toLowerCase()] ?? "other";
  const requires = data.requires === undefined
    ? TOOLCHAINS[language] ?? []
    : _strings(data.requires, "requires", where, 0, 20);
  return {
    language,
    kind: typeof data.kind === "string" && data.kind.trim() ? data.kind : "other",
    spec: data.spec,
    files_to_edit: files,
    ...(context ? { context_files: context } : {}),
    ...(symbols ? { symbols } : {}),
    checks: checks as Record<string, unknown>,
    requires,
  };
}

function _checkName(name: string, where: string): void {
  if (!TASK_NAME.test(name)) {
    throw new TaskFormatError(`${where}: folder names may use letters, digits, ., _ and - (58)`);
  }
}

/** Loads the task in folder `dir` (its name is the folder's). */
export async function loadTask(dir: string, name: string): Promise<EvalTask> {
  const where = `task ${name}`;
  _checkName(name, where);
  let text: string;
  try {
    text = await Deno.readTextFile(join(dir, "task.json"));
  } catch (err) {
    throw new TaskFormatError(`${where}: cannot read task.json: ${errorLine(err)}`);
  }
  const fields = _fields(text, where);
  const isDir = async (p: string) => (await Deno.stat(p).catch(() => undefined))?.isDirectory;
  if (!(await isDir(join(dir, "files")))) {
    throw new TaskFormatError(`${where}: no files/ folder (the project before the step)`);
  }
  return { name, dir, ...fields, hasSolution: !!(await isDir(join(dir, "solution"))) };
}

/** Loads the task bundle `file` (its name is the file's, without `.txtar`). */
export async function loadBundle(file: string, name: string): Promise<EvalTask> {
  const where = `task ${name}`;
  _checkName(name, where);
  let bundle: BundleTexts;
  try {
    bundle = readBundle(await Deno.readTextFile(file));
  } catch (err) {
    throw new TaskFormatError(`${where}: ${errorLine(err)}`);
  }
  const fields = _fields(bundle.taskJson, where);
  if (!Object.keys(bundle.files).length) {
    throw new TaskFormatError(`${where}: no files/ section (the project before the step)`);
  }
  const hasSolution = Object.keys(bundle.solution).length > 0;
  return { name, dir: file, bundle, ...fields, hasSolution };
}

/** The text of `rel` in the task's `files/` or `solution/`; null when it has none. */
export async function taskText(
  task: EvalTask,
  part: "files" | "solution",
  rel: string,
): Promise<string | null> {
  if (task.bundle) return task.bundle[part][rel] ?? null;
  return await Deno.readTextFile(join(task.dir, part, rel)).catch(() => null);
}

/**
 * Loads every task in `dir`, sorted by name: each folder holding a `task.json` and each
 * `<name>.txtar` bundle. `dir` may also be one task folder or one bundle itself.
 */
export async function loadTasks(dir: string): Promise<EvalTask[]> {
  const info = await Deno.stat(dir).catch(() => undefined);
  if (info?.isFile && dir.endsWith(BUNDLE_EXT)) {
    return [await loadBundle(dir, basename(dir, BUNDLE_EXT))];
  }
  if (!info?.isDirectory) throw new TaskFormatError(`task folder "${dir}" does not exist`);
  if (await Deno.stat(join(dir, "task.json")).catch(() => undefined)) {
    const name = dir.replace(/\/+$/, "").split("/").pop()!;
    return [await loadTask(dir, name)];
  }
  const found: { name: string; load: () => Promise<EvalTask> }[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    // a task folder may be a link to one elsewhere (Deno.stat follows it)
    if (await Deno.stat(join(path, "task.json")).catch(() => undefined)) {
      found.push({ name: e.name, load: () => loadTask(path, e.name) });
    } else if (
      e.name.endsWith(BUNDLE_EXT) && (await Deno.stat(path).catch(() => undefined))?.isFile
    ) {
      const name = e.name.slice(0, -BUNDLE_EXT.length);
      found.push({ name, load: () => loadBundle(path, name) });
    }
  }
  if (!found.length) {
    throw new TaskFormatError(
      `no tasks in "${dir}": each task is a folder with a task.json, or a ${BUNDLE_EXT} bundle`,
    );
  }
  found.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return await Promise.all(found.map((f) => f.load()));
}
