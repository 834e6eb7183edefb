/**
 * revert_task and the edits someone else made while the task ran (docs/ARCHITECTURE.md, "Your
 * edits while a task runs"): revert takes the task's lines out and keeps theirs, leaves a file
 * whose edit is in the task's lines (saying so), and never reverts a task a live run holds.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import {
  applyFiles,
  beginTask,
  claimFiles,
  readRecord,
  revertTask,
  TaskRunningError,
  workspacePath,
} from "../../lib/tasks/mod.ts";
import { tempProject } from "../helpers/project.ts";

/** A file of the given lines. */
function lines(...xs: string[]): string {
  return xs.map((x) => `${x}\n`).join("");
}

const ORIG = lines("a", "b", "c", "d", "e", "f", "g");
/** The task's first write: line 1. */
const T0 = lines("A", "b", "c", "d", "e", "f", "g");

Deno.test("revert takes out the task's writes and keeps an edit made between them", async () => {
  const root = await tempProject({ "a.py": ORIG });
  try {
    const read = () => Deno.readTextFileSync(join(root, "a.py"));
    await beginTask(root, { id: "K1", spec: "s", files: ["a.py"] });
    await applyFiles(root, "K1", new Map([["a.py", T0]]));
    Deno.writeTextFileSync(join(root, "a.py"), T0 + "u\n"); // the user's line
    await applyFiles(
      root,
      "K1",
      new Map([["a.py", lines("A", "b", "c", "d", "E", "f", "g", "u")]]),
    );
    const out = await revertTask(root, "K1");
    assert.deepEqual([out.status, out.restore, out.kept, out.skipped], [
      "reverted",
      ["a.py"],
      ["a.py"],
      undefined,
    ]);
    assert.match(
      String(out.note),
      /kept the edits made by someone else while the task ran in a\.py/,
    );
    assert.equal(read(), ORIG + "u\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("revert leaves a file whose edit made meanwhile is in the task's lines, and says why", async () => {
  const root = await tempProject({ "a.py": ORIG });
  try {
    const read = () => Deno.readTextFileSync(join(root, "a.py"));
    await beginTask(root, { id: "K2", spec: "s", files: ["a.py"] });
    await applyFiles(root, "K2", new Map([["a.py", T0]]));
    // The user rewrites the task's line; the task then writes line 5 onto that.
    Deno.writeTextFileSync(join(root, "a.py"), lines("user", "b", "c", "d", "e", "f", "g"));
    const last = lines("user", "b", "c", "d", "E", "f", "g");
    await applyFiles(root, "K2", new Map([["a.py", last]]));
    const out = await revertTask(root, "K2");
    assert.deepEqual([out.status, out.restore, out.skipped], ["reverted", [], ["a.py"]]);
    assert.match(
      String(out.note),
      /a\.py was edited by someone else while the task ran, in the lines the task changed/,
    );
    assert.equal(read(), last, "the user's line is not lost");
    assert.equal((await readRecord(root, "K2"))?.reverted_at, undefined);
    // force restores the original, as it says.
    const forced = await revertTask(root, "K2", { force: true });
    assert.deepEqual([forced.status, forced.restore], ["reverted", ["a.py"]]);
    assert.equal(read(), ORIG);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("revert refuses a task whose claim a live run holds, and reverts it once released", async () => {
  const root = await tempProject({ "a.py": ORIG });
  try {
    await beginTask(root, { id: "K3", spec: "s", files: ["a.py"] });
    await applyFiles(root, "K3", new Map([["a.py", T0]]));
    const claim = await claimFiles(root, {
      taskId: "K3",
      files: ["a.py"],
      timeoutS: 10,
      workspaceAt: (id) => workspacePath(root, id),
    });
    try {
      await assert.rejects(() => revertTask(root, "K3"), TaskRunningError);
      assert.equal(Deno.readTextFileSync(join(root, "a.py")), T0);
    } finally {
      await claim.release();
    }
    assert.equal((await revertTask(root, "K3")).status, "reverted");
    assert.equal(Deno.readTextFileSync(join(root, "a.py")), ORIG);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("revert: force restores only the files revert would leave; a kept edit stays kept", async () => {
  const root = await tempProject({ "a.py": ORIG, "b.py": ORIG });
  try {
    const read = (f: string) => Deno.readTextFileSync(join(root, f));
    await beginTask(root, { id: "F3", spec: "s", files: ["a.py", "b.py"] });
    await applyFiles(root, "F3", new Map([["a.py", T0], ["b.py", T0]]));
    Deno.writeTextFileSync(join(root, "a.py"), T0 + "u\n"); // while the task ran…
    await applyFiles(
      root,
      "F3",
      new Map([["a.py", lines("A", "b", "c", "d", "E", "f", "g", "u")]]),
    );
    Deno.writeTextFileSync(join(root, "b.py"), T0 + "later\n"); // …and after it
    const first = await revertTask(root, "F3");
    assert.deepEqual([first.kept, first.skipped], [["a.py"], ["b.py"]]);
    assert.equal(read("a.py"), ORIG + "u\n");
    const forced = await revertTask(root, "F3", { force: true });
    assert.equal(forced.status, "reverted", JSON.stringify(forced));
    assert.equal(read("b.py"), ORIG, "force restored the file revert left");
    assert.equal(read("a.py"), ORIG + "u\n", "the edit kept by the first revert stays");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("revert: a file the task never wrote is nothing to revert, whatever it holds", async () => {
  const root = await tempProject({ "a.py": ORIG });
  try {
    await beginTask(root, { id: "F4", spec: "s", files: ["a.py", "new.py"] });
    // A conflict wrote nothing; the user changed a.py and made new.py meanwhile.
    Deno.writeTextFileSync(join(root, "a.py"), ORIG + "mine\n");
    Deno.writeTextFileSync(join(root, "new.py"), "mine\n");
    const out = await revertTask(root, "F4");
    assert.deepEqual(
      [out.status, out.restore, out.remove, out.skipped, out.note],
      ["reverted", [], [], undefined, undefined],
    );
    assert.ok((await readRecord(root, "F4"))?.reverted_at, "marked reverted");
    assert.equal(Deno.readTextFileSync(join(root, "a.py")), ORIG + "mine\n");
    assert.equal(Deno.readTextFileSync(join(root, "new.py")), "mine\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("revert: a file already as it would be without the task is reverted, not partial", async () => {
  const root = await tempProject({ "a.py": ORIG });
  try {
    await beginTask(root, { id: "F5", spec: "s", files: ["a.py"] });
    await applyFiles(root, "F5", new Map([["a.py", T0]]));
    Deno.writeTextFileSync(join(root, "a.py"), lines("A", "b", "c", "D", "e", "f", "g"));
    // The task's next attempt puts its line back, from the user's version.
    await applyFiles(root, "F5", new Map([["a.py", lines("a", "b", "c", "D", "e", "f", "g")]]));
    const out = await revertTask(root, "F5");
    assert.equal(out.status, "reverted", JSON.stringify(out));
    assert.equal(out.left, undefined);
    assert.ok((await readRecord(root, "F5"))?.reverted_at, "marked reverted");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
