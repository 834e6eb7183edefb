/**
 * The checks `localexec init` proposes for a folder of Python files with no project marker (a plain
 * folder, a git repository of scripts), run for real: they pass the folder as it is, fail a syntax
 * error, and leave no `__pycache__/` behind.
 */
import { PROVIDERS } from "../../lib/providers/mod.ts";
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { detectChecks } from "../../lib/cli/init.ts";
import { runChecks } from "../../lib/checks.ts";
import { parseConfig } from "../../lib/config.ts";
import { git, tempProject } from "../helpers/project.ts";

/** The checks init proposes for `root`, loaded as a configuration would load them. */
async function proposed(root: string) {
  const checks = await detectChecks(root);
  return parseConfig({ checks }, join(root, ".localexec.json"), PROVIDERS).checks;
}

/** The byte-code and test caches under `root`. */
async function caches(root: string): Promise<string[]> {
  return (await tree(root)).filter((p) => /__pycache__|\.pytest_cache|\.pyc$/.test(p));
}

/** Every path under `dir`, relative, sorted. */
async function tree(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.name === ".git") continue;
    out.push(prefix + e.name);
    if (e.isDirectory) out.push(...await tree(join(dir, e.name), `${prefix}${e.name}/`));
  }
  return out.sort();
}

Deno.test("init proposes Python checks for a plain folder of .py files, and they run clean", async () => {
  const root = await tempProject({
    "calc.py": "def add(a, b):\n    return a + b\n",
    "pkg/util.py": "X = 1\n",
  });
  try {
    const checks = await proposed(root);
    assert.deepEqual(checks.map((c) => c.name), ["compile", "tests"]);
    const files = ["calc.py", "pkg/util.py"];
    const ok = await runChecks(root, checks, { files });
    assert.equal(ok.failed_check, undefined, ok.failed_output);
    assert.deepEqual(ok.results.map((r) => [r.name, r.ok, !!r.skipped]), [
      ["compile", true, false],
      ["tests", true, false],
    ]);
    assert.deepEqual(await caches(root), [], "no __pycache__ left");
    await Deno.writeTextFile(join(root, "calc.py"), "def add(a, b:\n    return a + b\n");
    const bad = await runChecks(root, checks, { files });
    assert.equal(bad.failed_check, "compile");
    assert.match(bad.failed_output!, /calc\.py.*line 1[\s\S]*SyntaxError/);
    assert.deepEqual(await caches(root), []);
    // A test file, imported by the test runner: still nothing written beside it.
    await Deno.writeTextFile(join(root, "calc.py"), "def add(a, b):\n    return a + b\n");
    await Deno.writeTextFile(
      join(root, "test_calc.py"),
      "import unittest\nfrom calc import add\n\n\nclass T(unittest.TestCase):\n" +
        "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    );
    const tested = await runChecks(root, checks, { files: [...files, "test_calc.py"] });
    assert.equal(tested.failed_check, undefined, tested.failed_output);
    assert.deepEqual(await caches(root), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("init proposes Python checks for a git folder with only .py files", async () => {
  const root = await tempProject({ "scripts/job.py": "print('hi')\n" });
  try {
    await git(root, "init", "-q");
    assert.deepEqual((await proposed(root)).map((c) => c.name), ["compile", "tests"]);
    // A folder with no Python file (and no marker) still gets none.
    const empty = await tempProject({ "notes.txt": "hello\n" });
    assert.deepEqual(await detectChecks(empty), {});
    await Deno.remove(empty, { recursive: true });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("init's Python syntax check of a pyproject project writes no __pycache__", async () => {
  const root = await tempProject({ "pyproject.toml": "", "calc.py": "X = 1\n" });
  try {
    const compile = (await proposed(root)).filter((c) => c.name === "compile");
    const run = await runChecks(root, compile, { files: ["calc.py"] });
    assert.deepEqual(run.results.map((r) => [r.name, r.ok, !!r.skipped]), [[
      "compile",
      true,
      false,
    ]]);
    assert.deepEqual(await caches(root), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
