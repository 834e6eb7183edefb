/**
 * Workspaces on real project layouts (docs/ARCHITECTURE.md, "Parallel tasks"): a Python project
 * with a virtualenv, a Node project with node_modules, a Deno project, a Rust crate with target/,
 * and a folder that is not a git repository. In each, the project's own tool runs in the
 * workspace, and whatever it writes stays there: the user's tree is byte for byte as before.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import {
  landings,
  makeWorkspace,
  noteLanded,
  releaseWorkspace,
  syncLanded,
  workspaceBase,
  workspacePath,
} from "../../lib/tasks/mod.ts";
import { vanishedOnly } from "../../lib/tasks/workspace.ts";

/** Every path under `root` (`.localexec/` aside) with its size, mtime and inode. */
function _state(root: string, rel = "", out = new Map<string, string>()): Map<string, string> {
  for (const e of Deno.readDirSync(join(root, rel))) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (p === ".localexec") continue;
    const info = Deno.lstatSync(join(root, p));
    out.set(
      p,
      `${
        info.isDirectory ? "d" : info.isSymlink ? "l" : "f"
      }:${info.size}:${info.mtime?.getTime()}:${info.ino}`,
    );
    if (info.isDirectory) _state(root, p, out);
  }
  return out;
}

async function _run(cwd: string, ...argv: string[]): Promise<string> {
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { CARGO_NET_OFFLINE: "true" },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `${argv.join(" ")} in ${cwd}: ${text}`);
  return text;
}

function _has(cmd: string): boolean {
  try {
    return new Deno.Command(cmd, { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** Makes a project with `files`, runs `setup` in it, then a workspace; returns both paths. */
async function _lab(files: Record<string, string>, setup: string[][] = []) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-ws-" }));
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, rel), text);
  }
  for (const argv of setup) await _run(root, ...argv);
  const before = _state(root);
  const ws = workspacePath(root, "W1");
  await makeWorkspace(root, { ws, running: [], files: [] });
  return {
    root,
    ws,
    before,
    /** The user's tree is exactly as it was before the workspace and its checks. */
    untouched() {
      const after = _state(root);
      const diff = [...new Set([...before.keys(), ...after.keys()])].filter((p) =>
        before.get(p) !== after.get(p)
      );
      assert.deepEqual(diff, [], "the user's tree changed");
    },
    async close() {
      await Deno.remove(workspaceBase(root), { recursive: true });
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** No regular file of the workspace shares an inode with one of the user's tree. */
function _noHardLinks(root: string, ws: string, rel: string): void {
  const a = Deno.statSync(join(root, rel));
  const b = Deno.lstatSync(join(ws, rel));
  assert.ok(b.isFile, `${rel} is a file of its own in the workspace`);
  assert.notEqual(a.ino, b.ino, `${rel} is not a hard link to the user's file`);
}

Deno.test({
  name: "workspace a Python project: the virtualenv is linked, __pycache__ stays in the workspace",
  ignore: !_has("python3"),
  async fn() {
    const lab = await _lab(
      { "pkg/__init__.py": "", "pkg/calc.py": "def add(a, b):\n    return a + b\n" },
      [["python3", "-m", "venv", "--without-pip", ".venv"], ["git", "init", "-q"]],
    );
    try {
      assert.ok(Deno.lstatSync(join(lab.ws, ".venv")).isSymlink);
      assert.throws(() => Deno.lstatSync(join(lab.ws, ".git")), Deno.errors.NotFound);
      _noHardLinks(lab.root, lab.ws, "pkg/calc.py");
      await Deno.writeTextFile(join(lab.ws, "pkg/calc.py"), "def add(a, b):\n    return 42\n");
      const out = await _run(
        lab.ws,
        ".venv/bin/python",
        "-c",
        "import pkg.calc; print(pkg.calc.add(1, 2))",
      );
      assert.equal(out.trim(), "42", "the workspace's code ran, not the user's");
      await _run(lab.ws, ".venv/bin/python", "-m", "compileall", "-q", "pkg");
      assert.ok(Deno.statSync(join(lab.ws, "pkg/__pycache__")).isDirectory);
      lab.untouched();
    } finally {
      await lab.close();
    }
  },
});

Deno.test({
  name: "workspace a Node project: node_modules is linked and resolves from the workspace",
  ignore: !_has("node"),
  async fn() {
    const lab = await _lab({
      "package.json": '{"name":"app","version":"1.0.0"}\n',
      "node_modules/dep/package.json": '{"name":"dep","version":"1.0.0","main":"index.js"}\n',
      "node_modules/dep/index.js": "module.exports = (x) => x * 2;\n",
      "src/app.js": "module.exports = require('dep')(1);\n",
    });
    try {
      assert.ok(Deno.lstatSync(join(lab.ws, "node_modules")).isSymlink);
      _noHardLinks(lab.root, lab.ws, "src/app.js");
      await Deno.writeTextFile(
        join(lab.ws, "src/app.js"),
        "module.exports = require('dep')(21);\n",
      );
      const out = await _run(lab.ws, "node", "-e", "console.log(require('./src/app.js'))");
      assert.equal(out.trim(), "42");
      lab.untouched();
    } finally {
      await lab.close();
    }
  },
});

Deno.test("workspace a Deno project: deno check and deno test run in the workspace", async () => {
  const lab = await _lab({
    "deno.json": '{"tasks":{"t":"deno test"}}\n',
    "mod.ts": "export const add = (a: number, b: number): number => a + b;\n",
    "mod_test.ts":
      'import { add } from "./mod.ts";\nDeno.test("add", () => { if (add(1, 2) !== 3) throw new Error("add"); });\n',
  });
  try {
    _noHardLinks(lab.root, lab.ws, "mod.ts");
    await _run(lab.ws, Deno.execPath(), "test", "--no-prompt", "-q");
    await Deno.writeTextFile(
      join(lab.ws, "mod.ts"),
      "export const add = (a: number, b: number): number => a - b;\n",
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--no-prompt", "-q"],
      cwd: lab.ws,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 1, "the workspace's edit is what the test saw");
    lab.untouched();
    // The workspace is outside the tree: the user's `deno test` (which walks hidden folders) does
    // not find its copy of the tests.
    assert.ok(!lab.ws.startsWith(lab.root + "/"), lab.ws);
    const mine = await _run(lab.root, Deno.execPath(), "test", "--no-prompt");
    assert.match(mine, /running 1 test from \.\/mod_test\.ts/);
    assert.doesNotMatch(mine, /running \d+ tests? from .*(localexec|ws)/);
  } finally {
    await lab.close();
  }
});

Deno.test({
  name:
    "workspace a Rust crate: target/ is copied, so a build in the workspace leaves the user's alone",
  ignore: !_has("cargo"),
  async fn() {
    const lab = await _lab(
      {
        "Cargo.toml":
          '[package]\nname = "w"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
        "src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n",
      },
      [["cargo", "build", "--offline", "-q"]],
    );
    try {
      assert.ok(Deno.lstatSync(join(lab.ws, "target")).isDirectory, "a folder, not a link");
      const built = [...Deno.readDirSync(join(lab.root, "target/debug"))].find((e) => e.isFile);
      assert.ok(built, "the user's build left a file in target/debug");
      _noHardLinks(lab.root, lab.ws, `target/debug/${built.name}`);
      await Deno.writeTextFile(
        join(lab.ws, "src/lib.rs"),
        "pub fn add(a: i32, b: i32) -> i32 { a - b }\n",
      );
      await _run(lab.ws, "cargo", "build", "--offline", "-q");
      lab.untouched();
    } finally {
      await lab.close();
    }
  },
});

Deno.test("workspace a folder that is not a git repository, and what landed since comes in", async () => {
  const lab = await _lab({ "a.txt": "a\n", "b.txt": "b\n", "sub/c.txt": "c\n" });
  try {
    assert.equal(Deno.readTextFileSync(join(lab.ws, "sub/c.txt")), "c\n");
    _noHardLinks(lab.root, lab.ws, "a.txt");
    // Another task lands b.txt in the tree: the workspace takes it in before its next checks.
    const seen = (await landings(lab.root)).length;
    await Deno.mkdir(join(lab.root, ".localexec"), { recursive: true });
    await Deno.writeTextFile(join(lab.root, "b.txt"), "b landed\n");
    await noteLanded(lab.root, "OTHER", ["b.txt"]);
    const got = await syncLanded(lab.root, lab.ws, seen, "W1");
    assert.deepEqual(got.tasks, ["OTHER"]);
    assert.equal(Deno.readTextFileSync(join(lab.ws, "b.txt")), "b landed\n");
    _noHardLinks(lab.root, lab.ws, "b.txt");
  } finally {
    await lab.close();
  }
});

Deno.test("workspace a tree whose files come and go during the copy: what vanished is left out", async () => {
  // An editor's or a build's temporary files, or another task's atomic write (`.x.localexec-tmp`
  // renamed over `x`), vanish between cp's reading a folder and copying the file: "cannot stat".
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-ws-" }));
  for (let d = 0; d < 4; d++) {
    await Deno.mkdir(join(root, `d${d}`));
    for (let f = 0; f < 200; f++) await Deno.writeTextFile(join(root, `d${d}/f${f}.txt`), "x\n");
  }
  // Each folder gets a file that lives a few microseconds, over and over, while workspaces are made.
  const churn = new Deno.Command("sh", {
    args: [
      "-c",
      'for d in d*; do (while [ ! -e .stop ]; do : > "$d/t"; rm -f "$d/t"; done) & done; wait',
    ],
    cwd: root,
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (let i = 0; i < 3; i++) {
      const ws = workspacePath(root, `C${i}`);
      await makeWorkspace(root, { ws, running: [], files: [] });
      assert.equal(Deno.readTextFileSync(join(ws, "d3/f199.txt")), "x\n");
    }
  } finally {
    await Deno.writeTextFile(join(root, ".stop"), ""); // every loop ends, then `wait` returns
    await churn.status;
    await Deno.remove(workspaceBase(root), { recursive: true }).catch(() => {});
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("workspace cp's own complaints: only a vanished file is forgiven", async () => {
  const dir = await Deno.makeTempDir({ prefix: "localexec-ws-" });
  const cp = async (...args: string[]) => {
    const out = await new Deno.Command("cp", { args, cwd: dir, env: { LC_ALL: "C" } }).output();
    assert.notEqual(out.code, 0);
    return new TextDecoder().decode(out.stderr);
  };
  try {
    await Deno.writeTextFile(join(dir, "file"), "x");
    assert.ok(vanishedOnly(await cp("-a", "-t", dir, "--", "gone", "also-gone")));
    assert.ok(!vanishedOnly(await cp("-a", "-t", "file", "--", "file")), "target not a folder");
    assert.ok(!vanishedOnly(await cp("-a", "-t", dir, "--", "gone", "/proc/self/mem")));
    assert.ok(!vanishedOnly(""));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("workspace making stops when its signal aborts, and the half-made one is removed", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-ws-" }));
  await Deno.writeTextFile(join(root, "a.txt"), "a\n");
  const ws = workspacePath(root, "A1");
  try {
    const signal = AbortSignal.abort();
    await assert.rejects(
      makeWorkspace(root, { ws, running: [], files: [], signal }),
      (err: Error) => err.name === "AbortError",
    );
    await releaseWorkspace(root, ws, { keep: true });
    assert.deepEqual([...Deno.readDirSync(workspaceBase(root))].map((e) => e.name).sort(), [
      "owner",
      "standby.lock",
    ]);
  } finally {
    await Deno.remove(workspaceBase(root), { recursive: true }).catch(() => {});
    await Deno.remove(root, { recursive: true });
  }
});
