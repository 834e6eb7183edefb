/**
 * withoutWrites (lib/tasks/history.ts): what a file would hold without a task's writes, with what
 * someone else changed between them kept. Each case is a record's `writes` as applyFiles and the
 * place note them, with the contents in a map standing for the backups' blobs.
 */
import assert from "node:assert/strict";
import {
  beginTask,
  hashOf,
  noteSeen,
  readBlob,
  readRecord,
  withoutWrites,
  type WriteEntry,
} from "../../lib/tasks/mod.ts";
import { tempProject } from "../helpers/project.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A file of the given lines. */
function lines(...xs: string[]): string {
  return xs.map((x) => `${x}\n`).join("");
}

/** Contents by hash, as the backups keep them, and the hashes of texts. */
function blobs() {
  const kept = new Map<string, Uint8Array>();
  const hash = async (text: string | null) => {
    if (text === null) return null;
    const bytes = enc.encode(text);
    const h = (await hashOf(bytes))!;
    kept.set(h, bytes);
    return h;
  };
  /** One write of `path` from `pre` to `post` (texts) in run `run`. */
  const write = async (pre: string | null, post: string | null, o: { seen?: true } = {}) =>
    ({ path: "a.py", run: 1, pre: await hash(pre), post: await hash(post), ...o }) as WriteEntry;
  /** withoutWrites of `writes` from `start` with the tree holding `now`; the target as text. */
  const without = async (start: string, writes: WriteEntry[], now: string) => {
    const w = await withoutWrites({
      start: enc.encode(start),
      writes,
      now: enc.encode(now),
      blob: (h) => Promise.resolve(kept.get(h)),
    });
    return "leave" in w ? w : { text: w.target && dec.decode(w.target), kept: w.kept };
  };
  return { write, without };
}

const ORIG = lines("a", "b", "c", "d", "e", "f", "g");
/** The task's first write: line 1. */
const T0 = lines("A", "b", "c", "d", "e", "f", "g");
/** The user's line at the end, made on the task's first write. */
const U = T0 + "u\n";

Deno.test("history keeps an edit made between the task's writes, and takes out every write", async () => {
  const b = blobs();
  // The task writes line 1, the user appends, the task writes line 5 onto that.
  const T1 = lines("A", "b", "c", "d", "E", "f", "g", "u");
  const writes = [await b.write(ORIG, T0), await b.write(U, T1)];
  assert.deepEqual(await b.without(ORIG, writes, T1), { text: ORIG + "u\n", kept: true });
});

Deno.test("history takes out a lone write over someone's earlier edit, keeping that edit", async () => {
  const b = blobs();
  // The user appended before the task's only write (the task merged onto it).
  const before = ORIG + "u\n";
  const T = lines("A", "b", "c", "d", "e", "f", "g", "u");
  assert.deepEqual(await b.without(ORIG, [await b.write(before, T)], T), {
    text: before,
    kept: true,
  });
});

Deno.test("history keeps an edit the task saw and went on from (seen)", async () => {
  const b = blobs();
  // The task writes; the user appends while its checks run; the task goes on from that.
  const writes = [await b.write(ORIG, T0), await b.write(T0, U, { seen: true })];
  assert.deepEqual(await b.without(ORIG, writes, U), { text: ORIG + "u\n", kept: true });
});

Deno.test("history passes over a write noted but never made", async () => {
  const b = blobs();
  // The task writes line 1; the user appends; a write of line 1 again is noted but never made
  // (the run was killed); the next run writes line 5 from what the tree held.
  const never = lines("AA", "b", "c", "d", "e", "f", "g", "u");
  const T2 = lines("A", "b", "c", "d", "E", "f", "g", "u");
  const writes = [await b.write(ORIG, T0), await b.write(U, never), await b.write(U, T2)];
  assert.deepEqual(await b.without(ORIG, writes, T2), { text: ORIG + "u\n", kept: true });
});

Deno.test("history leaves a file changed after the task, and one whose edit is in the task's lines", async () => {
  const b = blobs();
  const writes = [await b.write(ORIG, T0)];
  assert.deepEqual(await b.without(ORIG, writes, T0 + "later\n"), {
    leave: "changed after the task",
  });
  // The user rewrote the task's line; the task then wrote line 5.
  const theirs = lines("user", "b", "c", "d", "e", "f", "g");
  const T1 = lines("user", "b", "c", "d", "E", "f", "g");
  const clash = [await b.write(ORIG, T0), await b.write(theirs, T1)];
  assert.deepEqual(await b.without(ORIG, clash, T1), {
    leave: "edited by someone else while the task ran, in the lines the task changed",
  });
});

Deno.test("history noteSeen keeps both contents and notes the edit as seen", async () => {
  const root = await tempProject({ "a.py": T0 });
  try {
    const { task } = await beginTask(root, { id: "H1", spec: "s", files: ["a.py"] });
    await noteSeen(root, "H1", {
      path: "a.py",
      run: task.runs,
      pre: enc.encode(T0),
      post: enc.encode(U),
    });
    const r = await readRecord(root, "H1");
    const pre = (await hashOf(enc.encode(T0)))!;
    const post = (await hashOf(enc.encode(U)))!;
    assert.deepEqual(r?.writes, [{ path: "a.py", run: 1, pre, post, seen: true }]);
    assert.equal(dec.decode((await readBlob(root, "H1", pre))!), T0);
    assert.equal(dec.decode((await readBlob(root, "H1", post))!), U);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("history: writes noted but never made leave the file as it would be without them", async () => {
  const b = blobs();
  // The user edited, then the task's first write was noted and its run killed before the rename.
  const user = ORIG + "u\n";
  assert.deepEqual(await b.without(ORIG, [await b.write(user, T0 + "u\n")], user), {
    text: user,
    kept: true,
  });
  // The task wrote line 1; the user appended; its next write was noted, never made.
  const never = [
    await b.write(ORIG, T0),
    await b.write(U, lines("A", "b", "c", "D", "e", "f", "g", "u")),
  ];
  assert.deepEqual(await b.without(ORIG, never, U), { text: ORIG + "u\n", kept: true });
  // A file changed after the task, holding no state the task saw, is still left.
  const after = await b.without(ORIG, [await b.write(ORIG, T0)], T0 + "later\n");
  assert.deepEqual(after, { leave: "changed after the task" });
});
