/**
 * Landing like a merge and undoing a run's writes (lib/tasks/land.ts) on real folders: a change
 * lands where the tree still holds its base, is merged onto an edit made meanwhile, and where one
 * file does not merge nothing lands; a write whose file changes under it (the writer stopped right
 * before its rename, in a child process) is tried again from the new version; undo takes out only
 * the given run's writes and keeps others' edits.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "../../lib/deps.ts";
import { PAUSE_VAR } from "../../lib/fs_atomic.ts";
import {
  applyFiles,
  beginTask,
  type Change,
  landChanges,
  readRecord,
  TreeChangedError,
  undoWrites,
} from "../../lib/tasks/mod.ts";
import { processState } from "../helpers/proc.ts";
import { tempProject } from "../helpers/project.ts";

const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));
const CHILD = fileURLToPath(new URL("../fixtures/land_child.ts", import.meta.url));
const enc = new TextEncoder();

const A = "def one():\n    return 0\n\n\ndef two():\n    return 2\n";
/** The task's change of a.py: one() returns 1. */
const A_TASK = A.replace("return 0", "return 1");
const B = "B = 0\n\n\nX = 0\n";
/** The task's change of b.py: its first line. */
const B_TASK = "B = 1\n\n\nX = 0\n";
/** The user's edit of b.py far from the task's line, and one of the task's line. */
const B_USER = B + "# the user's line\n";
const B_CLASH = "B = 'the user'\n\n\nX = 0\n";

/** A project with a.py and b.py, and task `id` begun on both. */
async function lab(id: string) {
  const root = await tempProject({ "a.py": A, "b.py": B });
  await beginTask(root, { id, spec: "s", files: ["a.py", "b.py"] });
  return {
    root,
    read: (rel: string) => Deno.readTextFileSync(join(root, rel)),
    write: (rel: string, text: string) => Deno.writeTextFileSync(join(root, rel), text),
    close: () => Deno.remove(root, { recursive: true }),
  };
}

function change(path: string, base: string | null, ours: string | null): Change {
  return {
    path,
    base: base === null ? null : enc.encode(base),
    ours: ours === null ? null : enc.encode(ours),
  };
}

Deno.test("land writes a change where the tree holds its base, and merges one onto an edit made meanwhile", async () => {
  const l = await lab("L1");
  try {
    l.write("b.py", B_USER);
    const out = await landChanges(l.root, "L1", [
      change("a.py", A, A_TASK),
      change("b.py", B, B_TASK),
    ]);
    assert.ok("landed" in out, JSON.stringify(out));
    assert.deepEqual([out.landed, out.merged], [["a.py", "b.py"], ["b.py"]]);
    assert.equal(l.read("a.py"), A_TASK);
    assert.equal(l.read("b.py"), B_TASK + "# the user's line\n");
    assert.equal(new TextDecoder().decode(out.now.get("b.py")!), l.read("b.py"));
  } finally {
    await l.close();
  }
});

Deno.test("land writes nothing when one file does not merge, and names it", async () => {
  const l = await lab("L2");
  try {
    l.write("b.py", B_CLASH);
    const out = await landChanges(l.root, "L2", [
      change("a.py", A, A_TASK),
      change("b.py", B, B_TASK),
    ]);
    assert.ok("conflicts" in out, JSON.stringify(out));
    assert.deepEqual(out.conflicts.map((c) => c.path), ["b.py"]);
    assert.equal(l.read("a.py"), A, "the file that would merge is not written either");
    assert.equal(l.read("b.py"), B_CLASH);
    assert.deepEqual((await readRecord(l.root, "L2"))?.writes, []);
  } finally {
    await l.close();
  }
});

Deno.test("land never writes nor lists a file the task did not change", async () => {
  const l = await lab("L3");
  try {
    l.write("b.py", B_USER);
    const out = await landChanges(l.root, "L3", [change("a.py", A, A_TASK), change("b.py", B, B)]);
    assert.ok("landed" in out, JSON.stringify(out));
    assert.deepEqual([out.landed, out.merged], [["a.py"], []]);
    assert.equal(l.read("b.py"), B_USER);
  } finally {
    await l.close();
  }
});

Deno.test("land applyFiles with expect refuses a file changed since the task saw it, and notes nothing", async () => {
  const l = await lab("L4");
  try {
    l.write("a.py", A + "# the user's line\n");
    await assert.rejects(
      () =>
        applyFiles(l.root, "L4", new Map([["a.py", A_TASK]]), {
          expect: new Map([["a.py", enc.encode(A)]]),
        }),
      TreeChangedError,
    );
    assert.equal(l.read("a.py"), A + "# the user's line\n");
    const r = await readRecord(l.root, "L4");
    assert.deepEqual([r?.writes, r?.written], [[], {}]);
  } finally {
    await l.close();
  }
});

/**
 * Lands `changes` of task `id` in a child process that stops right before the rename of its
 * `nth` write; `meanwhile` runs then, and the child goes on. Answers the child's outcome.
 */
async function landStopped(
  root: string,
  id: string,
  changes: { path: string; base: string; ours: string }[],
  o: { nth: number; meanwhile: () => void },
): Promise<Record<string, unknown>> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-prompt",
      "--config",
      CONFIG,
      CHILD,
      root,
      id,
      JSON.stringify(changes),
    ],
    env: { [PAUSE_VAR]: `file-temp-made:${o.nth}` },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  let ended = false;
  output.then(() => ended = true, () => ended = true);
  const until = Date.now() + 60_000;
  while (!ended && processState(child.pid) !== "T" && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const stopped = processState(child.pid) === "T";
  if (stopped) o.meanwhile();
  try {
    Deno.kill(child.pid, stopped ? "SIGCONT" : "SIGKILL");
  } catch {
    // ended already
  }
  const out = await output;
  const text = new TextDecoder().decode(out.stdout);
  assert.ok(
    stopped && out.success,
    `the child did not stop, or failed: ${text}${new TextDecoder().decode(out.stderr)}`,
  );
  return JSON.parse(text);
}

Deno.test("land tries a write again from the version someone saved right before its rename", async () => {
  const l = await lab("L5");
  try {
    // Stopped right before b.py's rename (a.py is written): the user saves b.py then.
    const out = await landStopped(l.root, "L5", [
      { path: "a.py", base: A, ours: A_TASK },
      { path: "b.py", base: B, ours: B_TASK },
    ], { nth: 2, meanwhile: () => l.write("b.py", B_USER) });
    assert.deepEqual(out, { landed: ["a.py", "b.py"], merged: ["b.py"] });
    assert.equal(l.read("a.py"), A_TASK);
    assert.equal(l.read("b.py"), B_TASK + "# the user's line\n", "the user's line is kept");
    // The write given up is not in the record: every write noted is one the tree held.
    const writes = (await readRecord(l.root, "L5"))?.writes ?? [];
    assert.deepEqual(writes.map((w) => w.path), ["a.py", "b.py"]);
  } finally {
    await l.close();
  }
});

Deno.test("land puts back what it wrote when a file saved right before its rename then conflicts", async () => {
  const l = await lab("L6");
  try {
    const out = await landStopped(l.root, "L6", [
      { path: "a.py", base: A, ours: A_TASK },
      { path: "b.py", base: B, ours: B_TASK },
    ], { nth: 2, meanwhile: () => l.write("b.py", B_CLASH) });
    assert.deepEqual((out.conflicts as { path: string }[]).map((c) => c.path), ["b.py"]);
    assert.equal(l.read("a.py"), A, "a.py, written by the first try, is put back");
    assert.equal(l.read("b.py"), B_CLASH);
  } finally {
    await l.close();
  }
});

Deno.test("land undoWrites takes out only the given run's writes of a continued task", async () => {
  const root = await tempProject({ "a.py": A });
  try {
    await beginTask(root, { id: "U1", spec: "s", files: ["a.py"] });
    const run1 = A.replace("return 2", "return 20");
    await applyFiles(root, "U1", new Map([["a.py", run1]]));
    const begun = await beginTask(root, { id: "U1", spec: "s", files: ["a.py"] });
    assert.equal(begun.task.runs, 2);
    await applyFiles(root, "U1", new Map([["a.py", run1.replace("return 0", "return 1")]]));
    const out = await undoWrites(root, "U1", {
      start: new Map([["a.py", enc.encode(run1)]]),
      run: 2,
    });
    assert.deepEqual(out, { restored: ["a.py"], kept: [], left: [] });
    assert.equal(Deno.readTextFileSync(join(root, "a.py")), run1, "run 1's change stays");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("land undoWrites leaves a file changed after the task, and says nothing of one it never wrote", async () => {
  const l = await lab("U2");
  try {
    await applyFiles(l.root, "U2", new Map([["a.py", A_TASK]]));
    l.write("a.py", A_TASK + "# the user's line\n");
    l.write("b.py", B_USER); // a file of the task's that it never wrote
    const out = await undoWrites(l.root, "U2", {
      start: new Map([["a.py", enc.encode(A)], ["b.py", enc.encode(B)]]),
      run: 1,
    });
    assert.deepEqual(out, {
      restored: [],
      kept: [],
      left: [{ path: "a.py", reason: "changed after the task" }],
    });
    assert.equal(l.read("a.py"), A_TASK + "# the user's line\n");
    assert.equal(l.read("b.py"), B_USER);
  } finally {
    await l.close();
  }
});

Deno.test("land: a write given up at its rename leaves an identical earlier write noted", async () => {
  const l = await lab("D1");
  try {
    // Attempt 1 writes A→A_TASK, attempt 2 puts A back, attempt 3 writes A→A_TASK again and is
    // given up at its rename: the user saved a.py then.
    await applyFiles(l.root, "D1", new Map([["a.py", A_TASK]]));
    await applyFiles(l.root, "D1", new Map([["a.py", A]]));
    const user = A + "# the user's line\n";
    const out = await landStopped(l.root, "D1", [{ path: "a.py", base: A, ours: A_TASK }], {
      nth: 1,
      meanwhile: () => l.write("a.py", user),
    });
    assert.deepEqual(out, { landed: ["a.py"], merged: ["a.py"] });
    const writes = (await readRecord(l.root, "D1"))?.writes ?? [];
    assert.equal(writes.length, 3, "the first write, the put-back and the merge stay noted");
    const { revertTask } = await import("../../lib/tasks/mod.ts");
    const r = await revertTask(l.root, "D1");
    assert.equal(r.status, "reverted", JSON.stringify(r));
    assert.equal(l.read("a.py"), user, "revert takes the task's line out and keeps the user's");
  } finally {
    await l.close();
  }
});

Deno.test("land: a file made a folder or a link meanwhile is a conflict, and a link is never taken for the file", async () => {
  const l = await lab("D2");
  try {
    Deno.removeSync(join(l.root, "a.py"));
    Deno.mkdirSync(join(l.root, "a.py"));
    const folder = await landChanges(l.root, "D2", [change("a.py", A, A_TASK)]);
    assert.deepEqual(
      "conflicts" in folder ? folder.conflicts : folder,
      [{ path: "a.py", reason: "it is no longer a regular file" }],
    );
    // b.py swapped for a link to a file holding what the task saw: the link is not b.py.
    l.write("elsewhere.txt", B);
    Deno.removeSync(join(l.root, "b.py"));
    Deno.symlinkSync(join(l.root, "elsewhere.txt"), join(l.root, "b.py"));
    const link = await landChanges(l.root, "D2", [change("b.py", B, B_TASK)]);
    assert.ok("conflicts" in link, JSON.stringify(link));
    assert.ok(Deno.lstatSync(join(l.root, "b.py")).isSymlink, "the link is left as it is");
    assert.equal(l.read("elsewhere.txt"), B);
  } finally {
    await l.close();
  }
});
