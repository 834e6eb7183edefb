/**
 * The standby workspace (docs/DECISIONS.md, "Cheap workspaces"): made once, taken with a rename
 * and brought in step with the tree by a sync, given back by a task and recycled, shared by two
 * takers, never taken half-made, kept by the cleanup of dead runs.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import {
  makeWorkspace,
  prepareStandby,
  releaseWorkspace,
  removeStaleClaims,
  workspaceBase,
  workspacePath,
  writeWork,
} from "../../lib/tasks/mod.ts";
import { MAKING, STANDBY, tryMakerLock } from "../../lib/tasks/ws_dir.ts";
import { assertInStep, cleanUp, fileState, project, settled, write } from "./ws_lab.ts";

const TREE = {
  "src/a.py": "a = 1\n",
  "src/b.py": "b = 2\n",
  "src/gone/x.py": "x\n",
  "run.sh": "echo run\n",
  "docs/current": "->v1",
  "docs/v1/index.md": "v1\n",
  "docs/v2/index.md": "v2\n",
  "node_modules/dep/index.js": "dep\n",
};

function _standby(root: string): string {
  return join(workspaceBase(root), STANDBY);
}

Deno.test("standby: made by prepareStandby, taken by makeWorkspace and brought in step", async () => {
  const root = await project(TREE);
  try {
    await prepareStandby(root);
    assertInStep(root, join(_standby(root), "tree"));
    // The tree moves on: an edit of the same size, new and removed files and folders, an exec
    // bit, a file that becomes a folder, a link that points elsewhere.
    await write(root, { "src/a.py": "a = 9\n", "src/new.py": "new\n", "lib/c/d.py": "d\n" });
    await Deno.remove(join(root, "src/b.py"));
    await Deno.remove(join(root, "src/gone"), { recursive: true });
    await Deno.chmod(join(root, "run.sh"), 0o755);
    await Deno.remove(join(root, "docs/current"));
    await write(root, { "docs/current": "->v2", "src/b.py/inner.py": "inner\n" });
    const ws = workspacePath(root, "S1");
    await makeWorkspace(root, { ws, running: [], files: [] });
    assert.throws(() => Deno.lstatSync(_standby(root)), Deno.errors.NotFound, "taken");
    assertInStep(root, ws);
    assert.equal(Deno.statSync(ws).mode! & 0o777, 0o700);
  } finally {
    await cleanUp(root);
  }
});

Deno.test("standby: a workspace given back is recycled, the task's edits and checks' files undone", async () => {
  const root = await project(TREE);
  try {
    await prepareStandby(root);
    const ws = workspacePath(root, "S2");
    await makeWorkspace(root, { ws, running: [], files: [] });
    const dep = fileState(join(root, "node_modules/dep/index.js"));
    // The task edits, its checks write byte code and build output, remove and chmod files.
    await writeWork(ws, new Map([["src/a.py", "a = 1 \n"], ["node_modules/dep/index.js", "x"]]));
    await write(ws, { "src/__pycache__/a.pyc": "pyc", "target/debug/out": "bin" });
    await Deno.remove(join(ws, "src/b.py"));
    await Deno.chmod(join(ws, "run.sh"), 0o700);
    await Deno.remove(join(ws, "docs/current"));
    await write(ws, { "docs/current": "->v2" });
    // A check that rewrites a file and puts its mtime back (`cp -p`, `touch -r`): same size.
    await write(ws, { "docs/v1/index.md": "v9\n" });
    const touch = ["-r", join(root, "docs/v1/index.md"), join(ws, "docs/v1/index.md")];
    assert.ok((await new Deno.Command("touch", { args: touch }).output()).success);
    await write(root, { "src/landed.py": "landed\n" }); // and the tree moves on meanwhile
    await releaseWorkspace(root, ws, { keep: true });
    await settled(root);
    assertInStep(root, join(_standby(root), "tree"));
    assert.equal(fileState(join(root, "node_modules/dep/index.js")), dep);
    const next = workspacePath(root, "S3");
    await makeWorkspace(root, { ws: next, running: [], files: [] });
    assertInStep(root, next);
  } finally {
    await cleanUp(root);
  }
});

Deno.test("standby: a racily clean file is copied again by the next sync", async () => {
  const root = await project(TREE);
  try {
    // Written just before the standby's walk: it may change again within the same timestamp
    // tick after the walk looked, and then nothing in its stat would tell.
    await write(root, { "src/a.py": "a = 2\n" });
    await prepareStandby(root);
    // Such a missed change, as the standby would hold it: the copy differs, the stat does not.
    await Deno.writeTextFile(join(_standby(root), "tree/src/a.py"), "a = 1\n");
    const ws = workspacePath(root, "S4");
    await makeWorkspace(root, { ws, running: [], files: [] });
    assert.equal(Deno.readTextFileSync(join(ws, "src/a.py")), "a = 2\n");
  } finally {
    await cleanUp(root);
  }
});

Deno.test("standby: of two takers one gets it, the other copies the tree", async () => {
  const root = await project(TREE);
  try {
    await prepareStandby(root);
    await write(root, { "src/a.py": "a = 3\n" });
    const a = workspacePath(root, "T1"), b = workspacePath(root, "T2");
    await Promise.all([a, b].map((ws) => makeWorkspace(root, { ws, running: [], files: [] })));
    assertInStep(root, a);
    assertInStep(root, b);
    // Both given back: one becomes the standby, the other is removed.
    await Promise.all([a, b].map((ws) => releaseWorkspace(root, ws, { keep: true })));
    await settled(root);
    const names = [...Deno.readDirSync(workspaceBase(root))].map((e) => e.name).sort();
    assert.deepEqual(names, ["owner", "standby", "standby.lock"]);
  } finally {
    await cleanUp(root);
  }
});

Deno.test("standby: the cleanup keeps it; a dead server's half-made one is never taken, and goes", async () => {
  const root = await project(TREE);
  try {
    await prepareStandby(root);
    const base = workspaceBase(root);
    await removeStaleClaims(root);
    assert.ok(Deno.lstatSync(join(base, STANDBY)).isDirectory, "no claim names it, yet it stays");
    await Deno.rename(join(base, STANDBY), join(base, MAKING)); // complete, but never published
    await Deno.writeTextFile(join(base, MAKING, "tree/src/a.py"), "half\n");
    const ws = workspacePath(root, "D1");
    await makeWorkspace(root, { ws, running: [], files: [] });
    assertInStep(root, ws);
    // A live maker's is kept; a dead one's goes, and so does a workspace no claim names.
    const live = await tryMakerLock(base);
    try {
      await removeStaleClaims(root);
      assert.ok(Deno.lstatSync(join(base, MAKING)).isDirectory, "a live maker's is kept");
    } finally {
      live!.close();
    }
    await removeStaleClaims(root);
    const names = [...Deno.readDirSync(base)].map((e) => e.name).sort();
    assert.deepEqual(names, ["owner", "standby.lock"], "no claim names the workspace");
  } finally {
    await cleanUp(root);
  }
});

Deno.test("standby: a tree with a newline in a name gets a copy of its own", async () => {
  const root = await project({ ...TREE, "odd\nname.txt": "odd\n" });
  try {
    await prepareStandby(root);
    assert.throws(() => Deno.lstatSync(_standby(root)), Deno.errors.NotFound, "no standby");
    const ws = workspacePath(root, "N1");
    await makeWorkspace(root, { ws, running: [], files: [] });
    assertInStep(root, ws);
    await releaseWorkspace(root, ws, { keep: true });
    assert.deepEqual([...Deno.readDirSync(workspaceBase(root))].map((e) => e.name).sort(), [
      "owner",
      "standby.lock",
    ]);
  } finally {
    await cleanUp(root);
  }
});
