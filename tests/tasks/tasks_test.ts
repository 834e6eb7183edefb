import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { withProjectLock } from "../../lib/tasks/lock.ts";
import {
  applyFiles,
  beginTask,
  listTasks,
  readCurrent,
  readManifest,
  readRecord,
  readTask,
  taskPaths,
  updateTask,
  writePatch,
  writeRecord,
} from "../../lib/tasks/mod.ts";
import { sha256Hex as sha256 } from "../../lib/text.ts";
import { tempProject } from "../helpers/project.ts";

const enc = new TextEncoder();

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${text}`);
  return text;
}

Deno.test("tasks beginTask writes the record and backs up every file first", async () => {
  const root = await tempProject({ "calc.py": "def add(a, b):\n    return a - b\n" });
  await Deno.chmod(join(root, "calc.py"), 0o755);
  const { task, manifest, continued } = await beginTask(root, {
    id: "T1",
    spec: "Fix add",
    files: ["calc.py", "./src/new.py"],
    checks: ["tests"],
  });
  assert.equal(continued, false);
  assert.equal(await Deno.readTextFile(join(root, ".localexec/.gitignore")), "*\n");
  const rec = await readRecord(root, "T1");
  assert.equal(rec?.status, "running");
  assert.equal(rec?.pid, Deno.pid);
  assert.equal(rec?.attempts, 0);
  assert.deepEqual(rec?.files, ["calc.py", "src/new.py"]);
  assert.deepEqual(task.checks, ["tests"]);
  assert.deepEqual(manifest.files.map((e) => [e.path, e.existed, e.mode]), [
    ["calc.py", true, 0o755],
    ["src/new.py", false, 0o644],
  ]);
  assert.equal(
    manifest.files[0].sha256,
    await sha256(await Deno.readFile(join(root, "calc.py"))),
  );
  assert.deepEqual(manifest.files[1].new_dirs, ["src"]);
  const copy = join(taskPaths(root, "T1").originals, "calc.py");
  assert.equal(await Deno.readTextFile(copy), "def add(a, b):\n    return a - b\n");
});

Deno.test("tasks beginTask refuses paths outside the root, in .git, or folders", async () => {
  const root = await tempProject({ "d/x.py": "" });
  for (const bad of ["../x.py", ".git/config", ".localexec/T1.json", "d"]) {
    await assert.rejects(() => beginTask(root, { id: "T1", spec: "s", files: [bad] }));
  }
  await assert.rejects(() => beginTask(root, { id: "../T1", spec: "s", files: ["a.py"] }));
});

Deno.test("tasks applyFiles writes atomically, records hashes, refuses other files", async () => {
  const root = await tempProject({ "a.py": "old\n", "other.py": "x\n" });
  await beginTask(root, { id: "T2", spec: "s", files: ["a.py", "b/c.py"] });
  const changed = await applyFiles(
    root,
    "T2",
    new Map([["a.py", "new\n"], ["b/c.py", "created\n"]]),
  );
  assert.deepEqual(changed, ["a.py", "b/c.py"]);
  assert.equal(await Deno.readTextFile(join(root, "b/c.py")), "created\n");
  const rec = await readRecord(root, "T2");
  assert.deepEqual(rec?.written["a.py"], [await sha256(enc.encode("new\n"))]);
  assert.deepEqual(await applyFiles(root, "T2", new Map([["a.py", "new\n"]])), []);
  await assert.rejects(
    () => applyFiles(root, "T2", new Map([["other.py", "y\n"]])),
    /"other\.py" is not one of the task's files \(a\.py, b\/c\.py\)/,
  );
  assert.equal(await Deno.readTextFile(join(root, "other.py")), "x\n");
});

Deno.test("tasks writePatch writes a patch git can apply to the originals", async () => {
  const files = { "calc.py": "def add(a, b):\n    return a - b\n", "keep.txt": "k\n" };
  const root = await tempProject(files);
  await beginTask(root, { id: "T3", spec: "s", files: ["calc.py", "pkg/new.py"] });
  await applyFiles(
    root,
    "T3",
    new Map([
      ["calc.py", "def add(a, b):\n    return a + b\n"],
      ["pkg/new.py", "X = 1\n"],
    ]),
  );
  const summary = await writePatch(root, "T3");
  assert.deepEqual(summary, {
    stat: "+2 -1 in 2 files",
    files: ["calc.py", "pkg/new.py"],
    patch: ".localexec/T3.patch",
  });
  const text = await Deno.readTextFile(taskPaths(root, "T3").patch);
  assert.match(text, /^diff --git a\/calc\.py b\/calc\.py\n--- a\/calc\.py\n\+\+\+ b\/calc\.py\n/);
  assert.match(text, /--- \/dev\/null\n\+\+\+ b\/pkg\/new\.py\n@@ -0,0 \+1,1 @@\n\+X = 1\n/);
  assert.equal((await readRecord(root, "T3"))?.stat, "+2 -1 in 2 files");
  const copy = await tempProject(files);
  await git(copy, "init", "-q");
  await Deno.writeTextFile(join(copy, "t.patch"), text);
  await git(copy, "apply", "t.patch");
  assert.equal(
    await Deno.readTextFile(join(copy, "calc.py")),
    await Deno.readTextFile(join(root, "calc.py")),
  );
  assert.equal(await Deno.readTextFile(join(copy, "pkg/new.py")), "X = 1\n");
});

Deno.test("tasks beginTask continues a task that was not reverted, keeping its backups", async () => {
  const root = await tempProject({ "a.py": "v1\n", "b.py": "b1\n" });
  await beginTask(root, { id: "T4", spec: "first", files: ["a.py"] });
  await applyFiles(root, "T4", new Map([["a.py", "v2\n"]]));
  await updateTask(root, "T4", { status: "failed", attempts: 3 });
  await Deno.writeTextFile(join(root, "b.py"), "b2\n");
  const again = await beginTask(root, { id: "T4", spec: "second", files: ["a.py", "b.py"] });
  assert.equal(again.continued, true);
  assert.equal(again.changesInTree, true);
  assert.equal(again.task.runs, 2);
  assert.equal(again.task.attempts, 0);
  assert.equal(again.task.status, "running");
  assert.equal(again.task.spec, "second");
  const m = await readManifest(root, "T4");
  assert.equal(m?.files[0].sha256, await sha256(enc.encode("v1\n")));
  assert.equal(m?.files[1].sha256, await sha256(enc.encode("b2\n")));
});

Deno.test("tasks updateTask merges fields atomically, also through a function", async () => {
  const root = await tempProject({ "a.py": "" });
  await beginTask(root, { id: "T5", spec: "s", files: ["a.py"] });
  await updateTask(root, "T5", { prompt_tokens: 100, model_secs: 1.5, custom: "kept" });
  const rec = await updateTask(root, "T5", (r) => ({
    prompt_tokens: r.prompt_tokens + 50,
    attempts: r.attempts + 1,
  }));
  assert.equal(rec.prompt_tokens, 150);
  assert.equal(rec.attempts, 1);
  assert.equal(rec.custom, "kept");
  assert.deepEqual(await readRecord(root, "T5"), rec);
  const names = [...Deno.readDirSync(join(root, ".localexec"))].map((e) => e.name);
  assert.ok(!names.some((n) => n.includes("tmp")), names.join(" "));
});

Deno.test("tasks a running record reads as interrupted unless its owner holds the lock", async () => {
  const root = await tempProject({ "a.py": "" });
  await withProjectLock(root, { tool: "implement_task", taskId: "T6" }, async () => {
    await beginTask(root, { id: "T6", spec: "s", files: ["a.py"] });
    assert.equal((await readTask(root, "T6"))?.status, "running");
  });
  assert.equal((await readTask(root, "T6"))?.status, "interrupted");
  assert.equal((await readRecord(root, "T6"))?.status, "running");
});

Deno.test("tasks listTasks is newest first and skips damaged records", async () => {
  const root = await tempProject({ "a.py": "" });
  for (const id of ["A", "B", "C"]) {
    await beginTask(root, { id, spec: id, files: ["a.py"] });
    await updateTask(root, id, { status: "passed" });
    await new Promise((r) => setTimeout(r, 5));
  }
  const rec = (await readRecord(root, "A"))!;
  await writeRecord(root, { ...rec, started: "2000-01-01T00:00:00.000Z" });
  await Deno.writeTextFile(join(root, ".localexec/broken.json"), "{nope");
  assert.deepEqual((await listTasks(root)).map((t) => t.id), ["C", "B", "A"]);
});

Deno.test("tasks listTasks reads the task index, not every record, and drops removed ones", async () => {
  const root = await tempProject({ "a.py": "" });
  for (const id of ["A", "B"]) {
    await beginTask(root, { id, spec: `spec ${id} ${"x".repeat(300)}`, files: ["a.py"] });
    await updateTask(root, id, { status: "passed", attempts: 2 });
  }
  // Were the records read, these would be skipped as damaged.
  await Deno.writeTextFile(join(root, ".localexec/A.json"), "{damaged after it was indexed");
  await Deno.writeTextFile(join(root, ".localexec/B.json"), "{damaged after it was indexed");
  const listed = await listTasks(root);
  assert.deepEqual(listed.map((t) => [t.id, t.status, t.attempts]), [["B", "passed", 2], [
    "A",
    "passed",
    2,
  ]]);
  assert.equal(listed[0].spec.length, 200, "the index keeps the start of the spec");
  await Deno.remove(join(root, ".localexec/A.json"));
  assert.deepEqual((await listTasks(root)).map((t) => t.id), ["B"]);
});

Deno.test("tasks readCurrent reads a file an editor keeps saving by renames", async () => {
  const root = await tempProject({ "a.py": "x\n".repeat(1000) });
  // An editor's atomic saves, as fast as a shell can make them: a new file renamed over a.py.
  const saver = new Deno.Command("sh", {
    args: ["-c", "i=0; while :; do printf 'v%s\\n' $i > .t; mv .t a.py; i=$((i+1)); done"],
    cwd: root,
    stdout: "null",
    stderr: "null",
  }).spawn();
  let failed = 0;
  try {
    for (let i = 0; i < 300; i++) {
      try {
        const bytes = await readCurrent(root, "a.py");
        assert.ok(bytes && bytes.length > 0);
      } catch {
        failed++;
      }
    }
  } finally {
    saver.kill("SIGKILL");
    await saver.status;
  }
  assert.equal(failed, 0, `${failed} of 300 reads failed while the file was replaced`);
});
