/**
 * What servers on one project ask of each other's tasks (docs/ARCHITECTURE.md, "Parallel tasks"),
 * in `.localexec/requests/`:
 *
 * - `<id>.cancel`: revert_task in one server asks the server that runs task `id` to stop it before
 *   it lands anything; the owner looks for it while the task runs and once more under the project
 *   lock right before landing, so a task never lands after a revert was asked for.
 * - `<id>.pending`: held (`flock`) by a server from the moment it accepts task `id` until the task
 *   holds its claim (`claims.ts`), so a task that waits for a model or for another task's files
 *   already has a record that readers see as running, and one whose server died as interrupted.
 *
 * Apart from the claims folder: a claim is a `flock`ed file, and whatever is in that folder
 * unlocked is taken for a dead claim and removed.
 */
import { join } from "../deps.ts";
import { ToolError } from "../errors.ts";
import { type Claim, claimAlive, claimsDir } from "./claims.ts";
import { storeDir } from "./dir.ts";

/** The requests folder of `root`. */
function _dir(root: string): string {
  return join(storeDir(root), "requests");
}

/** A task runs in another server: it was not touched. */
export class TaskRunningError extends ToolError {
  constructor(message: string, readonly pid: number) {
    super(message);
    this.name = "TaskRunningError";
  }
}

/** The claim of task `id` when a live run holds it (in any process); undefined otherwise. */
export async function claimOf(root: string, id: string): Promise<Claim | undefined> {
  if (!(await claimAlive(root, id))) return undefined;
  try {
    const c = JSON.parse(await Deno.readTextFile(join(claimsDir(root), `${id}.json`)));
    return typeof c?.pid === "number" ? c as Claim : { task_id: id, pid: 0 } as Claim;
  } catch {
    return { task_id: id, pid: 0 } as Claim; // held, but not yet written
  }
}

/** Asks the server that runs task `id` to stop it (call it under the project lock). */
export async function askToCancel(root: string, id: string): Promise<void> {
  await Deno.mkdir(_dir(root), { recursive: true });
  const line = JSON.stringify({ task_id: id, by: Deno.pid, at: new Date().toISOString() });
  await Deno.writeTextFile(join(_dir(root), `${id}.cancel`), line + "\n");
}

/**
 * How long a request to stop a task stands: the asker takes it back when it has done waiting (30
 * s); one older than this was left by an asker that died, and is taken back here.
 */
const CANCEL_STANDS_MS = 60_000;

/** Whether someone asked task `id` to stop (within the last minute). */
export async function cancelAsked(root: string, id: string): Promise<boolean> {
  const path = join(_dir(root), `${id}.cancel`);
  const info = await Deno.lstat(path).catch(() => undefined);
  if (!info) return false;
  if (Date.now() - (info.mtime?.getTime() ?? 0) < CANCEL_STANDS_MS) return true;
  await Deno.remove(path).catch(() => {});
  return false;
}

/** Takes back a request to stop task `id` (honoured, or no longer needed); never throws. */
export async function clearCancel(root: string, id: string): Promise<void> {
  await Deno.remove(join(_dir(root), `${id}.cancel`)).catch(() => {});
}

/** A held `<id>.pending`; `release` drops it (and never throws). */
export interface Pending {
  release(): Promise<void>;
}

/** Holds `<id>.pending` for task `id` until released (or this process dies). */
export async function holdPending(root: string, id: string): Promise<Pending> {
  await Deno.mkdir(_dir(root), { recursive: true });
  const path = join(_dir(root), `${id}.pending`);
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o644 });
  let held = false;
  try {
    held = await file.tryLock(true);
  } finally {
    // Held by another server that took the same id first: its claim comes first, this task's
    // claim waits for it, and its pending file stands for both meanwhile.
    if (!held) file.close();
  }
  if (!held) return { release: () => Promise.resolve() };
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await Deno.remove(path).catch(() => {});
      file.close();
    },
  };
}

/** Whether a live server holds `<id>.pending` (read-only). */
export async function pendingAlive(root: string, id: string): Promise<boolean> {
  const file = await Deno.open(join(_dir(root), `${id}.pending`), { read: true })
    .catch(() => undefined);
  if (!file) return false;
  try {
    return !(await file.tryLock(true));
  } finally {
    file.close();
  }
}
