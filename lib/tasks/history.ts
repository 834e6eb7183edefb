/**
 * What a task wrote, write by write (docs/ARCHITECTURE.md, "Parallel tasks", "Your edits while a
 * task runs"): each write of a task file is noted in the record's `writes` before it happens
 * (write-ahead), with the hash of what the tree held just before it (`pre`) and of what it wrote
 * (`post`); the contents behind those hashes are kept in the backups' `blobs/` folder. When a write
 * did not start from the task's previous one (`pre` is not the last `post`), someone else changed
 * the file in between, and that change is the user's: undoing the task keeps it.
 *
 * A change someone else made that the task saw and went on from without writing after it (an edit
 * made while its checks ran) is noted the same way, marked `seen`.
 *
 * {@linkcode withoutWrites} works out what a file would hold without the task's writes, for
 * revert_task (every run, from the original) and for a run that ends `blocked` or `error` (its own
 * writes, from what the file held when it began).
 */
import { join } from "../deps.ts";
import { sameBytes, sha256Hex } from "../text.ts";
import { taskPaths } from "./dir.ts";
import { updateTask, type WriteEntry } from "./store.ts";

export type { WriteEntry };

/** The hash of `bytes` as the record keeps it (null for no file). */
export async function hashOf(bytes: Uint8Array | null): Promise<string | null> {
  return bytes === null ? null : await sha256Hex(bytes);
}

function _blobPath(root: string, id: string, hash: string): string {
  return join(taskPaths(root, id).orig, "blobs", hash);
}

/**
 * Keeps `bytes` in the backups of task `id` under its hash (private to the user: 0600) and
 * returns the hash; a blob already kept is not written again.
 */
export async function keepBlob(root: string, id: string, bytes: Uint8Array): Promise<string> {
  const hash = await sha256Hex(bytes);
  const path = _blobPath(root, id, hash);
  if (await Deno.lstat(path).then(() => true, () => false)) return hash;
  await Deno.mkdir(join(taskPaths(root, id).orig, "blobs"), { recursive: true, mode: 0o700 });
  const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  await Deno.writeFile(temp, bytes, { mode: 0o600 });
  await Deno.rename(temp, path);
  return hash;
}

/**
 * Notes in the record of task `id` that it saw `path` change from `pre` (what it last wrote) to
 * `post` (someone else's edit) while it ran, and went on from `post` (call it while the task runs:
 * one writer of its record).
 */
export async function noteSeen(
  root: string,
  id: string,
  o: { path: string; run: number; pre: Uint8Array | null; post: Uint8Array | null },
): Promise<void> {
  if (o.pre !== null) await keepBlob(root, id, o.pre);
  if (o.post !== null) await keepBlob(root, id, o.post);
  const entry: WriteEntry = {
    path: o.path,
    run: o.run,
    pre: await hashOf(o.pre),
    post: await hashOf(o.post),
    seen: true,
  };
  await updateTask(root, id, (r) => ({ writes: [...(r.writes ?? []), entry] }));
}

/** The kept content with hash `hash`, or undefined when it was not kept. */
export async function readBlob(
  root: string,
  id: string,
  hash: string,
): Promise<Uint8Array | undefined> {
  try {
    return await Deno.readFile(_blobPath(root, id, hash));
  } catch {
    return undefined;
  }
}

/** What {@linkcode withoutWrites} found for one file. */
export type Without =
  /** What the file would hold without the task's writes (null: no file). */
  | { target: Uint8Array | null; /** Whether someone else's edits are kept in it. */ kept: boolean }
  /** It cannot be worked out without losing someone's edit: leave the file as it is. */
  | { leave: string };

/** Options for {@linkcode withoutWrites}. */
export interface WithoutOptions {
  /** What the file held before the first of `writes` (the original, or a run's start). */
  start: Uint8Array | null;
  /** The task's writes of this file, oldest first. */
  writes: readonly WriteEntry[];
  /** What the file holds now. */
  now: Uint8Array | null;
  /** The content behind a hash (a kept blob, or `start`'s). */
  blob: (hash: string) => Promise<Uint8Array | undefined>;
}

/**
 * What a file would hold now without the task's `writes`: `start`, with every change someone else
 * made between the task's writes put back on it (three-way merged). The file must hold what one
 * of the task's writes wrote — the last to reach the tree, or an earlier one when a run died
 * before its next write — else it was changed after the task and is left. A change of someone
 * else's that does not merge without the task's lines is left too, with the reason.
 */
export async function withoutWrites(o: WithoutOptions): Promise<Without> {
  const startHash = await hashOf(o.start);
  const nowHash = await hashOf(o.now);
  if (nowHash === startHash) return { target: o.start, kept: false };
  let upto = -1;
  for (let i = o.writes.length - 1; i >= 0; i--) {
    if (o.writes[i].post === nowHash) {
      upto = i;
      break;
    }
  }
  if (upto < 0) return await _neverReached(o, nowHash);
  /** The content behind a hash; undefined when it was not kept. */
  const content = async (hash: string | null) =>
    hash === null ? null : hash === startHash ? o.start : await o.blob(hash);
  let target = o.start;
  let kept = false;
  let prev: { hash: string | null; bytes: Uint8Array | null | undefined } = {
    hash: startHash,
    bytes: o.start,
  };
  /** What `prev` was before the last write: that write may never have reached the tree. */
  let before = prev;
  for (let i = 0; i <= upto; i++) {
    const w = o.writes[i];
    // A write noted ahead that never happened (a run killed, a write given up): the next one
    // starts from what the tree held before it.
    if (w.pre !== prev.hash && i > 0 && w.pre === before.hash) prev = before;
    // Someone else's change between the task's writes (prev → pre), or one the task saw and went
    // on from (pre → post): put back onto the target.
    type Side = { hash: string | null; bytes: Uint8Array | null | undefined };
    const foreign: [Side, string | null][] = [];
    if (w.pre !== prev.hash) foreign.push([prev, w.pre]);
    if (w.seen) foreign.push([{ hash: w.pre, bytes: await content(w.pre) }, w.post]);
    for (const [from, to] of foreign) {
      const after = await content(to);
      if (after === undefined || from.bytes === undefined) {
        return { leave: "edited by someone else while the task ran (its content was not kept)" };
      }
      const { mergeBytes } = await import("./merge/mod.ts"); // the diff library loads when needed
      const merged = await mergeBytes(from.bytes, after, target);
      if (!merged.clean) {
        return {
          leave: "edited by someone else while the task ran, in the lines the task changed",
        };
      }
      target = merged.bytes;
      kept = true;
    }
    before = { hash: w.pre, bytes: w.pre === prev.hash ? prev.bytes : await content(w.pre) };
    prev = { hash: w.post, bytes: await content(w.post) };
  }
  return { target, kept: kept && !sameBytes(target, o.start) };
}

/**
 * The file holds none of the task's writes: when it holds what the tree held right before one of
 * them (that write and the ones after it were noted but never reached the file: a run killed
 * before its rename), it is what it would be without the task up to there; otherwise it was
 * changed after the task.
 */
async function _neverReached(o: WithoutOptions, nowHash: string | null): Promise<Without> {
  let k = -1;
  for (let i = o.writes.length - 1; i >= 0; i--) {
    if (!o.writes[i].seen && o.writes[i].pre === nowHash) {
      k = i;
      break;
    }
  }
  if (k < 0) return { leave: "changed after the task" };
  if (k === 0) return { target: o.now, kept: true }; // the task never changed it
  const last = o.writes[k - 1];
  const writes = [...o.writes.slice(0, k)];
  // What changed the file from the task's last write that reached it to what it holds now.
  if (last.post !== nowHash) writes.push({ ...last, pre: last.post, post: nowHash, seen: true });
  return await withoutWrites({ ...o, writes });
}
