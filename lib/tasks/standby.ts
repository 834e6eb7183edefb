/**
 * The standby workspace (docs/DECISIONS.md, "Cheap workspaces"): one copy of the project per
 * project, kept ready in its workspace folder (`ws_dir.ts`) with its record (`ws_sync.ts`), so a
 * task that starts beside another takes it with a rename and a sync instead of copying the tree.
 *
 * - Made in the background when a first task starts (`prepareStandby`), and remade from a
 *   workspace whose task ended when there is none (`giveBack`: the workspace is synced as dirty,
 *   which undoes the task's edits and whatever its checks wrote).
 * - Made and recycled only by the holder of the maker lock's `flock`, under the name `MAKING`,
 *   then renamed to `STANDBY`: a half-made standby is never taken, and a dead maker's is removed
 *   by the next holder (or `tidyWorkspaces`).
 * - Taken with one rename (`takeStandby`): of two servers, one wins; the other waits for a live
 *   maker's, else copies the tree.
 */
import { dirname, join } from "../deps.ts";
import { sleepUnlessAborted } from "./lock.ts";
import { type CopyRecord, copyTree, readRecord, RECORD, syncCopy } from "./ws_sync.ts";
import {
  ensureWorkspaceBase,
  MAKING,
  metaPath,
  STANDBY,
  tryMakerLock,
  workspaceBase,
} from "./ws_dir.ts";

/** The copy inside a standby (or a workspace's record folder while it moves). */
const TREE = "tree";
/** Present in a record folder whose copy may differ from its record (a task had it). */
const DIRTY = "dirty";
/** How often a waiter looks at the maker lock. */
const POLL_MS = 100;
/** How long a task waits for a live maker's standby before it copies the tree itself. */
const MAKER_WAIT_MS = 10 * 60_000;

function _exists(path: string): Promise<boolean> {
  return Deno.lstat(path).then(() => true, () => false);
}

/** Notes that the copy of the record folder `meta` may differ from its record. */
export async function markDirty(meta: string): Promise<void> {
  await Deno.writeFile(join(meta, DIRTY), new Uint8Array(), { mode: 0o600 });
}

/**
 * Takes `root`'s standby as the workspace `ws` (in `root`'s workspace folder): the copy goes to
 * `ws`, its record to `<ws>.meta`, marked dirty before anything writes into the copy. Waits while
 * a live maker makes or recycles one (it is sooner than a copy of our own); undefined when there
 * is none, another task took it first, or it cannot be used.
 */
export async function takeStandby(
  root: string,
  ws: string,
  signal?: AbortSignal,
): Promise<{ record: CopyRecord; dirty: boolean } | undefined> {
  const base = dirname(ws), meta = metaPath(ws);
  const until = Date.now() + MAKER_WAIT_MS;
  const take = () => Deno.rename(join(base, STANDBY), meta).then(() => true, () => false);
  for (;;) {
    if (await take()) break;
    const lock = await tryMakerLock(base);
    if (lock) {
      // No maker: nothing is coming. (Taking again holding the lock: one may have just finished.)
      const took = await take().finally(() => lock.close());
      if (took) break;
      return undefined;
    }
    if (Date.now() > until) return undefined;
    await sleepUnlessAborted(POLL_MS, signal);
  }
  try {
    const dirty = await _exists(join(meta, DIRTY));
    await markDirty(meta);
    const record = await readRecord(meta, root);
    if (!record) throw new Error("the standby has no record");
    await Deno.rename(join(meta, TREE), ws);
    return { record, dirty };
  } catch {
    await Deno.remove(meta, { recursive: true }).catch(() => {});
    return undefined;
  }
}

/** Makes `base`'s standby from a copy of `root` (call it holding the maker lock). */
async function _make(root: string, base: string): Promise<void> {
  const making = join(base, MAKING);
  await Deno.remove(making, { recursive: true }).catch(() => {}); // a dead maker's
  try {
    await Deno.mkdir(making, { mode: 0o700 });
    await Deno.mkdir(join(making, TREE), { mode: 0o700 });
    // What came into the tree while cp ran is not in the record: a dirty sync finds it.
    const copied = await copyTree(root, join(making, TREE), making);
    if (!copied) throw new Error("the tree cannot be listed: no standby");
    await syncCopy(root, join(making, TREE), making, copied, { dirty: true });
    await Deno.rename(making, join(base, STANDBY));
  } catch (err) {
    await Deno.remove(making, { recursive: true }).catch(() => {});
    throw err;
  }
}

/**
 * Starts making `root`'s standby in the background when there is none (no-op otherwise); the
 * promise settles when it is ready or failed, and never rejects. When another server (or a task
 * of this one given back) is making it, waits for that one. Requires `--allow-read`,
 * `--allow-write` and `--allow-run` (cp, find).
 */
export function prepareStandby(root: string): Promise<void> {
  const run = async () => {
    const base = await ensureWorkspaceBase(root);
    const until = Date.now() + MAKER_WAIT_MS;
    for (;;) {
      const lock = await tryMakerLock(base);
      if (!lock) {
        if (Date.now() > until) return;
        await sleepUnlessAborted(POLL_MS);
        continue;
      }
      try {
        if (!(await _exists(join(base, STANDBY)))) await _make(root, base);
      } finally {
        lock.close();
      }
      return;
    }
  };
  return run().catch(() => {});
}

/** Syncs the workspace given back in `MAKING` as dirty and makes it the standby; never throws. */
async function _recycle(root: string, base: string, lock: Deno.FsFile): Promise<void> {
  const making = join(base, MAKING);
  try {
    const record = await readRecord(making, root);
    if (!record) throw new Error("the workspace has no record");
    await syncCopy(root, join(making, TREE), making, record, { dirty: true });
    await Deno.remove(join(making, DIRTY));
    await Deno.rename(making, join(base, STANDBY));
  } catch {
    await Deno.remove(making, { recursive: true }).catch(() => {});
  } finally {
    lock.close();
  }
}

/**
 * Gives the workspace `ws` of a task of `root` back as the standby, when there is none and nobody
 * is making one: it is moved aside at once and brought back in step with the tree in the
 * background (a later `prepareStandby` waits for that). False when it was not taken (then the
 * caller removes it).
 */
export async function giveBack(root: string, ws: string): Promise<boolean> {
  const base = dirname(ws), meta = metaPath(ws);
  if (base !== workspaceBase(root) || !(await _exists(join(meta, RECORD)))) return false;
  await ensureWorkspaceBase(root); // in use now
  const lock = await tryMakerLock(base);
  if (!lock) return false;
  let handed = false;
  try {
    if (await _exists(join(base, STANDBY))) return false;
    const making = join(base, MAKING);
    await Deno.remove(making, { recursive: true }).catch(() => {}); // a dead maker's
    await markDirty(meta);
    await Deno.rename(ws, join(meta, TREE));
    await Deno.rename(meta, making);
    handed = true;
    void _recycle(root, base, lock);
    return true;
  } finally {
    if (!handed) lock.close();
  }
}
