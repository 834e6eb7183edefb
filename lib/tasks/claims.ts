/**
 * Claims on files (docs/ARCHITECTURE.md, "Parallel tasks"): a running implement_task holds
 * `.localexec/claims/<task id>.json`, naming its `files_to_edit`, whether it runs in the tree or
 * in a workspace (and where), and who runs it. Tasks whose files are disjoint run at once; a task
 * whose files overlap a live claim waits for it. Claims are taken under the project lock (held for
 * an instant), so two servers on one project see each other's.
 *
 * A claim file is made under the project lock and `flock`ed at once; the OS drops the `flock` when
 * its owner dies, so a claim whose `flock` can be taken is stale, and whoever next holds the
 * project lock (a claimer, or a server starting) removes its workspace and the file. The workspace's path is in
 * the claim before the workspace exists (write-ahead).
 */
import { join } from "../deps.ts";
import { ToolError } from "../errors.ts";
import { storeDir } from "./dir.ts";
import { sleepUnlessAborted, withProjectLock } from "./lock.ts";
import { metaPath, tidyWorkspaces, workspaceBase } from "./ws_dir.ts";

/** What a claim file says. */
export interface Claim {
  task_id: string;
  pid: number;
  files: string[];
  /** `tree`: the task edits the user's tree; `workspace`: a copy at `workspace`. */
  mode: "tree" | "workspace";
  workspace?: string;
  since: string;
}

/** A claim this process holds; `release` drops it (and never throws). */
export interface HeldClaim {
  readonly claim: Claim;
  /** The tasks this one waited for, if any. */
  readonly waitedFor: string[];
  /** The other tasks running when the claim was made (their files are not this task's). */
  readonly others: Claim[];
  release(): Promise<void>;
}

/** Options for {@linkcode claimFiles}. */
export interface ClaimOptions {
  taskId: string;
  files: readonly string[];
  /** Seconds to wait for overlapping tasks (config `lock_timeout_s`). */
  timeoutS: number;
  signal?: AbortSignal;
  /** "waiting for task T1 (it edits calc.py)". */
  onWait?: (message: string) => void;
  /** Where this task's workspace goes when other tasks run (recorded before it is made). */
  workspaceAt: (taskId: string) => string;
  /**
   * Runs once the claim is made, still under the project lock (one hold for claiming and
   * beginning); told whether the task waited for another. When it throws, the claim is dropped.
   */
  whileLocked?: (claim: Claim, waited: boolean) => Promise<void>;
}

/** The claims folder of `root`. */
export function claimsDir(root: string): string {
  return join(storeDir(root), "claims");
}

function _claimPath(root: string, id: string): string {
  return join(claimsDir(root), `${id}.json`);
}

async function _read(path: string): Promise<Claim | undefined> {
  try {
    const c = JSON.parse(await Deno.readTextFile(path));
    return typeof c?.task_id === "string" && Array.isArray(c.files) ? c as Claim : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the claim of task `id` is held by a live run (read-only; never removes anything). */
export async function claimAlive(root: string, id: string): Promise<boolean> {
  const file = await Deno.open(_claimPath(root, id), { read: true }).catch(() => undefined);
  if (!file) return false;
  try {
    // Held: its owner runs (or, for an instant, a claimer is removing it as stale).
    return !(await file.tryLock(true));
  } finally {
    file.close();
  }
}

/** Removes a dead run's workspace and its record; only a folder where `root`'s workspaces go. */
async function _removeWorkspace(root: string, path: string | undefined): Promise<void> {
  if (!path || !path.startsWith(workspaceBase(root) + "/")) return;
  await Deno.remove(path, { recursive: true }).catch(() => {});
  await Deno.remove(metaPath(path), { recursive: true }).catch(() => {});
}

/**
 * The live claims of `root`; call it under the project lock. A stale claim (its owner died) is
 * removed with its workspace, while holding its `flock` and only if the name still leads to that
 * file.
 */
export async function liveClaims(root: string): Promise<Claim[]> {
  const dir = claimsDir(root);
  const out: Claim[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return out;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    const file = await Deno.open(path, { read: true }).catch(() => undefined);
    if (!file) continue;
    try {
      const claim = await _read(path);
      if (!(await file.tryLock(true))) {
        if (claim) out.push(claim);
        continue;
      }
      const mine = await file.stat();
      const now = await Deno.lstat(path).catch(() => undefined);
      if (!now || now.ino !== mine.ino || now.dev !== mine.dev) continue;
      await _removeWorkspace(root, claim?.workspace);
      await Deno.remove(path).catch(() => {});
    } finally {
      file.close();
    }
  }
  return out;
}

/**
 * Removes stale claims and their workspaces, workspaces no live claim names, and a standby a dead
 * server left half-made (the ready standby and a live server's one being made stay); never throws.
 * Takes the project lock (a server starting calls it in the background; a reader does not take
 * this holder for a dead run's owner, whose pid differs); a claimer and revert_task sweep the
 * stale claims too.
 */
export async function removeStaleClaims(root: string): Promise<void> {
  try {
    await withProjectLock(root, { timeoutS: 30, tool: "cleanup" }, async () => {
      const live = (await liveClaims(root)).flatMap((c) => c.workspace ? [c.workspace] : []);
      await tidyWorkspaces(workspaceBase(root), new Set(live));
    });
  } catch {
    // nothing to clean, the lock is busy, or not readable: the next claimer or start cleans up
  }
}

function _overlap(a: readonly string[], b: readonly string[]): string | undefined {
  const set = new Set(b);
  return a.find((f) => set.has(f));
}

async function _write(file: Deno.FsFile, claim: Claim): Promise<void> {
  const bytes = new TextEncoder().encode(JSON.stringify(claim) + "\n");
  for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
}

/** Links a new claim (call it under the project lock), or names the live claim in the way. */
async function _tryClaim(
  root: string,
  o: ClaimOptions,
  waited: boolean,
): Promise<{ held: HeldClaim } | { busy: Claim; file: string }> {
  const others = await liveClaims(root);
  for (const c of others) {
    const file = c.task_id === o.taskId ? o.files[0] : _overlap(o.files, c.files);
    if (file !== undefined) return { busy: c, file };
  }
  const claim: Claim = {
    task_id: o.taskId,
    pid: Deno.pid,
    files: [...o.files],
    mode: others.length ? "workspace" : "tree",
    since: new Date().toISOString(),
  };
  if (claim.mode === "workspace") claim.workspace = o.workspaceAt(o.taskId);
  const dir = claimsDir(root);
  await Deno.mkdir(dir, { recursive: true });
  const path = _claimPath(root, o.taskId);
  // Under the project lock no other claimer looks: the file is locked before anyone takes it for
  // stale (a reader without the lock only ever looks, `claimAlive`).
  const file = await Deno.open(path, { read: true, write: true, createNew: true, mode: 0o644 });
  try {
    await file.lock(true);
    await _write(file, claim);
  } catch (err) {
    file.close();
    await Deno.remove(path).catch(() => {});
    throw err;
  }
  let released = false;
  const held: HeldClaim = {
    claim,
    waitedFor: [],
    others,
    async release() {
      if (released) return;
      released = true;
      try {
        // Held all along: nobody else removes a live claim.
        await Deno.remove(path);
      } catch {
        // gone already
      } finally {
        file.close();
      }
    },
  };
  try {
    await o.whileLocked?.(claim, waited);
  } catch (err) {
    await held.release();
    throw err;
  }
  return { held };
}

/**
 * Claims `files` for task `taskId`: waits while a live task (in this process or another) claims
 * one of them, naming it in `onWait`; gives up after `timeoutS` with an error naming it. The
 * claim's mode is `tree` when no other task runs, else `workspace`.
 */
export async function claimFiles(root: string, o: ClaimOptions): Promise<HeldClaim> {
  const began = Date.now();
  const waited = new Set<string>();
  let nextNote = 0;
  for (;;) {
    o.signal?.throwIfAborted();
    const left = Math.max(0, o.timeoutS - (Date.now() - began) / 1000);
    const got = await withProjectLock(root, {
      timeoutS: left,
      signal: o.signal,
      onWait: o.onWait,
      tool: "implement_task",
      taskId: o.taskId,
    }, () => _tryClaim(root, o, waited.size > 0));
    if ("held" in got) return { ...got.held, waitedFor: [...waited] };
    waited.add(got.busy.task_id);
    const now = Date.now();
    if (now - began >= o.timeoutS * 1000) {
      throw new ClaimTimeoutError(
        `task ${got.busy.task_id} (pid ${got.busy.pid}) is editing ${got.file}; gave up after ` +
          `${o.timeoutS} s (lock_timeout_s); try again when it has finished`,
      );
    }
    if (now >= nextNote) {
      o.onWait?.(`waiting for task ${got.busy.task_id}, which edits ${got.file}`);
      nextNote = now + 5000;
    }
    await sleepUnlessAborted(200, o.signal);
  }
}

/** Waiting for an overlapping task took longer than allowed. */
export class ClaimTimeoutError extends ToolError {
  constructor(message: string) {
    super(message);
    this.name = "ClaimTimeoutError";
  }
}
