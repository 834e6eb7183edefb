/**
 * Where a task works (lib/implement/place.ts), in the tree: each attempt's write lands like a
 * merge, an edit made while the checks run is taken in once and noted as seen, and putting the
 * files back keeps it. On a real folder with a begun task, no server.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { snapshot } from "../../lib/implement/files.ts";
import { TreePlace } from "../../lib/implement/place.ts";
import { beginTask, readRecord } from "../../lib/tasks/mod.ts";
import { tempProject } from "../helpers/project.ts";

const enc = new TextEncoder();
const A = "def one():\n    return 0\n\n\ndef two():\n    return 2\n";
const A_TASK = A.replace("return 0", "return 1");
const USER = "# the user's line\n";

/** A project with a.py, a task begun on it, and its place in the tree. */
async function lab(id: string) {
  const root = await tempProject({ "a.py": A });
  const { task } = await beginTask(root, { id, spec: "s", files: ["a.py"] });
  const files = await snapshot(root, ["a.py"]);
  const place = new TreePlace({
    root,
    id,
    files: ["a.py"],
    start: { files, dirs: [] },
    run: task.runs,
  });
  return {
    root,
    place,
    read: () => Deno.readTextFileSync(join(root, "a.py")),
    write: (text: string) => Deno.writeTextFileSync(join(root, "a.py"), text),
    close: () => Deno.remove(root, { recursive: true }),
  };
}

Deno.test("place (tree) takes an edit made while the checks ran in once, and undo keeps it", async () => {
  const l = await lab("P1");
  try {
    const from = await l.place.read();
    assert.deepEqual(await l.place.write(new Map([["a.py", enc.encode(A_TASK)]]), from), {
      merged: [],
    });
    assert.deepEqual(await l.place.changedMeanwhile(), [], "its own write is no one else's edit");
    l.write(A_TASK + USER); // while the checks run
    assert.deepEqual(await l.place.changedMeanwhile(), ["a.py"]);
    assert.deepEqual(await l.place.changedMeanwhile(), [], "taken in: not reported again");
    const seen = (await readRecord(l.root, "P1"))?.writes?.filter((w) => w.seen) ?? [];
    assert.equal(seen.length, 1);
    assert.deepEqual(await l.place.undo(), { kept: ["a.py"], left: [] });
    assert.equal(l.read(), A + USER);
    assert.equal(await l.place.unchanged(), false);
  } finally {
    await l.close();
  }
});

Deno.test("place (tree) merges an attempt's edits onto an edit made while the model wrote", async () => {
  const l = await lab("P2");
  try {
    const from = await l.place.read();
    l.write(A + USER); // while the model writes
    assert.deepEqual(await l.place.write(new Map([["a.py", enc.encode(A_TASK)]]), from), {
      merged: ["a.py"],
    });
    assert.equal(l.read(), A_TASK + USER);
    assert.deepEqual(await l.place.changedMeanwhile(), []);
    assert.deepEqual(await l.place.undo(), { kept: ["a.py"], left: [] });
    assert.equal(l.read(), A + USER);
  } finally {
    await l.close();
  }
});
