/**
 * Sweeping the cache of other projects' copies (docs/DECISIONS.md, "Cheap workspaces"): a starting
 * server removes, under `<cache>/localexec/ws/`, the copies of projects last used more than a day
 * ago whose owner is gone (no live claim in `<that root>/.localexec/claims/`, no live maker of its
 * standby), and project folders left with no copies. A project folder without an `owner` file
 * (made before there was one) is left to its own project's server, which tidies it and writes one.
 *
 * The check and the removal happen under that project's lock, which its claimers take: a task
 * cannot claim and start a workspace in between. The folder is renamed away first (one rename),
 * then removed.
 */
import { join } from "../deps.ts";
import { claimsDir } from "./claims.ts";
import { storeDir } from "./dir.ts";
import { withProjectLock } from "./lock.ts";
import {
  MAKER_LOCK,
  OWNER,
  readOwner,
  tryMakerLock,
  workspaceBase,
  workspacesRoot,
} from "./ws_dir.ts";

/** How long a project's copies are kept after their last use. */
export const KEEP_MS = 24 * 3600_000;
/** Folders a sweep renamed away and did not finish removing start so. */
const GONE = ".gone-";

/** Whether any claim in `root`'s claims folder is held by a live run. */
async function _anyLiveClaim(root: string): Promise<boolean> {
  let names: string[];
  try {
    names = [...Deno.readDirSync(claimsDir(root))].map((e) => e.name);
  } catch {
    return false;
  }
  for (const name of names) {
    const file = await Deno.open(join(claimsDir(root), name), { read: true }).catch(() =>
      undefined
    );
    if (!file) continue;
    try {
      if (!(await file.tryLock(true))) return true;
    } finally {
      file.close();
    }
  }
  return false;
}

/** When the project folder `dir` was last used: the newest mtime of it, its owner file and entries. */
async function _lastUsed(dir: string, names: readonly string[]): Promise<number> {
  let last = 0;
  for (const name of ["", ...names]) {
    const info = await Deno.lstat(join(dir, name)).catch(() => undefined);
    last = Math.max(last, info?.mtime?.getTime() ?? 0);
  }
  return last;
}

/** Sweeps one project folder `dir` of the cache; true when it was removed. */
async function _sweepOne(all: string, name: string, now: number): Promise<boolean> {
  const dir = join(all, name);
  const names = [...Deno.readDirSync(dir)].map((e) => e.name);
  const copies = names.filter((n) => n !== OWNER && n !== MAKER_LOCK);
  const root = await readOwner(dir);
  if (!root) {
    if (names.length) return false;
    await Deno.remove(dir).catch(() => {}); // empty: fails if something came meanwhile
    return true;
  }
  if (copies.length && now - (await _lastUsed(dir, names)) < KEEP_MS) return false;
  const remove = async () => {
    const maker = await tryMakerLock(dir);
    if (!maker) return false; // a live server is making its standby
    try {
      if (await _anyLiveClaim(root)) return false;
      const gone = join(all, `${GONE}${crypto.randomUUID().slice(0, 8)}`);
      await Deno.rename(dir, gone);
      return gone;
    } finally {
      maker.close();
    }
  };
  const hasStore = await Deno.lstat(storeDir(root)).then((i) => i.isDirectory, () => false);
  // Under that project's lock, which its claimers take; a project with no store has no claims.
  const gone = hasStore
    ? await withProjectLock(root, { timeoutS: 1, tool: "cleanup" }, remove)
    : await remove();
  if (!gone) return false;
  await Deno.remove(gone, { recursive: true }).catch(() => {});
  return true;
}

/**
 * Removes the copies of other projects than `root` that were last used more than `KEEP_MS` ago
 * and whose owner is gone, and project folders with no copies left; returns how many project
 * folders were removed. Only ever removes inside `<cache>/localexec/ws/`; never throws.
 */
export async function sweepWorkspaces(root: string, o: { now?: number } = {}): Promise<number> {
  const all = workspacesRoot();
  if (!all) return 0;
  const mine = workspaceBase(root);
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(all)];
  } catch {
    return 0;
  }
  let removed = 0;
  for (const e of entries) {
    const path = join(all, e.name);
    if (!e.isDirectory || path === mine) continue; // links are never followed
    try {
      if (e.name.startsWith(GONE)) await Deno.remove(path, { recursive: true });
      else if (await _sweepOne(all, e.name, o.now ?? Date.now())) removed++;
    } catch {
      // busy, or not ours to read: the next start looks again
    }
  }
  return removed;
}
