/**
 * Links in a workspace are read-only for its task (docs/ARCHITECTURE.md, "Parallel tasks"):
 * `writeWork` never writes or removes through a link — the linked `node_modules`, or any link the
 * tree holds — and `makeWorkspace` makes the task's own files reachable without one.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { makeWorkspace, workspacePath, writeWork } from "../../lib/tasks/mod.ts";
import { cleanUp, fileState, project } from "./ws_lab.ts";

const DEPS = {
  "package.json": "{}\n",
  "node_modules/pkg/index.js": "module.exports = 1;\n",
  "node_modules/pkg/other.js": "module.exports = 2;\n",
  "node_modules/pkg/lib/deep.js": "deep\n",
  "node_modules/other/x.js": "x\n",
};

async function _lab(files: Record<string, string>, own: string[] = []) {
  const root = await project(files);
  const ws = workspacePath(root, "L1");
  await makeWorkspace(root, { ws, running: [], files: own });
  return { root, ws };
}

Deno.test("writeWork under node_modules writes a real file in the workspace, never the user's", async () => {
  const { root, ws } = await _lab(DEPS);
  try {
    const user = join(root, "node_modules/pkg/lib/deep.js");
    const before = fileState(user);
    await writeWork(ws, new Map([["node_modules/pkg/lib/deep.js", "edited\n"]]));
    assert.equal(fileState(user), before, "the user's file: same bytes, inode and mtime");
    for (const dir of ["node_modules", "node_modules/pkg", "node_modules/pkg/lib"]) {
      assert.ok(Deno.lstatSync(join(ws, dir)).isDirectory, `${dir} is a real folder`);
    }
    const mine = Deno.lstatSync(join(ws, "node_modules/pkg/lib/deep.js"));
    assert.ok(mine.isFile);
    assert.equal(Deno.readTextFileSync(join(ws, "node_modules/pkg/lib/deep.js")), "edited\n");
    // Its siblings are still there, as links to the user's.
    assert.ok(Deno.lstatSync(join(ws, "node_modules/pkg/other.js")).isSymlink);
    assert.equal(
      Deno.readTextFileSync(join(ws, "node_modules/pkg/index.js")),
      DEPS[
        "node_modules/pkg/index.js"
      ],
    );
    assert.equal(Deno.readTextFileSync(join(ws, "node_modules/other/x.js")), "x\n");
  } finally {
    await cleanUp(root);
  }
});

Deno.test("writeWork removing a file under node_modules removes the workspace's entry only", async () => {
  const { root, ws } = await _lab(DEPS);
  try {
    await writeWork(ws, new Map([["node_modules/pkg/other.js", null]]));
    assert.equal(
      Deno.readTextFileSync(join(root, "node_modules/pkg/other.js")),
      "module.exports = 2;\n",
    );
    assert.throws(
      () => Deno.lstatSync(join(ws, "node_modules/pkg/other.js")),
      Deno.errors.NotFound,
    );
    assert.ok(Deno.lstatSync(join(ws, "node_modules/pkg/index.js")).isSymlink);
  } finally {
    await cleanUp(root);
  }
});

Deno.test("writeWork through a link the tree holds (to a folder, to a file) leaves their targets", async () => {
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-out-" }));
  await Deno.writeTextFile(join(outside, "lib.js"), "lib\n");
  await Deno.writeTextFile(join(outside, "conf.json"), "{}\n");
  const { root, ws } = await _lab({
    "src/app.js": "app\n",
    "vendor": `->${outside}`,
    "conf.json": `->${join(outside, "conf.json")}`,
  });
  try {
    const lib = fileState(join(outside, "lib.js")), conf = fileState(join(outside, "conf.json"));
    await writeWork(ws, new Map([["vendor/lib.js", "mine\n"], ["conf.json", '{"a":1}\n']]));
    await writeWork(ws, new Map([["vendor/new.js", "new\n"]]));
    assert.equal(fileState(join(outside, "lib.js")), lib);
    assert.equal(fileState(join(outside, "conf.json")), conf);
    assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name).sort(), [
      "conf.json",
      "lib.js",
    ]);
    assert.ok(Deno.lstatSync(join(ws, "vendor")).isDirectory);
    assert.ok(Deno.lstatSync(join(ws, "conf.json")).isFile);
    assert.equal(Deno.readTextFileSync(join(ws, "vendor/lib.js")), "mine\n");
  } finally {
    await cleanUp(root);
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("makeWorkspace makes the task's own files under a link real copies", async () => {
  const { root, ws } = await _lab(DEPS, ["node_modules/pkg/index.js", "src/new.js"]);
  try {
    const mine = Deno.lstatSync(join(ws, "node_modules/pkg/index.js"));
    assert.ok(mine.isFile, "a file of its own");
    assert.notEqual(mine.ino, Deno.statSync(join(root, "node_modules/pkg/index.js")).ino);
    assert.equal(
      Deno.readTextFileSync(join(ws, "node_modules/pkg/index.js")),
      DEPS[
        "node_modules/pkg/index.js"
      ],
    );
    assert.ok(Deno.lstatSync(join(ws, "node_modules/pkg/other.js")).isSymlink);
    assert.ok(Deno.lstatSync(join(ws, "node_modules/other")).isSymlink);
  } finally {
    await cleanUp(root);
  }
});
