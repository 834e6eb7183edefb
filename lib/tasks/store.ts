/**
 * Task records: `.localexec/<id>.json`, rewritten atomically (temp file + rename) at every change,
 * so a run killed at any moment leaves a readable record.
 *
 * A record whose stored status is `running` is shown as `interrupted` unless its owner still holds
 * the project lock (same pid and task id): the lock file's OS lock tells, with no signal to any pid.
 */
import { ToolError } from "../errors.ts";
import { writeFileAtomic } from "../fs_atomic.ts";
import { claimAlive } from "./claims.ts";
import { pendingAlive } from "./requests.ts";
import { lockHolder } from "./lock.ts";
import { ensureStore, storeDir, TASK_ID, taskPaths } from "./dir.ts";
import { appendIndex, readIndex } from "./index.ts";

/** Where a task stands. `interrupted` is never stored: it is how a dead `running` record reads. */
export type TaskStatus =
  | "running"
  | "passed"
  | "failed"
  | "blocked"
  | "conflict"
  | "error"
  | "interrupted";

/** The task record as stored in `.localexec/<id>.json`. Extra keys are kept as written. */
export interface TaskRecord {
  [key: string]: unknown;
  id: string;
  status: TaskStatus;
  spec: string;
  /** Project-relative files the task may edit (its backups' manifest lists the same). */
  files: string[];
  context_files?: string[];
  /** Names of the checks selected for the task; absent means all. */
  checks?: string[];
  /** Pid of the process that runs (or last ran) it. */
  pid: number;
  /** ISO times: first begun, latest run begun, last record change, run finished. */
  created: string;
  started: string;
  updated: string;
  finished?: string;
  /** How many times it was begun (1 + continuations). */
  runs: number;
  /** Model attempts in the latest run. */
  attempts: number;
  /** Totals over every run: the model's prompt and reply tokens, seconds in the model and in checks. */
  prompt_tokens: number;
  reply_tokens: number;
  model_secs: number;
  check_secs: number;
  /** Per file, the SHA-256 of every content this task wrote (null: it deleted the file). */
  written: Record<string, (string | null)[]>;
  /**
   * Write-ahead, every write of a task file in order: what the tree held before it and what was
   * written (`history.ts`), so undoing the task keeps what someone else changed in between.
   */
  writes?: WriteEntry[];
  /**
   * Write-ahead: project-relative temporary names (`.<name>.<8 hex>.localexec-tmp`) of the files
   * and new folders this task may have created, recorded before each is created, so a revert after
   * a kill removes them.
   */
  temps?: string[];
  /** Write-ahead: folders this task created that its manifest's `new_dirs` does not list. */
  made_dirs?: string[];
  /** `+1 -1 in 1 file` after the last `writePatch`. */
  stat?: string;
  error?: string;
  why?: string;
  /** The model whose attempt produced the latest run's result. */
  model?: string;
  /** The language of the edited files, from their extensions (`python`, `go+json`). */
  kind?: string;
  /** Seconds the latest run took, from its start to its verdict. */
  secs?: number;
  /** Whether the latest run's verdict told the caller to do the step itself. */
  escalate?: boolean;
  /** The ladder's rungs the latest run asked, when more than one: model, attempts, status each. */
  tried?: { model: string; attempts: number; status: string }[];
  /**
   * Every attempt of every run, oldest first (`AttemptFacts` of `lib/implement/loop.ts`): model,
   * host, provider, tokens counted or estimated, seconds to the first token and in all, the
   * parser's decision and the checks' outcome. Kept out of the task index.
   */
  history?: Record<string, unknown>[];
  /** Set once the task was reverted. */
  reverted_at?: string;
  /**
   * A record written when the server accepted the task, before it began (a model to check,
   * another task's files to wait for): `beginTask` starts such a task afresh.
   */
  provisional?: boolean;
}

/** One write of a task file, as the record's `writes` keeps it. */
export interface WriteEntry {
  /** Project-relative path. */
  path: string;
  /** The run of the task (the record's `runs` then) that wrote. */
  run: number;
  /** SHA-256 of what the tree held just before the write; null: no file. */
  pre: string | null;
  /** SHA-256 of what was written; null: the file was removed. */
  post: string | null;
  /**
   * Not a write of the task's: the task saw someone else change the file from `pre` to `post`
   * while it ran, and went on from that version (an edit made while its checks ran).
   */
  seen?: true;
}

/** A change to a record: fields to merge, or a function of the current record returning them. */
export type TaskPatch = Partial<TaskRecord> | ((current: TaskRecord) => Partial<TaskRecord>);

/** Reads the stored record of `id` as written (no `interrupted` view); undefined when absent. */
export async function readRecord(root: string, id: string): Promise<TaskRecord | undefined> {
  if (!TASK_ID.test(id)) return undefined;
  let text: string;
  try {
    const path = taskPaths(root, id).record;
    if (!(await Deno.lstat(path)).isFile) return undefined;
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
  try {
    const data = JSON.parse(text);
    if (data?.id !== id || typeof data.status !== "string") throw new Error("wrong shape");
    return { written: {}, files: [], ...data } as TaskRecord;
  } catch {
    throw new ToolError(`the record of task "${id}" (.localexec/${id}.json) is damaged`);
  }
}

/** Writes `record` atomically, and notes it in the task index. */
export async function writeRecord(root: string, record: TaskRecord): Promise<void> {
  await writeFileAtomic(taskPaths(root, record.id).record, JSON.stringify(record, null, 1) + "\n");
  await appendIndex(root, record);
}

/** A new task's record: `running` in this process, nothing counted or written yet. */
export function freshRecord(
  o: { id: string; spec: string; files?: readonly string[] },
): TaskRecord {
  const now = new Date().toISOString();
  return {
    id: o.id,
    status: "running",
    spec: o.spec,
    files: [...(o.files ?? [])],
    pid: Deno.pid,
    created: now,
    started: now,
    updated: now,
    runs: 0,
    attempts: 0,
    prompt_tokens: 0,
    reply_tokens: 0,
    model_secs: 0,
    check_secs: 0,
    written: {},
    writes: [],
  };
}

/**
 * Writes the first record of task `id` (`running`, `provisional`) when it has none, so a task the
 * server accepted is listed before it begins; returns whether it wrote one. Never replaces a record.
 */
export async function provisionalRecord(
  root: string,
  o: { id: string; spec: string; files: readonly string[] },
): Promise<boolean> {
  const path = taskPaths(root, o.id).record;
  await ensureStore(root);
  const record: TaskRecord = { ...freshRecord(o), provisional: true };
  const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  await Deno.writeTextFile(temp, JSON.stringify(record, null, 1) + "\n");
  try {
    await Deno.link(temp, path); // fails when a record exists: never replaces one
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) return false;
    throw err;
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
  await appendIndex(root, record);
  return true;
}

/**
 * Merges `patch` into the record of `id` and rewrites it atomically; returns the new record.
 * Call it only while holding the project lock (one writer at a time).
 */
export async function updateTask(root: string, id: string, patch: TaskPatch): Promise<TaskRecord> {
  const current = await readRecord(root, id);
  if (!current) throw new ToolError(`no task "${id}" to update`);
  const change = typeof patch === "function" ? patch(current) : patch;
  const next = { ...current, ...change, id, updated: new Date().toISOString() };
  await writeRecord(root, next);
  return next;
}

/**
 * Adds the project-relative temporary names `temps` to the record of `id` (write-ahead: call it
 * before they exist). Call it only while holding the project lock.
 */
export async function noteTemps(root: string, id: string, temps: readonly string[]): Promise<void> {
  await updateTask(root, id, (r) => ({ temps: [...new Set([...(r.temps ?? []), ...temps])] }));
}

/** `record` as a reader should see it: a `running` record whose owner is gone is `interrupted`. */
export async function viewRecord(root: string, record: TaskRecord): Promise<TaskRecord> {
  if (record.status !== "running") return record;
  // A running task holds its claim on its files (`claims.ts`) from before it begins to its end,
  // and its pending file (`requests.ts`) from when its server accepted it until it has the claim.
  if (await claimAlive(root, record.id) || await pendingAlive(root, record.id)) return record;
  const holder = await lockHolder(root);
  const alive = holder && holder.pid === record.pid &&
    (!holder.task_id || holder.task_id === record.id);
  return alive ? record : { ...record, status: "interrupted" };
}

/** The record of `id` as a reader should see it (see {@linkcode viewRecord}). */
export async function readTask(root: string, id: string): Promise<TaskRecord | undefined> {
  const record = await readRecord(root, id);
  return record && await viewRecord(root, record);
}

/**
 * Every readable task, newest run first, as readers should see them. The entries come from the
 * task index (`index.ts`): `written` is empty and the spec is cut to 200 characters; a record the
 * index does not name is read from its file.
 */
export async function listTasks(root: string): Promise<TaskRecord[]> {
  const out: TaskRecord[] = [];
  const index = await readIndex(root);
  try {
    for await (const entry of Deno.readDir(storeDir(root))) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const id = entry.name.slice(0, -5);
      const known = index.get(id);
      // A `running` line is read from the record: tasks run at once, and a line appended while
      // another task compacts the index may be lost.
      const record = known && typeof known.status === "string" && known.status !== "running"
        ? { files: [], ...known } as unknown as TaskRecord
        : await readRecord(root, id).catch(() => undefined);
      if (record) out.push(record.written ? record : { ...record, written: {} });
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  out.sort((a, b) => (a.started < b.started ? 1 : a.started > b.started ? -1 : 0));
  // Only a running record needs its owner checked.
  return await Promise.all(out.map((r) => r.status === "running" ? viewRecord(root, r) : r));
}

/** How much work stayed local: the model's tokens and seconds, summed over `tasks`. */
export interface TaskTotals {
  prompt_tokens: number;
  reply_tokens: number;
  model_secs: number;
  check_secs: number;
}

/** Sums the accounting fields of `tasks` (seconds rounded to tenths). */
export function taskTotals(tasks: readonly TaskRecord[]): TaskTotals {
  const sum = (key: keyof TaskTotals) => tasks.reduce((n, t) => n + (Number(t[key]) || 0), 0);
  const tenths = (n: number) => Math.round(n * 10) / 10;
  return {
    prompt_tokens: sum("prompt_tokens"),
    reply_tokens: sum("reply_tokens"),
    model_secs: tenths(sum("model_secs")),
    check_secs: tenths(sum("check_secs")),
  };
}

/** The error for an unknown task id, listing the most recent ids. */
export async function unknownTask(root: string, id: string): Promise<ToolError> {
  const recent = (await listTasks(root).catch(() => [])).slice(0, 8).map((r) => r.id);
  const shown = JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id);
  return new ToolError(
    recent.length
      ? `no task ${shown}; recent tasks: ${recent.join(", ")}`
      : `no task ${shown}; no tasks are recorded in this project yet`,
  );
}

/** Appends `text` to `.localexec/<id>.log` (a newline is added when missing). */
export async function appendLog(root: string, id: string, text: string): Promise<void> {
  const line = text.endsWith("\n") ? text : `${text}\n`;
  await Deno.writeTextFile(taskPaths(root, id).log, line, { append: true, create: true });
}
