/**
 * The project write lock: one holder at a time per root, within a process and across processes.
 *
 * The lock is the file `.localexec/lock`, holding JSON about its owner (pid, tool, task id, since).
 * It is created atomically: the owner writes a private file, takes an OS file lock (`flock`) on it,
 * then hard-links it to `lock`, which fails when `lock` exists (like `O_EXCL`). The OS drops the
 * `flock` when the owner dies, however it dies, so a waiter that can take the `flock` of `lock`
 * knows it is stale and removes it — while holding that `flock`, and only if `lock` is still that
 * same file, so two waiters never both take over one stale lock. Liveness needs no permission
 * beyond reading and writing `.localexec/` (no signals to other pids, no `/proc`).
 */
import { ToolError } from "../errors.ts";
import { join } from "../deps.ts";
import { ensureStore, storeDir } from "./dir.ts";

/** What the lock file says about its owner. */
export interface LockHolder {
  pid: number;
  /** Host name, when Deno may read it (`--allow-sys`). */
  hostname?: string;
  /** The tool that took the lock, e.g. `implement_task`. */
  tool?: string;
  task_id?: string;
  /** ISO time the lock was taken. */
  since: string;
}

/** Options for {@linkcode withProjectLock}. */
export interface LockOptions {
  /** Seconds to wait for another holder; default 120 (config `lock_timeout_s`). 0 = do not wait. */
  timeoutS?: number;
  /** Stops waiting (rejects with an `AbortError`); does not interrupt `fn` once it holds the lock. */
  signal?: AbortSignal;
  /** Receives "waiting for the project lock …" messages while another holder has it. */
  onWait?: (message: string) => void;
  /** Recorded in the lock file so a waiter can say who holds it. */
  tool?: string;
  taskId?: string;
}

/** Waiting for the lock took longer than allowed; the message says who holds it. */
export class LockTimeoutError extends ToolError {
  constructor(message: string, readonly holder?: LockHolder) {
    super(message);
    this.name = "LockTimeoutError";
  }
}

/** The lock file of `root`. */
export function lockPath(root: string): string {
  return join(storeDir(root), "lock");
}

function _hostname(): string | undefined {
  try {
    const ok = Deno.permissions.querySync({ name: "sys", kind: "hostname" }).state === "granted";
    return ok ? Deno.hostname() : undefined;
  } catch {
    return undefined;
  }
}

/** Describes `h` for a person: `pid 123 (implement_task, task T1) since 2025-01-01T10:00:00Z`. */
function describeHolder(h: LockHolder | undefined): string {
  if (!h) return "another process";
  const what = [h.tool, h.task_id ? `task ${h.task_id}` : undefined].filter(Boolean).join(", ");
  const host = h.hostname && h.hostname !== _hostname() ? ` on ${h.hostname}` : "";
  return `pid ${h.pid}${host}${what ? ` (${what})` : ""} since ${h.since.replace(/\.\d+Z$/, "Z")}`;
}

async function _readHolder(path: string): Promise<LockHolder | undefined> {
  try {
    const data = JSON.parse(await Deno.readTextFile(path));
    return typeof data?.pid === "number" ? data as LockHolder : undefined;
  } catch {
    return undefined;
  }
}

type _Probe = { state: "free" } | { state: "held"; holder?: LockHolder } | {
  state: "stale";
  holder?: LockHolder;
};

/** Looks at `lock`: free, held by a live owner, or stale (then it is removed here). */
async function _probe(path: string): Promise<_Probe> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return { state: "free" };
    throw err;
  }
  try {
    if (!(await file.tryLock(true))) return { state: "held", holder: await _readHolder(path) };
    // Its owner is gone. Remove it only if `lock` is still this very file.
    const mine = await file.stat();
    const now = await Deno.lstat(path).catch(() => undefined);
    if (!now || now.ino !== mine.ino || now.dev !== mine.dev) return { state: "free" };
    const holder = await _readHolder(path);
    await Deno.remove(path);
    return { state: "stale", holder };
  } finally {
    file.close();
  }
}

/** How often, and how far apart, {@linkcode lockHolder} looks again at a lock it found held. */
const HOLDER_LOOKS = 4;
const HOLDER_LOOK_MS = 15;

/**
 * The live holder of the project lock of `root`, or undefined when nobody holds it. Read-only:
 * a stale lock is reported as free but left in place.
 *
 * Race handled: a waiter that found the lock stale holds its `flock` for a moment while it checks
 * and removes the file, and then the lock looks held by its dead owner. So a held lock is looked
 * at again a few times, a few milliseconds apart: the owner's hold lasts, a waiter's does not.
 */
export async function lockHolder(root: string): Promise<LockHolder | undefined> {
  const path = lockPath(root);
  for (let look = 1;; look++) {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { read: true });
    } catch {
      return undefined;
    }
    try {
      if (await file.tryLock(true)) return undefined;
      if (look >= HOLDER_LOOKS) return await _readHolder(path) ?? { pid: 0, since: "?" };
    } finally {
      file.close();
    }
    await sleepUnlessAborted(HOLDER_LOOK_MS);
  }
}

/** Waits `ms`; rejects with an `AbortError` as soon as `signal` aborts. */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      if (signal?.aborted) reject(new DOMException("cancelled", "AbortError"));
      else resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Removes `lock.*.tmp` files left by waiters that died: their `flock` is gone and they are over a
 * minute old (a live waiter's file is unlocked for an instant between its creation and `flock`).
 */
async function _sweep(store: string, mine: string): Promise<void> {
  for await (const entry of Deno.readDir(store)) {
    if (!/^lock\.[0-9a-f-]+\.tmp$/.test(entry.name) || join(store, entry.name) === mine) continue;
    const path = join(store, entry.name);
    const file = await Deno.open(path, { read: true }).catch(() => undefined);
    if (!file) continue;
    try {
      const old = Date.now() - ((await file.stat()).mtime?.getTime() ?? Date.now()) > 60_000;
      if (old && await file.tryLock(true)) await Deno.remove(path).catch(() => {});
    } finally {
      file.close();
    }
  }
}

async function _writeHolder(file: Deno.FsFile, holder: LockHolder): Promise<void> {
  const bytes = new TextEncoder().encode(JSON.stringify(holder) + "\n");
  await file.truncate(0);
  await file.seek(0, Deno.SeekMode.Start);
  for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
}

/** A held lock: the open, `flock`ed file behind `lock`. */
interface _Held {
  file: Deno.FsFile;
  path: string;
}

async function _acquire(root: string, options: LockOptions): Promise<_Held> {
  const store = await ensureStore(root);
  const path = join(store, "lock");
  const hostname = _hostname();
  const tmp = join(store, `lock.${crypto.randomUUID().slice(0, 12)}.tmp`);
  const file = await Deno.open(tmp, { read: true, write: true, createNew: true, mode: 0o644 });
  let linked = false;
  try {
    await file.lock(true);
    const timeoutS = options.timeoutS ?? 120;
    const began = Date.now();
    const deadline = began + timeoutS * 1000;
    let nextNote = 0;
    let delay = 25;
    for (;;) {
      options.signal?.throwIfAborted();
      try {
        // Nobody reads the private file before it is linked: stamp it with the time it is taken.
        const since = new Date().toISOString();
        await _writeHolder(file, {
          pid: Deno.pid,
          hostname,
          tool: options.tool,
          task_id: options.taskId,
          since,
        });
        await Deno.link(tmp, path);
        linked = true;
        await _sweep(store, tmp).catch(() => {});
        return { file, path };
      } catch (err) {
        if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
      }
      const probe = await _probe(path);
      if (probe.state === "stale") {
        options.onWait?.(`took over the project lock left by ${describeHolder(probe.holder)}`);
      }
      if (probe.state !== "held") continue;
      const now = Date.now();
      if (now >= deadline) {
        throw new LockTimeoutError(
          `the project is locked by ${describeHolder(probe.holder)}; gave up after ${timeoutS} s ` +
            `(lock_timeout_s); try again when it has finished`,
          probe.holder,
        );
      }
      if (now >= nextNote) {
        const waited = Math.round((now - began) / 1000);
        options.onWait?.(
          `waiting for the project lock held by ${describeHolder(probe.holder)}` +
            (waited ? ` (${waited} s so far)` : ""),
        );
        nextNote = now + 5000;
      }
      await sleepUnlessAborted(Math.min(delay, deadline - now), options.signal);
      delay = Math.min(delay * 2, 250);
    }
  } finally {
    await Deno.remove(tmp).catch(() => {});
    if (!linked) file.close();
  }
}

async function _release(held: _Held): Promise<void> {
  try {
    const mine = await held.file.stat();
    const now = await Deno.lstat(held.path).catch(() => undefined);
    if (now && now.ino === mine.ino && now.dev === mine.dev) await Deno.remove(held.path);
  } finally {
    held.file.close();
  }
}

/**
 * Runs `fn` while holding the project write lock of `root`, and releases it on every path (return,
 * throw, cancellation). Waits for another holder, in this process or another, sending `onWait`
 * messages; takes over a lock whose owner died; after `timeoutS` rejects with a
 * {@linkcode LockTimeoutError} naming the holder (pid, tool, task id, since when).
 */
export async function withProjectLock<T>(
  root: string,
  options: LockOptions,
  fn: () => Promise<T>,
): Promise<T> {
  const held = await _acquire(root, options);
  try {
    return await fn();
  } finally {
    await _release(held);
  }
}
