/**
 * `localexec call` for a person at the command line (issue 34): its exit code says whether the
 * step got done, it shows progress on stderr while it works, find names what it skipped, and a
 * tool it cannot serve (patch_file) says so instead of sending the caller round in circles.
 * Each test runs the real command in a temporary project; a model, where one is needed, is the
 * scripted fake Ollama.
 */
import assert from "node:assert/strict";
import { FULL, MAIN } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { startFakeOllama } from "../helpers/fake_ollama.ts";
import { CALC, FIX_ADD, FIXED, MODEL, WORSE_ADD, WRONG_ADD } from "../helpers/calc.ts";

/** Runs `localexec ARGS` in `root` with stdout and stderr piped. */
async function localexec(root: string, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...FULL, MAIN, ...args, "--root", root],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  return { code: out.code, stdout, stderr };
}

async function call(root: string, tool: string, args: unknown) {
  const out = await localexec(root, "call", tool, JSON.stringify(args));
  return { ...out, json: JSON.parse(out.stdout) };
}

const CHECKS = {
  checks: {
    ok: { command: "true" },
    bad: { command: "echo the test failed; exit 1" },
  },
};

Deno.test("call run_checks exits 1 when a check fails, 0 when all pass", async () => {
  const root = await tempProject({ ".localexec.json": JSON.stringify(CHECKS) });
  try {
    const failed = await call(root, "run_checks", {});
    assert.equal(failed.json.status, "failed");
    assert.equal(failed.code, 1, "main exited 0: `call run_checks && git commit` committed");
    const passed = await call(root, "run_checks", { names: ["ok"] });
    assert.equal(passed.json.status, "passed", passed.stdout);
    assert.equal(passed.code, 0);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("call exits 2 for an error answer", async () => {
  const root = await tempProject({ "a.txt": "a\n" });
  try {
    const missing = await call(root, "read_file", { filename: "missing.txt" });
    assert.equal(missing.json.status, "error");
    assert.equal(missing.code, 2);
    const unknown = await call(root, "read_file", { filename: "a.txt", nope: 1 });
    assert.equal(unknown.code, 2);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("call run_checks writes a line per check on a piped stderr", async () => {
  const root = await tempProject({ ".localexec.json": JSON.stringify(CHECKS) });
  try {
    const { stderr } = await call(root, "run_checks", {});
    assert.match(stderr, /^localexec run_checks: running check ok 1\/2$/m, stderr);
    assert.match(stderr, /^localexec run_checks: running check bad 2\/2$/m, stderr);
    assert.doesNotMatch(stderr, /\r/, "no live line on a pipe");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("call implement_task exits 1 on failed and says it asks again between attempts", async () => {
  const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
  const check = `python3 -c "import calc; assert calc.add(2, 3) == 5"`;
  const root = await tempProject({
    "calc.py": CALC,
    ".localexec.json": JSON.stringify({
      model: MODEL,
      ollama_host: fake.url,
      max_attempts: 2,
      checks: { tests: { command: check } },
    }),
  });
  try {
    fake.script(WRONG_ADD, WORSE_ADD);
    const out = await call(root, "implement_task", {
      task_id: "fix-add",
      spec: "Fix add() in calc.py so it adds.",
      files_to_edit: ["calc.py"],
    });
    assert.equal(out.json.status, "failed", out.stdout);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /attempt 1\/2: check tests failed, asking again/, out.stderr);
  } finally {
    await fake.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("call find names a skipped large file, its size and what to use instead", async () => {
  const big = `${"x".repeat(99)}\n`.repeat(20_000) + "needle here\n";
  const root = await tempProject({ "logs/big.log": big, "a.txt": "a needle\n" });
  try {
    const { json, code } = await call(root, "find", { pattern: "needle" });
    assert.equal(code, 0);
    assert.deepEqual(json.matches, ["a.txt:1:a needle"]);
    assert.equal(json.skipped, 1);
    assert.equal(json.skipped_files.length, 1, JSON.stringify(json));
    const [file] = json.skipped_files;
    assert.equal(file.path, "logs/big.log");
    assert.equal(file.kind, "too_large");
    assert.equal(file.bytes, big.length);
    assert.match(file.instead, /1\.9 MB/);
    assert.match(file.instead, /shell \(grep -nP 'needle' 'logs\/big\.log'\)/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("call find reports its progress while it lists a folder without git", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 10_000; i++) files[`d${i % 50}/f${i}.txt`] = "x\n";
  const root = await tempProject(files);
  try {
    const { json, stderr } = await call(root, "find", { pattern: "nowhere_at_all" });
    assert.equal(json.count, 0);
    assert.match(stderr, /^localexec find: listing the project's files$/m, stderr);
    assert.match(stderr, /^localexec find: listing the project's files: 10,000 so far$/m);
    assert.match(stderr, /^localexec find: searching 10,000 files$/m);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("call patch_file says it needs a running server and suggests write_file", async () => {
  const root = await tempProject({ "a.py": "x = 1\n" });
  try {
    const read = await call(root, "read_file", { filename: "a.py", line_numbers: true });
    assert.equal(read.code, 0);
    const patch = await call(root, "patch_file", {
      file_path: "a.py",
      from_line: 1,
      to_line: 1,
      content: "x = 2",
    });
    assert.equal(patch.code, 2);
    assert.match(patch.json.error, /needs a running server/);
    assert.match(patch.json.error, /write_file/);
    assert.doesNotMatch(patch.json.error, /call read_file with line_numbers=true/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the status command prints indented JSON for a person", async () => {
  const root = await tempProject({ ".localexec.json": JSON.stringify(CHECKS) });
  try {
    // (No model server answers here: status says so, as an error, indented all the same.)
    const { stdout } = await localexec(root, "status");
    assert.ok(stdout.trim().split("\n").length > 3, stdout);
    assert.match(stdout, /^ {2}"status": "(ok|error)",$/m);
    assert.ok(Array.isArray(JSON.parse(stdout).checks));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a misspelt config key is named, with the key it may mean, in the tools' answers", async () => {
  const config = { ...CHECKS, max_attempt: 2, checks: { ok: { command: "true" } } };
  const root = await tempProject({ ".localexec.json": JSON.stringify(config) });
  try {
    const want =
      '.localexec.json: unknown key "max_attempt" ignored (did you mean "max_attempts"?)';
    const checks = await call(root, "run_checks", {});
    assert.equal(checks.json.status, "passed");
    assert.deepEqual(checks.json.warnings, [want]);
    const status = await call(root, "status", {});
    assert.deepEqual(status.json.warnings, [want]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a --config that names no file is an error for call, status and the server", async () => {
  const root = await tempProject({ ".localexec.json": JSON.stringify(CHECKS) });
  try {
    for (const args of [["call", "run_checks", "{}"], ["status"], ["serve"]]) {
      const out = await localexec(root, ...args, "--config", `${root}/nope.json`);
      assert.equal(out.code, 2, `${args[0]}: ${out.stdout}`);
      assert.equal(out.stdout, "");
      assert.match(out.stderr, /--config ".*nope\.json": no such file/);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("call implement_task takes files_to_edit as a single path", async () => {
  const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
  const root = await tempProject({
    "calc.py": CALC,
    ".localexec.json": JSON.stringify({ model: MODEL, ollama_host: fake.url }),
  });
  try {
    fake.script(FIX_ADD);
    const out = await call(root, "implement_task", {
      task_id: "fix-add",
      spec: "Fix add() in calc.py so it adds.",
      files_to_edit: "calc.py",
    });
    assert.equal(out.json.status, "passed", out.stdout);
    assert.equal(await Deno.readTextFile(`${root}/calc.py`), FIXED);
  } finally {
    await fake.close();
    await Deno.remove(root, { recursive: true });
  }
});
