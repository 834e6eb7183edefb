/**
 * What servers on one project ask of each other's tasks (lib/tasks/requests.ts), and the record a
 * task has before it begins (`provisionalRecord`), on real folders.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import {
  askToCancel,
  beginTask,
  cancelAsked,
  clearCancel,
  holdPending,
  pendingAlive,
  provisionalRecord,
  readRecord,
  readTask,
  storeDir,
  taskPaths,
} from "../../lib/tasks/mod.ts";
import { tempProject } from "../helpers/project.ts";

Deno.test("requests a request to stop a task stands for a minute, then is stale and taken back", async () => {
  const root = await tempProject({ "a.py": "A = 0\n" });
  try {
    assert.equal(await cancelAsked(root, "T1"), false);
    await askToCancel(root, "T1");
    assert.equal(await cancelAsked(root, "T1"), true);
    assert.equal(await cancelAsked(root, "T2"), false, "only the task asked");
    await clearCancel(root, "T1");
    assert.equal(await cancelAsked(root, "T1"), false);
    // One left by an asker that died two minutes ago.
    await askToCancel(root, "T1");
    const path = join(storeDir(root), "requests", "T1.cancel");
    const old = new Date(Date.now() - 120_000);
    await Deno.utime(path, old, old);
    assert.equal(await cancelAsked(root, "T1"), false);
    await assert.rejects(() => Deno.lstat(path), Deno.errors.NotFound);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("requests a pending file reads alive while held, and dead once released or left", async () => {
  const root = await tempProject({ "a.py": "A = 0\n" });
  try {
    assert.equal(await pendingAlive(root, "P1"), false);
    const pending = await holdPending(root, "P1");
    assert.equal(await pendingAlive(root, "P1"), true);
    await pending.release();
    assert.equal(await pendingAlive(root, "P1"), false);
    // A pending file nobody holds (its server died) is dead.
    Deno.writeTextFileSync(join(storeDir(root), "requests", "P2.pending"), "");
    assert.equal(await pendingAlive(root, "P2"), false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("requests a provisional record reads running while its pending file is held, interrupted after", async () => {
  const root = await tempProject({ "a.py": "A = 0\n" });
  try {
    const pending = await holdPending(root, "P3");
    assert.equal(await provisionalRecord(root, { id: "P3", spec: "s", files: ["a.py"] }), true);
    const r = await readRecord(root, "P3");
    assert.deepEqual([r?.status, r?.provisional, r?.runs, r?.files], [
      "running",
      true,
      0,
      ["a.py"],
    ]);
    assert.equal((await readTask(root, "P3"))?.status, "running");
    await pending.release();
    assert.equal((await readTask(root, "P3"))?.status, "interrupted");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("requests provisionalRecord never replaces a record, and beginTask starts a provisional task afresh", async () => {
  const root = await tempProject({ "a.py": "A = 0\n" });
  try {
    assert.equal(await provisionalRecord(root, { id: "P4", spec: "s", files: ["a.py"] }), true);
    assert.equal(await provisionalRecord(root, { id: "P4", spec: "s", files: ["a.py"] }), false);
    const begun = await beginTask(root, { id: "P4", spec: "s", files: ["a.py"] });
    assert.deepEqual([begun.continued, begun.task.runs, begun.task.provisional], [
      false,
      1,
      undefined,
    ]);
    const log = Deno.readTextFileSync(taskPaths(root, "P4").log);
    assert.doesNotMatch(log, /continued|started over/);
    // The begun record stays as it is when the same id is accepted again.
    const before = Deno.readTextFileSync(taskPaths(root, "P4").record);
    assert.equal(await provisionalRecord(root, { id: "P4", spec: "s2", files: ["a.py"] }), false);
    assert.equal(Deno.readTextFileSync(taskPaths(root, "P4").record), before);
    const again = await beginTask(root, { id: "P4", spec: "s", files: ["a.py"] });
    assert.deepEqual([again.continued, again.task.runs], [true, 2]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
