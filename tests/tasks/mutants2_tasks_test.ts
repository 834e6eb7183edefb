/**
 * Tests written for the survivors of the second `deno task mutate --changed d9b33cd` run (merged
 * main; docs/MUTATION.md) in lib/tasks: each fails with its mutant planted and passes on the code.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { readCurrent } from "../../lib/tasks/backup.ts";
import { noteLanded, syncLanded } from "../../lib/tasks/landed.ts";
import { writeWork } from "../../lib/tasks/workspace.ts";
import { linkDeps } from "../../lib/tasks/ws_sync.ts";

/** A project folder and a workspace folder, both temporary. */
async function _pair(): Promise<{ root: string; ws: string; close(): Promise<void> }> {
  const root = await Deno.makeTempDir({ prefix: "mutants2_root_" });
  const ws = await Deno.makeTempDir({ prefix: "mutants2_ws_" });
  await Deno.mkdir(join(root, ".localexec"), { recursive: true });
  return {
    root,
    ws,
    async close() {
      await Deno.remove(root, { recursive: true });
      await Deno.remove(ws, { recursive: true });
    },
  };
}

// landed.ts:73: `l.seq > since && l.task_id !== self` → `l.seq > since`
Deno.test("a workspace takes in what other tasks landed, never its own landing again", async () => {
  const p = await _pair();
  try {
    await Deno.writeTextFile(join(p.root, "a.txt"), "a in the tree\n");
    await Deno.writeTextFile(join(p.root, "b.txt"), "b landed\n");
    await Deno.writeTextFile(join(p.ws, "a.txt"), "a of the task\n");
    await noteLanded(p.root, "SELF", ["a.txt"]);
    await noteLanded(p.root, "OTHER", ["b.txt"]);
    const got = await syncLanded(p.root, p.ws, 0, "SELF");
    assert.deepEqual(got, { seq: 2, tasks: ["OTHER"] });
    assert.equal(await Deno.readTextFile(join(p.ws, "a.txt")), "a of the task\n");
    assert.equal(await Deno.readTextFile(join(p.ws, "b.txt")), "b landed\n");
  } finally {
    await p.close();
  }
});

// workspace.ts:209: `info?.isFile && info.mode !== null ? …` → `… info.mode === null ? …`
Deno.test("writing a task's file in its workspace keeps the file's mode", async () => {
  const p = await _pair();
  try {
    const script = join(p.ws, "run.sh");
    await Deno.writeTextFile(script, "echo 1\n");
    await Deno.chmod(script, 0o755);
    await writeWork(p.ws, new Map([["run.sh", "echo 2\n"]]));
    assert.equal(await Deno.readTextFile(script), "echo 2\n");
    assert.equal((await Deno.stat(script)).mode! & 0o777, 0o755);
  } finally {
    await p.close();
  }
});

// ws_sync.ts:119: `(await Deno.readLink(at).catch(() => "")) === join(root, name)` → `!==`
Deno.test("linkDeps points a workspace's node_modules link at the tree's, whatever it pointed at", async () => {
  const p = await _pair();
  const elsewhere = await Deno.makeTempDir({ prefix: "mutants2_elsewhere_" });
  try {
    await Deno.mkdir(join(p.root, "node_modules", "left"), { recursive: true });
    await Deno.symlink(elsewhere, join(p.ws, "node_modules"));
    await linkDeps(p.root, p.ws);
    assert.equal(await Deno.readLink(join(p.ws, "node_modules")), join(p.root, "node_modules"));
    await linkDeps(p.root, p.ws); // a right link stays right
    assert.equal(await Deno.readLink(join(p.ws, "node_modules")), join(p.root, "node_modules"));
    assert.ok((await Deno.stat(join(elsewhere))).isDirectory); // its old target is left as it was
  } finally {
    await p.close();
    await Deno.remove(elsewhere, { recursive: true });
  }
});

// backup.ts:67: `if (!info.isFile) throw new ToolError(…)` → `if (false) …`
Deno.test("readCurrent reads a regular file, nothing for a missing one, and refuses the rest", async () => {
  const p = await _pair();
  try {
    await Deno.writeTextFile(join(p.root, "a.txt"), "a\n");
    await Deno.mkdir(join(p.root, "sub"));
    await Deno.symlink(join(p.root, "a.txt"), join(p.root, "link.txt"));
    assert.equal(new TextDecoder().decode((await readCurrent(p.root, "a.txt"))!), "a\n");
    assert.equal(await readCurrent(p.root, "gone.txt"), null);
    for (const rel of ["sub", "link.txt"]) {
      await assert.rejects(readCurrent(p.root, rel), new RegExp(`"${rel}" is not a regular file`));
    }
  } finally {
    await p.close();
  }
});
