/**
 * Copies kept in step with a tree (`lib/tasks/ws_sync.ts`), below the standby: the portable way
 * (walked and compared without `find` and `diff`, as where GNU find is missing: macOS), and what
 * only the time a copy was handed to a task can tell.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { copyTree, syncCopy } from "../../lib/tasks/ws_sync.ts";
import { assertInStep, project, write } from "./ws_lab.ts";

Deno.test("sync without find and diff: a copy follows the tree, and a used one is undone", async () => {
  const root = await project({
    "src/a.py": "a = 1\n",
    "src/b.py": "b = 2\n",
    "lib/x/y.py": "y\n",
    "link": "->src",
    "node_modules/dep/index.js": "dep\n",
  });
  const dir = await Deno.makeTempDir({ prefix: "localexec-copy-" });
  const meta = await Deno.makeTempDir({ prefix: "localexec-meta-" });
  const o = { portable: true };
  try {
    const first = await copyTree(root, dir, meta, o);
    assert.ok(first);
    assertInStep(root, dir);
    await write(root, { "src/a.py": "a = 5\n", "lib/new.py": "new\n" });
    await Deno.remove(join(root, "lib/x"), { recursive: true });
    const clean = await syncCopy(root, dir, meta, first, { ...o, dirty: false });
    assertInStep(root, dir);
    assert.equal(clean.removed, 1, "lib/x, once");
    // What a task would leave in it.
    await write(dir, { "src/b.py": "b = 3\n", "src/__pycache__/b.pyc": "pyc" });
    await Deno.remove(join(dir, "src/a.py"));
    await syncCopy(root, dir, meta, clean.record, { ...o, dirty: true });
    assertInStep(root, dir);
  } finally {
    for (const d of [root, dir, meta]) await Deno.remove(d, { recursive: true });
  }
});

Deno.test("sync of a used copy: a file rewritten after it was handed counts, mtime put back or not", async () => {
  const root = await project({ "src/a.py": "a = 1\n", "src/b.py": "b = 2\n" });
  const dir = await Deno.makeTempDir({ prefix: "localexec-copy-" });
  const meta = await Deno.makeTempDir({ prefix: "localexec-meta-" });
  // No racy slack: the tree's files count as settled, so only the copy's side can tell.
  const o = { slackMs: 0 };
  try {
    const first = await copyTree(root, dir, meta, o);
    const clean = await syncCopy(root, dir, meta, first!, { ...o, dirty: true });
    // Handed to a task a moment ago (before its write, whatever the clock's tick).
    const handed = { ...clean.record, handed: true, done: Date.now() - 100 };
    // A check rewrites a file and puts its mtime back (`cp -p`, `touch -r`): same size and mode.
    await Deno.writeTextFile(join(dir, "src/a.py"), "a = 7\n");
    const touch = ["-r", join(root, "src/a.py"), join(dir, "src/a.py")];
    assert.ok((await new Deno.Command("touch", { args: touch }).output()).success);
    await syncCopy(root, dir, meta, handed, { ...o, dirty: true });
    assertInStep(root, dir);
  } finally {
    for (const d of [root, dir, meta]) await Deno.remove(d, { recursive: true });
  }
});
