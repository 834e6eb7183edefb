import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "../../lib/deps.ts";
import { PAUSE_VAR } from "../../lib/fs_atomic.ts";
import {
  applyFiles,
  beginTask,
  noteTemps,
  readRecord,
  removeStaleTemps,
  revertTask,
  updateTask,
  writePatch,
} from "../../lib/tasks/mod.ts";
import { sha256Hex as sha256 } from "../../lib/text.ts";
import revertTool from "../../tools/revert_task.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { processState } from "../helpers/proc.ts";
import { callJson, tempProject, testContext } from "../helpers/project.ts";

const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));
const CRASH = fileURLToPath(new URL("../fixtures/crash_child.ts", import.meta.url));
const BINARY = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256);

async function snapshot(root: string, paths: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const p of paths) {
    const info = await Deno.lstat(join(root, p)).catch(() => undefined);
    out[p] = info
      ? `${(info.mode ?? 0) & 0o777}:${await sha256(await Deno.readFile(join(root, p)))}`
      : "absent";
  }
  return out;
}

Deno.test("revert restores originals byte for byte with modes and removes created files", async () => {
  const root = await tempProject({ "a.py": "print(1)\n", "bin.dat": BINARY, "other.txt": "o\n" });
  await Deno.chmod(join(root, "bin.dat"), 0o751);
  const paths = ["a.py", "bin.dat", "new/deep/c.py", "other.txt"];
  const before = await snapshot(root, paths);
  await beginTask(root, { id: "R1", spec: "s", files: ["a.py", "bin.dat", "new/deep/c.py"] });
  await applyFiles(
    root,
    "R1",
    new Map<string, string | null>([["a.py", "print(2)\n"], ["bin.dat", null], [
      "new/deep/c.py",
      "x\n",
    ]]),
  );
  await Deno.chmod(join(root, "a.py"), 0o600);
  await Deno.writeTextFile(join(root, "other.txt"), "changed outside the task\n");
  const out = await revertTask(root, "R1");
  assert.deepEqual(out, {
    status: "reverted",
    restore: ["a.py", "bin.dat"],
    remove: ["new/deep/c.py"],
  });
  const after = await snapshot(root, paths);
  assert.deepEqual({ ...after, "other.txt": "" }, { ...before, "other.txt": "" });
  assert.equal(await Deno.readTextFile(join(root, "other.txt")), "changed outside the task\n");
  await assert.rejects(() => Deno.lstat(join(root, "new")));
  assert.ok((await readRecord(root, "R1"))?.reverted_at);
  const again = await revertTask(root, "R1");
  assert.equal(again.status, "already_reverted");
});

Deno.test("revert skips files changed after the task unless forced", async () => {
  const root = await tempProject({ "a.py": "orig\n", "b.py": "b\n" });
  await beginTask(root, { id: "R2", spec: "s", files: ["a.py", "b.py"] });
  await applyFiles(root, "R2", new Map([["a.py", "task\n"], ["b.py", "task b\n"]]));
  await Deno.writeTextFile(join(root, "a.py"), "user edit\n");
  const dry = await revertTask(root, "R2", { dryRun: true });
  assert.equal(dry.status, "dry_run");
  assert.deepEqual([dry.restore, dry.remove, dry.skipped], [["b.py"], [], ["a.py"]]);
  assert.equal(await Deno.readTextFile(join(root, "b.py")), "task b\n");
  const out = await revertTask(root, "R2");
  assert.deepEqual([out.status, out.restore, out.skipped], ["reverted", ["b.py"], ["a.py"]]);
  assert.match(String(out.note), /changed after the task.*force/);
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "user edit\n");
  assert.equal(await Deno.readTextFile(join(root, "b.py")), "b\n");
  assert.equal((await readRecord(root, "R2"))?.reverted_at, undefined);
  const forced = await revertTask(root, "R2", { force: true });
  assert.deepEqual([forced.status, forced.restore, forced.skipped], [
    "reverted",
    ["a.py"],
    undefined,
  ]);
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "orig\n");
});

Deno.test("revert accepts a content the task recorded but never wrote (killed mid-write)", async () => {
  const root = await tempProject({ "a.py": "orig\n" });
  await beginTask(root, { id: "R3", spec: "s", files: ["a.py"] });
  await updateTask(root, "R3", {
    written: { "a.py": [await sha256(new TextEncoder().encode("half\n"))] },
  });
  await Deno.writeTextFile(join(root, "a.py"), "half\n");
  const out = await revertTask(root, "R3");
  assert.deepEqual([out.restore, out.skipped], [["a.py"], undefined]);
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "orig\n");
});

Deno.test("revert_task tool answers unknown ids with recent ones and keeps results short", async () => {
  const root = await tempProject({ "a.py": "1\n" });
  const ctx = testContext(root);
  const none = await callJson(revertTool, { task_id: "nope" }, ctx);
  assert.equal(none.status, "error");
  assert.match(String(none.error), /no task "nope"; no tasks are recorded/);
  await beginTask(root, { id: "K1", spec: "s", files: ["a.py"] });
  await applyFiles(root, "K1", new Map([["a.py", "2\n"]]));
  await writePatch(root, "K1");
  const bad = await callJson(revertTool, { task_id: "../../etc" }, ctx);
  assert.match(String(bad.error), /no task "\.\.\/\.\.\/etc"; recent tasks: K1/);
  const dry = await callJson(revertTool, { task_id: "K1", dry_run: true }, ctx);
  assert.deepEqual(dry, { status: "dry_run", restore: ["a.py"], remove: [] });
  const done = await callJson(revertTool, { task_id: "K1" }, ctx);
  assert.deepEqual(done, { status: "reverted", restore: ["a.py"], remove: [] });
  const again = await callJson(revertTool, { task_id: "K1" }, ctx);
  assert.equal(again.status, "already_reverted");
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "1\n");
});

Deno.test("revert restores every file after a run killed with SIGKILL half way", async () => {
  const root = await tempProject({
    "a.py": "def f():\n    return 1\n",
    "b.bin": BINARY,
    "untouched.txt": "u\n",
  });
  await Deno.chmod(join(root, "b.bin"), 0o755);
  const paths = ["a.py", "b.bin", "pkg/c.py", "untouched.txt"];
  const before = await snapshot(root, paths);
  const proc = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-prompt",
      "--config",
      CONFIG,
      CRASH,
      root,
      "CRASH1",
      "a.py,b.bin,pkg/c.py",
      "a.py,pkg/c.py",
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("ready\n")) {
    const r = await reader.read();
    if (r.done) break;
    text += r.value;
  }
  proc.kill("SIGKILL");
  await proc.status;
  await reader.cancel();
  assert.equal(text, "ready\n");
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "edited by CRASH1\n");
  assert.equal(await Deno.readTextFile(join(root, "pkg/c.py")), "edited by CRASH1\n");

  const conn = await connect(root);
  try {
    const list = await callMcp(conn.client, "list_tasks", {});
    assert.equal(list.total, 1);
    assert.match(
      (list.tasks as string[])[0],
      /^CRASH1 interrupted 1 attempt a\.py, b\.bin \+1 — Crash/,
    );
    const out = await callMcp(conn.client, "revert_task", { task_id: "CRASH1" });
    assert.deepEqual(out, {
      status: "reverted",
      restore: ["a.py"],
      remove: ["pkg/c.py"],
    });
    assert.deepEqual(await snapshot(root, paths), before);
    await assert.rejects(() => Deno.lstat(join(root, "pkg")));
    const listed = await callMcp(conn.client, "list_tasks", {});
    assert.match((listed.tasks as string[])[0], /^CRASH1 interrupted \[reverted\]/);
  } finally {
    await conn.close();
  }
});

/** A run killed between creating a temporary file and renaming it, as its record shows. */
async function _killedMidWrite(root: string, id: string): Promise<string> {
  await beginTask(root, { id, spec: "s", files: ["a.py", "newdir/deeper/new.py"] });
  await applyFiles(root, id, new Map([["a.py", "task\n"]]));
  const temp = "newdir/deeper/.new.py.0123abcd.localexec-tmp";
  // What applyFiles does for new.py before the kill: record the temporary file, make the folders,
  // create the temporary file.
  await updateTask(root, id, (r) => ({ temps: [...(r.temps ?? []), temp] }));
  await Deno.mkdir(join(root, "newdir/deeper"), { recursive: true });
  await Deno.writeTextFile(join(root, temp), "new content\n");
  return temp;
}

Deno.test("revert after a kill mid-write removes the temporary file and the task's folders", async () => {
  const root = await tempProject({ "a.py": "orig\n" });
  await _killedMidWrite(root, "K1");
  const out = await revertTask(root, "K1");
  assert.deepEqual([out.status, out.restore, out.left], ["reverted", ["a.py"], undefined]);
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "orig\n");
  await assert.rejects(() => Deno.lstat(join(root, "newdir")), Deno.errors.NotFound);
});

Deno.test("revert after a kill mid-mkdir removes the folder under its temporary name, and counts it", async () => {
  const root = await tempProject({ "a.py": "orig\n" });
  await beginTask(root, { id: "K4", spec: "s", files: ["a.py", "newdir/new.py"] });
  await applyFiles(root, "K4", new Map([["a.py", "task\n"]]));
  // What applyFiles does for new.py before the kill: record the folder's temporary name, make it.
  const temp = ".newdir.0123abcd.localexec-tmp";
  await noteTemps(root, "K4", [temp]);
  await Deno.mkdir(join(root, temp));
  await Deno.writeTextFile(join(root, temp, "mine.txt"), "someone else's\n");
  const held = await revertTask(root, "K4");
  assert.deepEqual([held.status, held.left], ["partial", [temp]]);
  await Deno.remove(join(root, temp, "mine.txt"));
  const out = await revertTask(root, "K4");
  assert.deepEqual([out.status, out.left], ["reverted", undefined]);
  assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), [".localexec", "a.py"]);
});

Deno.test("revert answers partial, not reverted, when a folder the task made holds new files", async () => {
  const root = await tempProject({ "a.py": "orig\n" });
  await _killedMidWrite(root, "K2");
  await Deno.writeTextFile(join(root, "newdir/mine.txt"), "someone else's\n");
  const out = await revertTask(root, "K2");
  assert.equal(out.status, "partial");
  assert.deepEqual(out.left, ["newdir"]);
  assert.match(String(out.note), /still not as before the task/);
  assert.equal((await readRecord(root, "K2"))?.reverted_at, undefined, "it can be reverted again");
  await Deno.remove(join(root, "newdir/mine.txt"));
  assert.equal((await revertTask(root, "K2")).status, "reverted");
});

Deno.test("revert with force says a file behind a link out is not written, without asking for force", async () => {
  const root = await tempProject({ "a.py": "orig\n" });
  const outside = await Deno.makeTempDir();
  await beginTask(root, { id: "K3", spec: "s", files: ["a.py"] });
  await applyFiles(root, "K3", new Map([["a.py", "task\n"]]));
  await Deno.remove(join(root, "a.py"));
  await Deno.symlink(join(outside, "x.py"), join(root, "a.py"));
  const out = await revertTask(root, "K3", { force: true });
  assert.deepEqual(out.skipped, ["a.py"]);
  assert.doesNotMatch(String(out.note), /pass force/);
  assert.match(String(out.note), /a\.py now leads through a link out of the project/);
  await assert.rejects(() => Deno.lstat(join(outside, "x.py")), Deno.errors.NotFound);
  await Deno.remove(outside, { recursive: true });
});

Deno.test("removeStaleTemps removes the temporary files a dead run named", async () => {
  const root = await tempProject({ "a.py": "orig\n" });
  const temp = await _killedMidWrite(root, "K4");
  await updateTask(root, "K4", { pid: 999_999_999 }); // a run whose owner is gone
  assert.equal(await removeStaleTemps(root), 1);
  await assert.rejects(() => Deno.lstat(join(root, temp)), Deno.errors.NotFound);
  assert.equal(await removeStaleTemps(root), 0);
  assert.equal((await revertTask(root, "K4")).status, "reverted");
});

Deno.test({
  name: "a revert killed while it remakes a folder leaves nothing the next revert misses",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const root = await tempProject({ "sub/a.py": "orig\n" });
    await beginTask(root, { id: "R1", spec: "s", files: ["sub/a.py"] });
    await applyFiles(root, "R1", new Map([["sub/a.py", "task\n"]]));
    await Deno.remove(join(root, "sub"), { recursive: true }); // revert must remake sub/
    // The server stops itself right after making sub/ under its temporary name (before renaming
    // it), and is killed there.
    const conn = await connect(root, { env: { [PAUSE_VAR]: "folder-temp-made" } });
    const pid = conn.transport.pid!;
    callMcp(conn.client, "revert_task", { task_id: "R1", force: true }).catch(() => {});
    const until = Date.now() + 60_000;
    while (processState(pid) !== "T" && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const stopped = processState(pid) === "T";
    Deno.kill(pid, "SIGKILL");
    await conn.close().catch(() => {});
    assert.ok(stopped, "the server did not stop at folder-temp-made");
    const temps = [...Deno.readDirSync(root)].map((e) => e.name).filter((n) =>
      n.endsWith(".localexec-tmp")
    );
    assert.equal(temps.length, 1, "sub/ exists under its temporary name at the kill");
    const out = await revertTask(root, "R1", { force: true });
    assert.deepEqual([out.status, out.restore, out.left], ["reverted", ["sub/a.py"], undefined]);
    assert.equal(await Deno.readTextFile(join(root, "sub/a.py")), "orig\n");
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), [".localexec", "sub"]);
  },
});

Deno.test("a reverted task id starts over: its new backups hold the hand edit made after the revert", async () => {
  const root = await tempProject({ "a.py": "orig\n" });
  await beginTask(root, { id: "S1", spec: "s", files: ["a.py"] });
  await applyFiles(root, "S1", new Map([["a.py", "task\n"]]));
  const { patch } = await writePatch(root, "S1");
  assert.equal((await revertTask(root, "S1")).status, "reverted");
  await Deno.writeTextFile(join(root, "a.py"), "hand edit\n");
  const again = await beginTask(root, { id: "S1", spec: "s again", files: ["a.py"] });
  assert.equal(again.continued, false);
  // The reverted run's patch goes too: it no longer describes anything in the tree.
  await assert.rejects(() => Deno.lstat(join(root, patch)), Deno.errors.NotFound);
  await applyFiles(root, "S1", new Map([["a.py", "task again\n"]]));
  // Forced, so that old backups (were they kept) would be written over the hand edit.
  const out = await revertTask(root, "S1", { force: true });
  assert.deepEqual([out.status, out.restore], ["reverted", ["a.py"]]);
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "hand edit\n");
});

Deno.test("a folder the task makes that its backups do not list is recorded and reverted", async () => {
  // "a" existed when the task began (so the backup lists only "a/b" as new) and was removed
  // before the edit: the task makes both, records "a" as made, and revert removes both.
  const root = await tempProject({ "a/keep.txt": "k\n" });
  await beginTask(root, { id: "M1", spec: "s", files: ["a/b/c.py"] });
  await Deno.remove(join(root, "a"), { recursive: true });
  await applyFiles(root, "M1", new Map([["a/b/c.py", "new\n"]]));
  assert.deepEqual((await readRecord(root, "M1"))?.made_dirs, ["a"]);
  const out = await revertTask(root, "M1");
  assert.deepEqual([out.status, out.remove, out.left], ["reverted", ["a/b/c.py"], undefined]);
  await assert.rejects(() => Deno.lstat(join(root, "a")), Deno.errors.NotFound);
});

Deno.test("revert of a record from before writes were noted: its own contents by hash, hand edits skipped", async () => {
  const root = await tempProject({ "a.py": "orig\n", "b.py": "orig b\n" });
  await beginTask(root, { id: "OLD1", spec: "s", files: ["a.py", "b.py"] });
  await applyFiles(root, "OLD1", new Map([["a.py", "task\n"], ["b.py", "task b\n"]]));
  // What an older localexec wrote: `written` hashes and no `writes`.
  await updateTask(root, "OLD1", { writes: undefined });
  assert.equal((await readRecord(root, "OLD1"))?.writes, undefined);
  await Deno.writeTextFile(join(root, "b.py"), "a hand edit\n");
  const out = await revertTask(root, "OLD1");
  assert.deepEqual([out.restore, out.skipped], [["a.py"], ["b.py"]]);
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "orig\n");
  assert.equal(await Deno.readTextFile(join(root, "b.py")), "a hand edit\n");
});
