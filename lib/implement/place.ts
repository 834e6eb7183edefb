/**
 * Where a task works (docs/ARCHITECTURE.md, "Parallel tasks" and "Your edits while a task runs"):
 * in the user's tree, when it runs alone, or in a workspace, beside other tasks. One interface,
 * two implementations, so the loop, the landing and the verdict never ask which.
 *
 * The rule both keep: the task never writes over an edit it did not see. In the tree, each attempt's
 * write is conditional on the file still holding what the attempt's prompt showed, and merged
 * (three-way) onto the user's version otherwise; in a workspace nothing reaches the tree before the
 * landing, which merges the same way (`lib/tasks/land.ts`). Putting the files back (`blocked`,
 * `error`, the next rung) keeps what someone else changed meanwhile.
 */
import {
  type Change,
  type Conflict,
  landChanges,
  noteSeen,
  readCurrent,
  undoWrites,
  writeWork,
} from "../tasks/mod.ts";
import { removeChecked } from "../fs_atomic.ts";
import { sameBytes } from "../text.ts";
import { lookAt, type Snapshot, snapshot } from "./files.ts";

/** What writing an attempt's edits did. */
export type WriteOutcome =
  /** Written; `merged` names the files where the edits were merged onto someone else's. */
  | { merged: string[] }
  /** Someone else changed a file meanwhile and the edits do not merge with it: nothing written. */
  | { conflicts: Conflict[] };

/** What putting the files back did. */
export interface UndoOutcome {
  /** Files put back with what someone else changed meanwhile kept in them. */
  kept: string[];
  /** Files left as they are (someone else's edit would be lost), with the reason. */
  left: { path: string; reason: string }[];
}

/** Where a task edits its files and runs its checks. */
export interface Place {
  /** `tree`: the user's tree; `workspace`: a copy, landed at the end. */
  readonly kind: "tree" | "workspace";
  /** How it was made: the task's files, and what they held when this call began. */
  readonly o: PlaceOptions;
  /** The folder the checks run in. */
  readonly work: string;
  /** Settles once `work` is ready (a workspace is made while the model writes). */
  readonly ready: Promise<void>;
  /** The task's files as the next prompt shows them. */
  read(): Promise<Snapshot>;
  /** Writes an attempt's `edits`, made from `from` (what `read` gave that attempt). */
  write(edits: ReadonlyMap<string, Uint8Array | null>, from: Snapshot): Promise<WriteOutcome>;
  /**
   * Files someone else changed since the task last read or wrote them, taken as seen now (and
   * noted, so that undoing the task keeps those edits).
   */
  changedMeanwhile(): Promise<string[]>;
  /** Puts the task's files back as this call found them, keeping others' edits. */
  undo(): Promise<UndoOutcome>;
  /** Whether the task's files hold what this call found (in `work`). */
  unchanged(): Promise<boolean>;
  /** What landing the task writes: its changed files, and what each was made from. */
  changes(): Promise<Change[]>;
  /** Notes what the tree holds after a landing (the files now derive from it). */
  landed(now: ReadonlyMap<string, Uint8Array | null>): Promise<void>;
}

/** Options shared by both places. */
export interface PlaceOptions {
  root: string;
  /** The task's id and its files (project-relative). */
  id: string;
  files: readonly string[];
  /** What the task's files held when this call began, and folders then missing above new ones. */
  start: { files: Snapshot; dirs: readonly string[] };
  /** The record's run number of this call. */
  run: number;
}

/** The user's tree: a task running alone edits it in place. */
export class TreePlace implements Place {
  readonly kind = "tree";
  readonly work: string;
  readonly ready: Promise<void> = Promise.resolve();
  /** What the task last saw of each file (read for a prompt, or written). */
  #seen: Snapshot;

  constructor(readonly o: PlaceOptions) {
    this.work = o.root;
    this.#seen = new Map(o.start.files);
  }

  async read(): Promise<Snapshot> {
    // An edit made since the task's last look is noted before the next prompt is built on it.
    await this.changedMeanwhile();
    return new Map(this.#seen);
  }

  async write(
    edits: ReadonlyMap<string, Uint8Array | null>,
    from: Snapshot,
  ): Promise<WriteOutcome> {
    const changes = [...edits].map(([path, ours]) => ({ path, base: from.get(path)!, ours }));
    const out = await landChanges(this.o.root, this.o.id, changes);
    if ("conflicts" in out) return out;
    for (const [path, bytes] of out.now) this.#seen.set(path, bytes);
    return { merged: out.merged };
  }

  async changedMeanwhile(): Promise<string[]> {
    const { root, id, run, files } = this.o;
    // A file that is no longer a regular file is not looked at: writing it is a conflict.
    const now = await lookAt(root, files);
    const changed = [...now.keys()].filter((f) =>
      !sameBytes(now.get(f)!, this.#seen.get(f) ?? null)
    );
    // The task goes on from the user's version: undoing it later must keep that edit.
    for (const path of changed) {
      const pre = this.#seen.get(path) ?? null;
      await noteSeen(root, id, { path, run, pre, post: now.get(path)! });
    }
    for (const [path, bytes] of now) this.#seen.set(path, bytes);
    return changed;
  }

  async undo(): Promise<UndoOutcome> {
    const { root, id, start, run } = this.o;
    await this.changedMeanwhile(); // what someone else changed since is theirs: kept
    const out = await undoWrites(root, id, { start: start.files, run });
    // Folders made for new files go too, when nothing else was put in them.
    for (const dir of [...start.dirs].reverse()) {
      try {
        removeChecked(root, dir, true); // only when empty; never through a swapped link
      } catch {
        // not empty, or no longer a folder of ours
      }
    }
    this.#seen = await lookAt(root, this.o.files);
    return { kept: out.kept, left: out.left };
  }

  async unchanged(): Promise<boolean> {
    const now = await lookAt(this.o.root, this.o.files);
    return now.size === this.o.files.length && _same(now, this.o.start.files);
  }

  changes(): Promise<Change[]> {
    return Promise.resolve([]); // every write went to the tree already
  }

  landed(): Promise<void> {
    return Promise.resolve();
  }
}

/** A workspace: a copy of the tree where a task beside others edits and checks, landed at its end. */
export class WorkspacePlace implements Place {
  readonly kind = "workspace";
  /** What the tree held of each file when the task's version was made from it. */
  #base?: Snapshot;
  #wrote = false;

  constructor(readonly o: PlaceOptions, readonly work: string, readonly ready: Promise<void>) {}

  async read(): Promise<Snapshot> {
    if (this.#wrote) return await snapshot(this.work, this.o.files);
    // Until its first write the task reads the tree: its files there are nobody's but the user's.
    const now = await snapshot(this.o.root, this.o.files);
    this.#base = new Map(now);
    return now;
  }

  async write(
    edits: ReadonlyMap<string, Uint8Array | null>,
    from: Snapshot,
  ): Promise<WriteOutcome> {
    await this.ready;
    if (!this.#wrote) {
      // The workspace's copy of a file may be older or newer than what the prompt showed: it gets
      // exactly the task's version, every file of it.
      this.#base ??= new Map(from);
      await writeWork(this.work, new Map([...from, ...edits]));
      this.#wrote = true;
    } else await writeWork(this.work, edits);
    return { merged: [] };
  }

  changedMeanwhile(): Promise<string[]> {
    return Promise.resolve([]); // nobody else writes a workspace
  }

  async undo(): Promise<UndoOutcome> {
    await this.ready;
    if (this.#wrote && this.#base) await writeWork(this.work, this.#base);
    return { kept: [], left: [] };
  }

  async unchanged(): Promise<boolean> {
    if (!this.#wrote || !this.#base) return true;
    await this.ready;
    return _same(await snapshot(this.work, this.o.files), this.#base);
  }

  async changes(): Promise<Change[]> {
    if (!this.#wrote || !this.#base) return [];
    await this.ready;
    const ours = await snapshot(this.work, this.o.files);
    return this.o.files.map((path) => ({
      path,
      base: this.#base!.get(path) ?? null,
      ours: ours.get(path) ?? null,
    }));
  }

  async landed(now: ReadonlyMap<string, Uint8Array | null>): Promise<void> {
    // A merge put someone else's edit in: the workspace takes it, and the task's version now
    // derives from what the tree holds.
    await writeWork(this.work, now);
    for (const [path, bytes] of now) this.#base?.set(path, bytes);
  }
}

function _same(a: Snapshot, b: Snapshot): boolean {
  for (const [path, bytes] of b) if (!sameBytes(a.get(path) ?? null, bytes)) return false;
  return true;
}

/** What the tree holds of `files` now (for a verdict's patch when nothing landed). */
export async function treeNow(root: string, files: readonly string[]): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const f of files) out.set(f, await readCurrent(root, f));
  return out;
}
