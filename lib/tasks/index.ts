/**
 * The task index, `.localexec/tasks.idx`: one JSON line per record write, holding the record
 * without its `written` hashes, its `writes` and its per-attempt `history`, and with its spec cut, so listing
 * thousands of tasks (and `status.record`) reads one file instead of one per task. The last line of an id wins. Writers (who hold the project lock)
 * append; when the file has grown to twice its size after the last compaction, it is rewritten
 * with one line per task. The first line is a header: `{"compacted":<bytes>}`.
 *
 * Records are the truth: an id whose record is gone is dropped, and one the index does not name
 * (written by an older localexec) is read from its record.
 */
import { join } from "../deps.ts";
import { writeFileAtomic } from "../fs_atomic.ts";
import { storeDir } from "./dir.ts";

/** The index file's name in the store. */
export const INDEX_NAME = "tasks.idx";

/** Characters of the spec kept in the index (list_tasks shows 48). */
const SPEC_CHARS = 200;

/** Smallest size before a compaction is considered. */
const MIN_COMPACT_BYTES = 64 * 1024;

/** A record as stored in the index. */
export type IndexEntry = Record<string, unknown> & { id: string };

function _path(root: string): string {
  return join(storeDir(root), INDEX_NAME);
}

/** What the index keeps of `record`: no hashes, no per-attempt history, the spec cut. */
export function indexEntry(record: IndexEntry): IndexEntry {
  const { written: _w, writes: _ws, history: _h, spec, ...rest } = record;
  const text = typeof spec === "string" ? spec : "";
  return {
    ...rest,
    spec: text.length > SPEC_CHARS ? text.slice(0, SPEC_CHARS) : text,
    written: {},
  };
}

/** The index's entries by id (the last line of each id); empty when there is no index. */
export async function readIndex(root: string): Promise<Map<string, IndexEntry>> {
  const out = new Map<string, IndexEntry>();
  let text: string;
  try {
    text = await Deno.readTextFile(_path(root));
  } catch {
    return out;
  }
  for (const line of text.split("\n")) {
    if (!line.startsWith('{"id":')) continue;
    try {
      const entry = JSON.parse(line) as IndexEntry;
      if (typeof entry.id === "string") out.set(entry.id, entry);
    } catch {
      // a line cut by a crash: that record is read from its file instead
    }
  }
  return out;
}

/**
 * Appends `record` to the index (call it while holding the project lock, after the record was
 * written), compacting the index when it has doubled since the last compaction.
 */
export async function appendIndex(root: string, record: IndexEntry): Promise<void> {
  const path = _path(root);
  const { id, ...rest } = indexEntry(record);
  const line = JSON.stringify({ id, ...rest }) + "\n";
  await Deno.writeTextFile(path, line, { append: true, create: true });
  const size = (await Deno.stat(path)).size;
  if (size < MIN_COMPACT_BYTES) return;
  if (size < 2 * await _compactedSize(path)) return;
  const entries = await readIndex(root);
  const body = [...entries.values()].map((e) => JSON.stringify(e)).join("\n") + "\n";
  const header = JSON.stringify({ compacted: new TextEncoder().encode(body).length }) + "\n";
  await writeFileAtomic(path, header + body);
}

async function _compactedSize(path: string): Promise<number> {
  using file = await Deno.open(path);
  const head = new Uint8Array(64);
  const n = (await file.read(head)) ?? 0;
  const m = /^\{"compacted":(\d+)\}/.exec(new TextDecoder().decode(head.subarray(0, n)));
  return m ? Number(m[1]) : 0;
}
