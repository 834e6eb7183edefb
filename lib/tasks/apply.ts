/**
 * Changing a task's files, and writing its patch.
 *
 * Before a file is written, the hash of its new content is added to the task record (and the write
 * to its `writes`, `history.ts`), so revert can tell the task's own writes from later edits by
 * someone else even when the run dies between the record update and the write. The record also names, before they exist, the temporary file of
 * each write, the temporary name of each folder made, and any folder made that the manifest does
 * not list (write-ahead), so a revert after a kill at any instant leaves no trace. Each file is
 * written atomically through a checked handle (`lib/fs_atomic.ts`).
 */
import { ToolError } from "../errors.ts";
import { basename, dirname } from "../deps.ts";
import {
  makeParents,
  removeChecked,
  tempName,
  writeChecked,
  writeFileAtomic,
} from "../fs_atomic.ts";
import { diffFile, type FileDiff, formatStat } from "./patch.ts";
import { resolveForWrite, type SafePath, toRel } from "../paths.ts";
import { type ManifestEntry, readCurrent, readManifest, readOriginal } from "./backup.ts";
import { sameBytes } from "../text.ts";
import { hashOf, keepBlob, readBlob, withoutWrites, type WriteEntry } from "./history.ts";
import { storeRel, taskPaths } from "./dir.ts";
import { readRecord, updateTask } from "./store.ts";

/** New content per project-relative path; null deletes the file. */
export type FileEdits = ReadonlyMap<string, string | Uint8Array | null>;

/** Options for {@linkcode applyFiles}. */
export interface ApplyOptions {
  /**
   * Per path, what the tree must still hold for the write to go ahead (null: no file): what the
   * task last saw of it. Checked when the write is planned and again right before its rename.
   */
  expect?: ReadonlyMap<string, Uint8Array | null>;
}

/**
 * A conditional write found its file changed since the task last saw it (someone else wrote
 * it): nothing more was written. Files written before it in the same call stay written.
 */
export class TreeChangedError extends ToolError {
  constructor(readonly path: string) {
    super(`"${path}" changed while the task ran`);
    this.name = "TreeChangedError";
  }
}

/** One file's write as {@linkcode applyFiles} plans it. */
interface _Planned {
  safe: SafePath;
  rel: string;
  bytes: Uint8Array | null;
  hash: string | null;
  /** What the tree holds now, and its hash. */
  now: Uint8Array | null;
  pre: string | null;
  temp: string;
}

/**
 * Whether the file at `abs` holds `want` now (null: no file); read at once, synchronously, so that
 * a conditional write can ask it right before its rename.
 */
export function holdsNow(abs: string, want: Uint8Array | null): boolean {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(abs);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    return want === null;
  }
  // A link (even to the same bytes), a folder or a FIFO is not the file the task saw.
  if (!info.isFile) return false;
  return sameBytes(Deno.readFileSync(abs), want);
}

/**
 * Writes `edits` into the tree for task `id`. Every path must be one of the task's backed-up
 * files. Unchanged contents are not rewritten. Returns the paths that changed.
 *
 * With `expect`, each write is conditional on the file still holding what the task last saw:
 * otherwise a {@linkcode TreeChangedError} (the caller merges and tries again). Each write is
 * noted first in the record's `writes` (what the tree held, what is written; the contents kept
 * as blobs), so undoing the task later keeps what someone else changed in between; a write given
 * up is taken out of the record again.
 */
export async function applyFiles(
  root: string,
  id: string,
  edits: FileEdits,
  options: ApplyOptions = {},
): Promise<string[]> {
  const record = await readRecord(root, id);
  const manifest = await readManifest(root, id);
  if (!record || !manifest) throw new ToolError(`task "${id}" has not been begun`);
  const plan = await _planWrites(root, manifest.files, edits, options);
  if (!plan.length) return [];
  const noted = await _noteWrites(root, id, record.runs, plan);
  const listed = new Set(manifest.files.flatMap((e) => e.new_dirs ?? []));
  const folderTemps = await _write(root, id, plan, { listed, expect: !!options.expect, noted });
  // Every temporary file and folder is renamed into place (or removed): the record need not name
  // them now.
  const gone = new Set([...plan.map((p) => p.temp), ...folderTemps]);
  await updateTask(root, id, (r) => ({ temps: (r.temps ?? []).filter((t) => !gone.has(t)) }));
  return plan.map((p) => p.rel);
}

/**
 * The writes `edits` need, each path checked to be one of the task's `files`; unchanged contents
 * are left out. With `expect`, a file that no longer holds what the task saw throws.
 */
async function _planWrites(
  root: string,
  files: ManifestEntry[],
  edits: FileEdits,
  options: ApplyOptions,
): Promise<_Planned[]> {
  const enc = new TextEncoder();
  const plan: _Planned[] = [];
  for (const [path, content] of edits) {
    const safe = await resolveForWrite(root, path);
    if (!files.some((e) => e.path === safe.rel)) {
      throw new ToolError(
        `"${safe.rel}" is not one of the task's files (${files.map((e) => e.path).join(", ")})`,
      );
    }
    const bytes = content === null
      ? null
      : typeof content === "string"
      ? enc.encode(content)
      : content;
    const now = await readCurrent(root, safe.rel);
    const expected = options.expect?.get(safe.rel);
    if (expected !== undefined && !sameBytes(now, expected)) throw new TreeChangedError(safe.rel);
    const hash = await hashOf(bytes);
    const pre = await hashOf(now);
    if (pre === hash) continue;
    const folder = toRel(root, dirname(safe.abs));
    const temp = tempName(basename(safe.abs));
    plan.push({
      safe,
      rel: safe.rel,
      bytes,
      hash,
      now,
      pre,
      temp: folder === "." ? temp : `${folder}/${temp}`,
    });
  }
  return plan;
}

/** The record's entries of one call's writes, and where they start in its `writes`. */
interface _Noted {
  entries: WriteEntry[];
  at: number;
}

/**
 * Notes the planned writes in the record before any is made: the contents kept as blobs, then
 * the record naming them (`written`, `writes`, the temporary files).
 */
async function _noteWrites(
  root: string,
  id: string,
  run: number,
  plan: _Planned[],
): Promise<_Noted> {
  // The contents first, then the record naming them: a record never names a blob not kept.
  for (const p of plan) {
    if (p.now !== null) await keepBlob(root, id, p.now);
    if (p.bytes !== null) await keepBlob(root, id, p.bytes);
  }
  const entries = plan.map((p): WriteEntry => ({ path: p.rel, run, pre: p.pre, post: p.hash }));
  let at = 0;
  await updateTask(root, id, (r) => {
    at = r.writes?.length ?? 0;
    const written = { ...r.written };
    for (const p of plan) {
      const seen = written[p.rel] ?? [];
      written[p.rel] = seen.includes(p.hash) ? seen : [...seen, p.hash];
    }
    const temps = plan.filter((p) => p.bytes !== null).map((p) => p.temp);
    return {
      written,
      writes: [...(r.writes ?? []), ...entries],
      temps: [...new Set([...(r.temps ?? []), ...temps])],
    };
  });
  return { entries, at };
}

/**
 * Makes the planned writes in order (each conditional with `expect`); the temporary names of the
 * folders made. On a failure the writes not made come out of the record, and it throws.
 */
async function _write(
  root: string,
  id: string,
  plan: _Planned[],
  o: { listed: Set<string>; expect: boolean; noted: _Noted },
): Promise<string[]> {
  const folderTemps: string[] = [];
  // Before each folder exists, even under its temporary name, the record names both.
  const made = async (dir: string, temp: string) => {
    folderTemps.push(temp);
    await updateTask(root, id, (r) => ({
      temps: [...new Set([...(r.temps ?? []), temp])],
      ...(o.listed.has(dir) ? {} : { made_dirs: [...new Set([...(r.made_dirs ?? []), dir])] }),
    }));
  };
  let done = 0;
  try {
    for (const p of plan) {
      const check = o.expect
        ? () => {
          if (!holdsNow(p.safe.abs, p.now)) throw new TreeChangedError(p.rel);
        }
        : undefined;
      if (p.bytes === null) {
        check?.();
        removeChecked(root, p.rel);
      } else {
        await makeParents(root, p.safe, made);
        await writeChecked(root, p.safe, p.bytes, { temp: basename(p.temp), precondition: check });
      }
      done++;
    }
  } catch (err) {
    // The writes not made come out of the record (a kill here leaves them: undo sees that the
    // tree never held what they name).
    // Only this call's own entries, by their place: an earlier identical write stays noted.
    const { entries, at } = o.noted;
    await updateTask(root, id, (r) => ({
      writes: (r.writes ?? []).filter((w, i) => {
        const mine = entries[i - at];
        const given = i >= at + done && i < at + entries.length;
        return !(given && w.path === mine.path && w.pre === mine.pre && w.post === mine.post);
      }),
    })).catch(() => {});
    throw err;
  }
  return folderTemps;
}

/**
 * The task's diff against its backups, computed from the tree as it is now, or from `from`: a
 * folder holding the task's files (a workspace), or the task's version of some of them (the rest
 * read from the tree).
 */
export async function taskDiff(
  root: string,
  id: string,
  from: string | ReadonlyMap<string, Uint8Array | null> = root,
): Promise<FileDiff[]> {
  const manifest = await readManifest(root, id);
  if (!manifest) return [];
  const writes = from === root ? (await readRecord(root, id))?.writes : undefined;
  const out: FileDiff[] = [];
  for (const entry of manifest.files) {
    const original = await readOriginal(root, id, entry);
    const after = typeof from !== "string" && from.has(entry.path)
      ? from.get(entry.path)!
      : await readCurrent(typeof from === "string" ? from : root, entry.path).catch(() => null);
    const before = writes
      ? await _withoutTask(root, id, { entry, original, after, writes })
      : original;
    if (before === undefined) continue; // a file the task never wrote: nothing of it is the task's
    const d = await diffFile(entry.path, before, after);
    if (d) out.push(d);
  }
  return out;
}

/**
 * What the tree's file would hold without the task (`history.ts`), so that its diff is the task's
 * lines alone when someone else's edits were merged in; undefined for a file the task never wrote;
 * the original when that cannot be worked out.
 */
async function _withoutTask(
  root: string,
  id: string,
  o: {
    entry: ManifestEntry;
    original: Uint8Array | null;
    after: Uint8Array | null;
    writes: readonly WriteEntry[];
  },
): Promise<Uint8Array | null | undefined> {
  const mine = o.writes.filter((w) => w.path === o.entry.path);
  if (!mine.some((w) => !w.seen)) return sameBytes(o.original, o.after) ? o.original : undefined;
  const w = await withoutWrites({
    start: o.original,
    writes: mine,
    now: o.after,
    blob: async (hash) =>
      hash === o.entry.sha256 ? o.original ?? undefined : await readBlob(root, id, hash),
  });
  return "leave" in w ? o.original : w.target;
}

/** What {@linkcode writePatch} wrote. */
export interface PatchSummary {
  /** `+1 -1 in 1 file`. */
  stat: string;
  /** Files the patch changes. */
  files: string[];
  /** `.localexec/<id>.patch`. */
  patch: string;
}

/**
 * Writes `.localexec/<id>.patch`: the task's whole diff against its backups (unified, `a/` and `b/`
 * paths, new files against `/dev/null`), records its stat on the task, and summarises it. With
 * `ours`, the diff is of the task's own version of those files (one that did not land).
 */
export async function writePatch(
  root: string,
  id: string,
  ours?: ReadonlyMap<string, Uint8Array | null>,
): Promise<PatchSummary> {
  if (!(await readRecord(root, id))) throw new ToolError(`no task "${id}"`);
  const diffs = await taskDiff(root, id, ours);
  await writeFileAtomic(taskPaths(root, id).patch, diffs.map((d) => d.text).join(""));
  const stat = formatStat(diffs);
  await updateTask(root, id, { stat });
  return { stat, files: diffs.map((d) => d.path), patch: storeRel(`${id}.patch`) };
}
