/**
 * Behaviour of the task store, claims and workspaces that no other test pinned down (issue 35's
 * survivors, scripts/mutants.json area "tasks"): the delegation record leaves interrupted tasks
 * out and reads a dotfile as no language; the background registry forgets only its oldest
 * reported results past 100; a second run of the same task id waits for the first whatever its
 * files; a dead run's workspace is removed only inside the project's workspace folder; a
 * workspace never copies `.localexec`. Real temp folders throughout.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { RunningTasks } from "../../lib/mcp/mod.ts";
import {
  claimFiles,
  liveClaims,
  makeWorkspace,
  recordRows,
  removeWorkspace,
  taskKind,
  workspaceBase,
  workspacePath,
} from "../../lib/tasks/mod.ts";
import { claimsDir } from "../../lib/tasks/claims.ts";
import { tempProject } from "../helpers/project.ts";

Deno.test("record: an interrupted task is left out of its model's row", () => {
  const done = { model: "m", status: "passed", files: ["a.py"], attempts: 1, secs: 2 };
  const rows = recordRows([done, { ...done, status: "interrupted", attempts: 3 }]);
  assert.deepEqual(rows.map((r) => [r.model, r.kind, r.tasks, r.passed, r.median_attempts]), [
    ["m", "python", 1, 1, 1],
  ]);
});

Deno.test("record: a dotfile has no extension (its kind is other), a dotted name in it has", () => {
  assert.equal(taskKind([".env"]), "other");
  assert.equal(taskKind(["conf/.gitignore"]), "other");
  assert.equal(taskKind([".github/ci.yml", "a.py"]), "python+yaml");
});

Deno.test("running: past 100 reported results the oldest is forgotten, the newer kept", async () => {
  const tasks = new RunningTasks();
  const ids = Array.from({ length: 101 }, (_, i) => `T${i}`);
  for (const id of ids) tasks.start(id, () => Promise.resolve({ status: "passed" }));
  const opts = { ms: 60_000, mode: "all" as const, signal: new AbortController().signal };
  const all = await tasks.wait(undefined, { ...opts, progress() {} });
  assert.equal(all.finished.length, 101, "every result reported once");
  const again = await tasks.wait(["T0", "T1", "T100"], { ...opts, progress() {} });
  assert.deepEqual(again.unknown, ["T0"], "the oldest reported result is forgotten");
  assert.deepEqual(again.finished.map((f) => f.task_id), ["T1", "T100"]);
});

Deno.test("claims: a second run of the same task id waits for the first, files disjoint or not", async () => {
  const root = await tempProject({ "a.py": "A = 0\n", "b.py": "B = 0\n" });
  const workspaceAt = (id: string) => join(root, "ws", id);
  try {
    const first = await claimFiles(root, {
      taskId: "T1",
      files: ["a.py"],
      timeoutS: 60,
      workspaceAt,
    });
    const notes: string[] = [];
    const second = await claimFiles(root, {
      taskId: "T1",
      files: ["b.py"],
      timeoutS: 60,
      workspaceAt,
      onWait(message) {
        notes.push(message);
        if (/^waiting for task T1\b/.test(message)) void first.release();
      },
    });
    assert.deepEqual(notes.filter((n) => n.startsWith("waiting for task")), [
      "waiting for task T1, which edits b.py",
    ]);
    assert.deepEqual([second.waitedFor, second.claim.files, second.claim.mode], [
      ["T1"],
      ["b.py"],
      "tree",
    ]);
    await second.release();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("claims: a dead run's workspace is removed only inside the project's workspace folder", async () => {
  const root = await tempProject({ "a.py": "A = 0\n" });
  const base = workspaceBase(root);
  // A sibling whose name starts like the project's folder (`…-1` beside `…-10`): not its own.
  const sibling = join(`${base}0`, "T9.abcd1234");
  const own = join(base, "T8.abcd1234");
  try {
    for (const ws of [sibling, own]) {
      await Deno.mkdir(ws, { recursive: true });
      await Deno.writeTextFile(join(ws, "a.py"), "A = 0\n");
    }
    await Deno.mkdir(claimsDir(root), { recursive: true });
    const claim = (id: string, workspace: string) =>
      JSON.stringify({
        task_id: id,
        pid: 1,
        files: ["a.py"],
        mode: "workspace",
        workspace,
        since: "",
      });
    // Nobody holds their flock: both claims are stale.
    await Deno.writeTextFile(join(claimsDir(root), "T9.json"), claim("T9", sibling));
    await Deno.writeTextFile(join(claimsDir(root), "T8.json"), claim("T8", own));
    assert.deepEqual(await liveClaims(root), []);
    assert.deepEqual([...Deno.readDirSync(claimsDir(root))], [], "both stale claims removed");
    assert.equal(await Deno.lstat(own).catch(() => undefined), undefined, "its own workspace went");
    assert.ok((await Deno.lstat(join(sibling, "a.py"))).isFile, "the sibling folder is untouched");
  } finally {
    await Deno.remove(`${base}0`, { recursive: true }).catch(() => {});
    await Deno.remove(base, { recursive: true }).catch(() => {});
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("workspace: the copy leaves out .localexec and .git", async () => {
  const root = await tempProject({
    "a.py": "A = 0\n",
    ".localexec/tasks/T1/task.json": "{}\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    "sub/.localexec/kept.txt": "only the top-level store is left out\n",
  });
  const ws = workspacePath(root, "W1");
  try {
    await makeWorkspace(root, { ws, running: [], files: ["a.py"] });
    const names = [...Deno.readDirSync(ws)].map((e) => e.name).sort();
    assert.deepEqual(names, ["a.py", "sub"]);
    assert.ok((await Deno.lstat(join(ws, "sub/.localexec/kept.txt"))).isFile);
  } finally {
    await removeWorkspace(ws);
    await Deno.remove(workspaceBase(root), { recursive: true }).catch(() => {});
    await Deno.remove(root, { recursive: true });
  }
});
