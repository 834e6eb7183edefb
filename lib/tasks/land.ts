/**
 * Writes that never lose an edit the task did not see (docs/ARCHITECTURE.md, "Your edits while a
 * task runs"): a task's change lands in the tree only where the tree still holds what the task's
 * version was made from; where someone else changed the file meanwhile, the task's change is
 * merged onto theirs as git merges (three-way, `merge/`), and where it does not merge nothing of
 * the task is written and the files are named. Undoing a run's writes keeps what someone else
 * changed in between the same way (`history.ts`). Every write is conditional up to its rename
 * (`applyFiles` with `expect`), and tried again when the file changes under it.
 */
import { PathError, ToolError } from "../errors.ts";
import { sameBytes } from "../text.ts";
import { applyFiles, TreeChangedError } from "./apply.ts";
import { readCurrent, readManifest, readOriginal } from "./backup.ts";
import { readBlob, withoutWrites } from "./history.ts";
import { readRecord } from "./store.ts";

/** How often a write whose file keeps changing under it is tried again. */
const TRIES = 5;

/** One task file to land: what the task's version was made from, and the task's version. */
export interface Change {
  path: string;
  /** What the tree held when the task read the file (null: no file). */
  base: Uint8Array | null;
  /** The task's version (null: the task removes the file). */
  ours: Uint8Array | null;
}

/** A file that does not merge. */
export interface Conflict {
  path: string;
  /** One short sentence: which lines both sides changed, or why no merge is possible. */
  reason: string;
}

/** What {@linkcode landChanges} did. */
export type LandOutcome =
  | {
    /** Files written. */
    landed: string[];
    /** Of those, the ones whose content is the task's change merged onto someone else's. */
    merged: string[];
    /** What each changed file of the task holds in the tree now. */
    now: Map<string, Uint8Array | null>;
  }
  | { conflicts: Conflict[] };

/** What the tree should get for one change, given what it holds now. */
async function _target(
  c: Change,
  now: Uint8Array | null,
): Promise<{ bytes: Uint8Array | null; merged: boolean } | Conflict> {
  if (sameBytes(now, c.ours) || sameBytes(now, c.base)) return { bytes: c.ours, merged: false };
  const { mergeBytes } = await import("./merge/mod.ts"); // the diff library loads when needed
  const m = await mergeBytes(c.base, c.ours, now);
  return m.clean ? { bytes: m.bytes, merged: true } : { path: c.path, reason: m.reason };
}

/**
 * Lands the `changes` of task `id` in the tree (see the module's doc). A file the task did not
 * change (`ours` equal to `base`) is never written. When any file does not merge, nothing is
 * written — what an earlier try of this call wrote is put back where nobody changed it since —
 * and the conflicts are answered.
 */
export async function landChanges(
  root: string,
  id: string,
  changes: readonly Change[],
): Promise<LandOutcome> {
  const mine = changes.filter((c) => !sameBytes(c.base, c.ours));
  const wrote = new Map<string, { pre: Uint8Array | null; post: Uint8Array | null }>();
  for (let attempt = 1;; attempt++) {
    const edits = new Map<string, Uint8Array | null>();
    const expect = new Map<string, Uint8Array | null>();
    const conflicts: Conflict[] = [];
    // A file written by an earlier try merges again to what it holds (both sides made the change).
    const merged = new Set<string>();
    for (const c of mine) {
      let now: Uint8Array | null;
      try {
        now = await readCurrent(root, c.path);
      } catch (err) {
        // Made a folder, a link or a FIFO meanwhile: not a file the task's change can go into.
        if (!(err instanceof ToolError) && !(err instanceof PathError)) throw err;
        conflicts.push({ path: c.path, reason: "it is no longer a regular file" });
        continue;
      }
      const t = await _target(c, now);
      if ("reason" in t) {
        conflicts.push(t);
        continue;
      }
      if (t.merged) merged.add(c.path);
      if (!sameBytes(now, t.bytes)) {
        edits.set(c.path, t.bytes);
        expect.set(c.path, now);
      }
    }
    if (conflicts.length) {
      await _putBack(root, id, wrote);
      return { conflicts };
    }
    try {
      for (const path of edits.keys()) {
        const pre = wrote.get(path)?.pre ?? expect.get(path)!;
        wrote.set(path, { pre, post: edits.get(path)! });
      }
      await applyFiles(root, id, edits, { expect });
      const now = new Map<string, Uint8Array | null>();
      for (const c of mine) now.set(c.path, await readCurrent(root, c.path));
      return { landed: mine.map((c) => c.path), merged: [...merged], now };
    } catch (err) {
      if (!(err instanceof TreeChangedError)) throw err;
      // Files written before the one that changed stay written: the next try sees them as ours.
      for (const path of [...edits.keys()]) {
        const w = wrote.get(path)!;
        if (!sameBytes(await readCurrent(root, path), w.post)) wrote.delete(path);
      }
      if (attempt >= TRIES) {
        await _putBack(root, id, wrote);
        return {
          conflicts: [{ path: err.path, reason: "it kept changing while the task tried to land" }],
        };
      }
    }
  }
}

/** Puts back what {@linkcode landChanges} wrote, where the tree still holds it. */
async function _putBack(
  root: string,
  id: string,
  wrote: Map<string, { pre: Uint8Array | null; post: Uint8Array | null }>,
): Promise<void> {
  for (const [path, w] of wrote) {
    await applyFiles(root, id, new Map([[path, w.pre]]), { expect: new Map([[path, w.post]]) })
      .catch(() => {}); // changed again since: it is someone else's now
  }
}

/** What {@linkcode undoWrites} did. */
export interface UndoOutcome {
  /** Files put back (where someone else's edits were kept, `kept` names them too). */
  restored: string[];
  /** Files put back with someone else's edits made while the task ran kept in them. */
  kept: string[];
  /** Files left as they are, with the reason (changed by someone else in a way undo would lose). */
  left: { path: string; reason: string }[];
}

/** Options for {@linkcode undoWrites}. */
export interface UndoOptions {
  /** The files to undo and what each held before the writes undone (null: no file). */
  start: ReadonlyMap<string, Uint8Array | null>;
  /** Undo only the writes of this run of the task (default: every run). */
  run?: number;
}

/**
 * Undoes the writes of task `id` to the files of `o.start` (see `history.ts`'s
 * {@linkcode withoutWrites}): each file goes back to what it held at the start, with what someone
 * else changed meanwhile kept; a file whose edits would be lost is left and named.
 */
export async function undoWrites(root: string, id: string, o: UndoOptions): Promise<UndoOutcome> {
  const out: UndoOutcome = { restored: [], kept: [], left: [] };
  const manifest = await readManifest(root, id);
  const originals = new Map<string, Uint8Array | null>();
  for (const e of manifest?.files ?? []) {
    if (e.sha256) originals.set(e.sha256, await readOriginal(root, id, e));
  }
  for (const [path, start] of o.start) {
    for (let attempt = 1;; attempt++) {
      const record = await readRecord(root, id);
      const writes = (record?.writes ?? []).filter((w) =>
        w.path === path && (o.run === undefined || w.run === o.run)
      );
      const now = await readCurrent(root, path);
      const w = await withoutWrites({
        start,
        writes,
        now,
        blob: async (hash) => originals.get(hash) ?? await readBlob(root, id, hash),
      });
      if ("leave" in w) {
        // A file the task never wrote (in this run) is not the task's to undo: say nothing.
        if (writes.length) out.left.push({ path, reason: w.leave });
        break;
      }
      if (sameBytes(now, w.target)) break;
      try {
        await applyFiles(root, id, new Map([[path, w.target]]), { expect: new Map([[path, now]]) });
        out.restored.push(path);
        if (w.kept) out.kept.push(path);
        break;
      } catch (err) {
        if (!(err instanceof TreeChangedError)) throw err;
        if (attempt >= TRIES) {
          out.left.push({ path, reason: "it kept changing while the task put it back" });
          break;
        }
      }
    }
  }
  return out;
}
