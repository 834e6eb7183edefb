/**
 * A kept git listing made good again after some of its folders changed, without listing anew.
 *
 * A warm search that reads a chunk whose folder's modification time changed answers stale, and
 * find used to list the whole tree again (59k-file tree: 2.0–2.4 s for the next search of a word,
 * against 0.8–1.1 s for a full scan on the kept listing), losing what the listing had learnt (its
 * sketches, the files each pattern matched in). Most such changes leave the set of files as it
 * was: a file written in place by a rename (an editor's save, localexec's own writes) changes its
 * folder's time and nothing else. So, with git's index unchanged (the tracked files are the
 * same), the folders whose times changed are looked at: the untracked files directly in each, as
 * git lists them now (`untrackedIn`), must be the listing's own, and every folder in each must be
 * one the listing watches already, or ignored whole (`git check-ignore`). Then their new times
 * are kept, and the search runs again on the same listing. Anything else (a file added, removed
 * or renamed, an ignore file changed, a folder gone or changed within {@linkcode RACY_MS}, more
 * than {@linkcode MAX_CHANGED_FOLDERS} changed, git failing) lists again, as before.
 */
import { PROTECTED_NAMES } from "../paths.ts";
import { ignoredFolders, untrackedIn } from "./list.ts";
import { PathNames } from "./packed.ts";
import { RACY_MS } from "./protocol.ts";
import type { Kept } from "./warm.ts";
import { yielding } from "./walk.ts";

/** More folders changed than this: the listing is made again. */
export const MAX_CHANGED_FOLDERS = 64;

/** Folders looked at between two chances for the event loop to run. */
const CHECK_SLICE = 2048;

/** One check whose modification time changed: its index, path and new time. */
interface Changed {
  k: number;
  path: string;
  mtime: number;
}

/**
 * The checks of `names` whose modification times differ from `mtimes` (those never looked at,
 * NaN, are left to their first look); undefined when one is not a folder any more (gone, or a
 * file: an ignore file) or more than {@linkcode MAX_CHANGED_FOLDERS} changed.
 */
function* _changed(names: PathNames, mtimes: Float64Array): Generator<void, Changed[] | undefined> {
  const out: Changed[] = [];
  for (let k = 0; k < names.length; k++) {
    if (k % CHECK_SLICE === CHECK_SLICE - 1) yield;
    if (Number.isNaN(mtimes[k])) continue;
    const path = names.at(k);
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(path);
    } catch {
      return undefined;
    }
    const mtime = info.mtime?.getTime() ?? 0;
    if (mtime === mtimes[k]) continue;
    if (!info.isDirectory || out.length === MAX_CHANGED_FOLDERS) return undefined;
    out.push({ k, path, mtime });
  }
  return out;
}

/** Whether `folder` (relative to `root`) is in a repository inside the one at `root`, or is one. */
function _nested(root: string, folder: string): boolean {
  for (let end = folder.length; end > 0; end = folder.lastIndexOf("/", end - 1)) {
    try {
      Deno.lstatSync(`${root}/${folder.slice(0, end)}/.git`);
      return true;
    } catch {
      // not a repository's top folder
    }
  }
  return false;
}

/**
 * Makes the git listing `kept` of `root` good again where only folders' times changed and its
 * files did not (see the module comment); true when it did, and the search may run again on it.
 */
export async function refreshKept(
  root: string,
  kept: Kept,
  signal?: AbortSignal,
): Promise<boolean> {
  const { listing, untracked } = kept;
  if (!untracked) return false; // (a walk's listing: its ignore rules are find's own)
  const started = Date.now();
  const checks = new PathNames(listing.checks);
  const mtimes = new Float64Array(listing.mtimes);
  const changed = await yielding(_changed(checks, mtimes));
  if (!changed?.length) return false;
  const folders: string[] = [];
  for (const { path, mtime } of changed) {
    // Changed just now: it may change again within the same tick of its clock.
    if (mtime >= started - RACY_MS) return false;
    if (path === root) folders.push("");
    else if (path.startsWith(`${root}/`)) folders.push(path.slice(root.length + 1));
    else return false;
  }
  // In a repository inside this one (a clone, a submodule), its own git lists the files.
  if (folders.some((folder) => _nested(root, folder))) return false;
  // Every folder in a changed one: watched already, or ignored whole (what is made there is too).
  const watched = new Set(checks.all());
  const unknown: string[] = [];
  for (const folder of folders) {
    try {
      for (const entry of Deno.readDirSync(folder ? `${root}/${folder}` : root)) {
        const path = folder ? `${folder}/${entry.name}` : entry.name;
        if (!entry.isDirectory || PROTECTED_NAMES.has(entry.name)) continue;
        if (!watched.has(`${root}/${path}`)) unknown.push(path);
      }
    } catch {
      return false;
    }
  }
  if (unknown.length) {
    const ignored = await ignoredFolders(root, unknown, signal);
    if (!ignored || unknown.some((dir) => !ignored.has(dir))) return false;
  }
  // The untracked files directly in the changed folders: git's now, and the listing's.
  const now = await untrackedIn(root, folders, signal);
  if (!now) return false;
  const inFolders = new Set(folders);
  const had: string[] = [];
  for (const i of untracked) {
    const path = listing.names.at(i);
    const slash = path.lastIndexOf("/");
    if (inFolders.has(slash < 0 ? "" : path.slice(0, slash))) had.push(path);
  }
  had.sort();
  if (now.length !== had.length || now.some((path, j) => path !== had[j])) return false;
  for (const { k, mtime } of changed) mtimes[k] = mtime;
  return true;
}
