/**
 * `localexec eval` end to end: the real command as a subprocess, the scripted Ollama on loopback
 * answering as a model would (the reference solutions, garbage, or replies scripted per task),
 * real checks in real temporary projects. The bundled suite's checks are also run by hand on the
 * original files, where each must fail.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { parseCli } from "../../lib/cli/mod.ts";
import {
  BUNDLED_SUITE,
  type EvalResult,
  evalRows,
  loadTasks,
  renderTables,
  splitByToolchain,
  taskText,
  TEMP_PREFIX,
  writeTaskFiles,
} from "../../lib/eval/mod.ts";
import {
  closedUrl,
  type FakeChatRequest,
  type FakeOllama,
  startFakeOllama,
} from "../helpers/fake_ollama.ts";
import { blocksFor, GARBAGE, promptText, referenceModel } from "../helpers/eval_model.ts";
import { callMcp, connectInProcess, FULL, MAIN } from "../helpers/mcp.ts";

const MODEL = "qwen2.5-coder:7b";
const PATH = Deno.env.get("PATH") ?? "";

/** A sandbox: the project root, and a TMPDIR two levels down (so `../../x` from a temp project lands in the sandbox). */
interface Sandbox {
  dir: string;
  root: string;
  tmp: string;
  close(): Promise<void>;
}

async function sandbox(config: Record<string, unknown>): Promise<Sandbox> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "eval-test-" }));
  const root = join(dir, "project");
  const tmp = join(dir, "a", "b", "tmp");
  await Deno.mkdir(root);
  await Deno.mkdir(tmp, { recursive: true });
  await Deno.writeTextFile(join(root, ".localexec.json"), JSON.stringify(config));
  return { dir, root, tmp, close: () => Deno.remove(dir, { recursive: true }) };
}

/** Every path under `dir`, relative, sorted. */
async function tree(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const rel = prefix + e.name;
    out.push(rel);
    if (e.isDirectory) out.push(...await tree(join(dir, e.name), rel + "/"));
  }
  return out.sort();
}

/** Starts `localexec eval` in `box`; returns the child and its stderr/stdout when it ends. */
function spawnEval(box: Sandbox, args: string[], env: Record<string, string> = {}) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...FULL, MAIN, "eval", "--root", box.root, ...args],
    env: { TMPDIR: box.tmp, NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
}

async function runEval(
  box: Sandbox,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await spawnEval(box, args, env).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function runJson(box: Sandbox, args: string[], env: Record<string, string> = {}) {
  const out = await runEval(box, [...args, "--json"], env);
  assert.equal(out.code, 0, out.stderr);
  return { result: JSON.parse(out.stdout) as EvalResult, stderr: out.stderr };
}

async function fakeModel(names = [MODEL]): Promise<FakeOllama> {
  return await startFakeOllama({ models: names.map((name) => ({ name, contextLength: 32768 })) });
}

/** Runs `command` with `sh -c` in `cwd`; its exit code. */
async function sh(command: string, cwd: string): Promise<number> {
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    cwd,
    stdout: "null",
    stderr: "null",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const { code } = await child.status;
  clearTimeout(timer);
  return code;
}

Deno.test("the bundled suite: 24+ tasks of every kind, each with a solution", async () => {
  const tasks = await loadTasks(BUNDLED_SUITE);
  assert.ok(tasks.length >= 24, `${tasks.length} tasks`);
  const languages = new Set(tasks.map((t) => t.language));
  for (const l of ["python", "javascript", "typescript", "go", "rust"]) {
    assert.ok(languages.has(l), l);
  }
  const kinds = new Set(tasks.map((t) => t.kind));
  for (
    const k of [
      "bug fix",
      "new function",
      "new file",
      "two files",
      "symbols",
      "context file",
      "tabs",
    ]
  ) assert.ok(kinds.has(k), k);
  for (const t of tasks) {
    assert.ok(t.hasSolution, `${t.name} has a solution/`);
    if (t.symbols) {
      const big = (await taskText(t, "files", t.files_to_edit[0]))!;
      assert.ok(big.split("\n").length >= 3000, `${t.name}: a 3,000-line file`);
    }
    if (t.kind === "tabs") {
      const text = (await taskText(t, "files", t.files_to_edit[0]))!;
      assert.match(text, /^\t/m, `${t.name} is indented with tabs`);
    }
    if (t.kind === "two files") assert.equal(t.files_to_edit.length, 2, t.name);
    if (t.kind === "context file") assert.ok(t.context_files?.length, t.name);
  }
});

Deno.test("every bundled task's checks fail on its original files", async () => {
  const { runnable } = await splitByToolchain(await loadTasks(BUNDLED_SUITE), { cwd: "." });
  const scratch = await Deno.makeTempDir({ prefix: "eval-orig-" });
  const passing: string[] = [];
  try {
    // two at a time: most of the time is the toolchains starting
    const queue = [...runnable];
    const worker = async () => {
      for (let t = queue.shift(); t; t = queue.shift()) {
        const dir = join(scratch, t.name);
        await writeTaskFiles(t, dir);
        const codes = await Promise.all(
          Object.values(t.checks).map((c) => sh((c as { command: string }).command, dir)),
        );
        if (codes.every((c) => c === 0)) passing.push(t.name);
      }
    };
    await Promise.all([worker(), worker()]);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
  assert.deepEqual(passing, [], "these tasks' checks pass before any edit");
});

Deno.test("a model answering with the reference solutions passes every task on the first try", async () => {
  const all = await loadTasks(BUNDLED_SUITE);
  const { runnable, skipped } = await splitByToolchain(all, { cwd: "." });
  const fake = await fakeModel();
  fake.answer = referenceModel(all);
  // Two hosts (the same server under two names): two tasks at a time.
  const local = fake.url.replace("127.0.0.1", "localhost");
  const box = await sandbox({ model: MODEL, ollama_host: [fake.url, local] });
  try {
    const { result, stderr } = await runJson(box, ["--jobs", "2"]);
    assert.equal(result.models.length, 1);
    const m = result.models[0];
    assert.equal(m.model, MODEL);
    const failed = m.tasks.filter((t) => !t.first_try).map((t) => `${t.task}: ${t.why}`);
    assert.deepEqual(failed, [], stderr);
    assert.equal(m.score.tasks, runnable.length);
    assert.equal(m.score.passed, runnable.length);
    assert.equal(m.score.first_try, runnable.length);
    assert.equal(m.score.median_attempts, 1);
    assert.equal(m.score.refused, 0);
    assert.ok(m.score.prompt_tokens > 0 && m.score.reply_tokens > 0);
    assert.match(m.recommendation, /^delegate any of these steps/);
    assert.deepEqual(result.skipped.map((s) => s.language), skipped.map((s) => s.language));
    // one progress line per task
    assert.equal(stderr.match(/^\[\d+\/\d+\] passed /gm)?.length, runnable.length, stderr);
    // the run is in the record, apart from real work; nothing else was left in the project
    const rel = await tree(box.root);
    assert.deepEqual(rel.filter((p) => !p.startsWith(".localexec/eval/")), [
      ".localexec",
      ".localexec.json",
      ".localexec/.gitignore",
      ".localexec/eval",
    ]);
    assert.deepEqual((await tree(box.tmp)).filter((p) => p.startsWith(TEMP_PREFIX)), []);
    const rows = await evalRows(box.root);
    assert.ok(rows.every((r) => r.eval && r.model === MODEL && r.passed === r.tasks));
    assert.equal(rows.reduce((n, r) => n + r.tasks, 0), runnable.length);
  } finally {
    await fake.close();
    await box.close();
  }
});

Deno.test("a model answering garbage scores 0 and writes nothing outside the temp projects", async () => {
  const fake = await fakeModel();
  fake.answer = GARBAGE;
  const local = fake.url.replace("127.0.0.1", "localhost");
  const box = await sandbox({ model: MODEL, ollama_host: [fake.url, local], max_attempts: 2 });
  const outside = "/tmp/localexec-eval-garbage.txt";
  try {
    const { result } = await runJson(box, ["--jobs", "2"]);
    assert.deepEqual(result.models.map((m) => m.model), [MODEL]);
    for (const m of result.models) {
      assert.equal(m.score.passed, 0);
      assert.equal(m.score.first_try, 0);
      assert.ok(m.tasks.length > 0);
      for (const t of m.tasks) {
        assert.equal(t.status, "failed", `${t.task}: ${t.why}`);
        assert.equal(t.attempts, 2);
        assert.equal(t.refused, 2, t.task);
      }
      assert.match(m.recommendation, /^do not delegate/);
    }
    assert.deepEqual(
      (await tree(box.dir)).filter((p) => !p.startsWith("project/.localexec/eval/")),
      [
        "a",
        "a/b",
        "a/b/tmp",
        "project",
        "project/.localexec",
        "project/.localexec.json",
        "project/.localexec/.gitignore",
        "project/.localexec/eval",
      ],
    );
    assert.equal(await Deno.stat(outside).then(() => true, () => false), false);
  } finally {
    await fake.close();
    await box.close();
  }
});

/** A small Python task for `--tasks` sets. */
async function writeTask(
  dir: string,
  name: string,
  spec: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await Deno.mkdir(join(dir, name, "files"), { recursive: true });
  await Deno.writeTextFile(join(dir, name, "files", "calc.py"), "def f():\n    return 1\n");
  await Deno.writeTextFile(
    join(dir, name, "task.json"),
    JSON.stringify({
      kind: "bug fix",
      spec,
      files_to_edit: ["calc.py"],
      checks: { t: { command: "grep -q 'return 2' calc.py" } },
      ...extra,
    }),
  );
}

const RIGHT = blocksFor("calc.py", "def f():\n    return 1\n", "def f():\n    return 2\n");
const WRONG = blocksFor("calc.py", "def f():\n    return 1\n", "def f():\n    return 3\n");
/** The fix of WRONG, once it is in the file. */
const MEND = blocksFor("calc.py", "def f():\n    return 3\n", "def f():\n    return 2\n");

Deno.test("a --tasks set is scored exactly against replies scripted per task", async () => {
  const other = "llama3.2:3b";
  const fake = await fakeModel([MODEL, other]);
  const box = await sandbox({ model: MODEL, ollama_host: fake.url, max_attempts: 2 });
  const tasks = join(box.dir, "my-tasks");
  await writeTask(tasks, "right-first", "Make f return 2 (task A).");
  await writeTask(tasks, "right-second", "Make f return 2 (task B).", { kind: "new function" });
  await writeTask(tasks, "never", "Make f return 2 (task C).");
  await writeTask(tasks, "no-toolchain", "Make f return 2 (task D).", {
    requires: ["no-such-toolchain-22"],
    language: "cobol",
  });
  const replies: Record<string, string[]> = {
    "task A": [RIGHT],
    "task B": [WRONG, MEND],
    "task C": ["I would rather not.", "Still no."],
  };
  const asked: Record<string, number> = {};
  fake.answer = (req: FakeChatRequest) => {
    asked[req.model] = (asked[req.model] ?? 0) + 1;
    if (req.model === other) return "QUESTION: what is f?";
    const key = Object.keys(replies).find((k) => promptText(req).includes(`(${k})`))!;
    return replies[key].shift()!;
  };
  try {
    const args = ["--tasks", tasks, "--models", `${MODEL},${other}`, "--jobs", "4"];
    const { result, stderr } = await runJson(box, args);
    assert.match(stderr, /--jobs 4 capped to 1: the configuration names 1 model host/);
    assert.deepEqual(result.models.map((r) => r.model), [MODEL, other]);
    // each model was asked as itself, once per attempt
    assert.deepEqual(asked, { [MODEL]: 5, [other]: 3 });
    const blocked = result.models[1];
    assert.deepEqual(blocked.tasks.map((t) => [t.status, t.attempts]), [
      ["blocked", 1],
      ["blocked", 1],
      ["blocked", 1],
    ]);
    assert.equal(blocked.score.passed, 0);
    const m = result.models[0];
    const byName = Object.fromEntries(m.tasks.map((t) => [t.task, t]));
    assert.deepEqual(Object.keys(byName).sort(), ["never", "right-first", "right-second"]);
    const facts = (n: string) => {
      const t = byName[n];
      return [t.status, t.attempts, t.first_try, t.refused];
    };
    assert.deepEqual(facts("right-first"), ["passed", 1, true, 0]);
    assert.deepEqual(facts("right-second"), ["passed", 2, false, 0]);
    assert.deepEqual(facts("never"), ["failed", 2, false, 2]);
    assert.deepEqual(
      [m.score.tasks, m.score.passed, m.score.first_try, m.score.median_attempts],
      [3, 2, 1, 2],
    );
    assert.deepEqual(result.skipped, [
      { language: "cobol", tasks: 1, why: "no-such-toolchain-22 not found on PATH" },
    ]);
    assert.equal(
      m.recommendation,
      "delegate new functions; keep bug fixes for yourself",
    );
    const table = renderTables(result);
    assert.match(table, /^ {2}python +3 +2 +1 +2 /m);
    assert.match(table, /^ {2}cobol +skipped: no-such-toolchain-22 not found on PATH \(1 tasks\)/m);
    // the eval record's rows, apart from real work, as status shows them
    const rows = await evalRows(box.root);
    const conn = await connectInProcess(box.root);
    try {
      const status = await callMcp(conn.client, "status");
      assert.equal(status.tasks, 0, "no eval task among the project's tasks");
      assert.deepEqual(status.eval_record, rows);
    } finally {
      await conn.close();
    }
    assert.deepEqual(rows.map((r) => [r.model, r.kind, r.tasks, r.passed, r.first_try, r.eval]), [
      [other, "python", 3, 0, 0, true],
      [MODEL, "python", 3, 2, 1, true],
    ]);
  } finally {
    await fake.close();
    await box.close();
  }
});

Deno.test("Ctrl-C cancels eval cleanly and leaves no temp project behind", async () => {
  const fake = await fakeModel();
  fake.chatMode = "hang"; // the model never answers: the task is mid-call when Ctrl-C comes
  const box = await sandbox({ model: MODEL, ollama_host: fake.url });
  const tasks = join(box.dir, "my-tasks");
  await writeTask(tasks, "slow", "Make f return 2 (slow).");
  try {
    const child = spawnEval(box, ["--tasks", tasks]);
    await fake.waitForChats(1);
    const live = (await tree(box.tmp)).filter((p) => p.startsWith(TEMP_PREFIX) && !p.includes("/"));
    assert.equal(live.length, 1);
    child.kill("SIGINT");
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 130, stderr);
    assert.match(stderr, /cancelled; no temporary project is left/);
    assert.equal(new TextDecoder().decode(out.stdout), "");
    assert.deepEqual(await tree(box.tmp), []);
    assert.deepEqual(await tree(box.root), [".localexec.json"]);
  } finally {
    await fake.close();
    await box.close();
  }
});

Deno.test("a model no task reaches measures nothing: exit 1, no record", async () => {
  // The server answers, but the model is not installed there.
  const fake = await fakeModel(["other-coder:1b"]);
  const box = await sandbox({ model: MODEL, ollama_host: fake.url });
  const tasks = join(box.dir, "my-tasks");
  await writeTask(tasks, "one", "Make f return 2.");
  try {
    const out = await runEval(box, ["--tasks", tasks]);
    assert.equal(out.code, 1, out.stderr);
    assert.match(out.stdout, /recommendation: no task reached the model \(.+\): nothing measured/);
    assert.deepEqual(await tree(box.root), [".localexec.json"]);
  } finally {
    await fake.close();
    await box.close();
  }
});

Deno.test("eval with no model server says so once, with the fix, and runs nothing", async () => {
  const url = closedUrl();
  const box = await sandbox({ model: MODEL, ollama_host: url });
  try {
    const out = await runEval(box, []);
    assert.equal(out.code, 1, out.stderr);
    assert.equal(out.stdout, "");
    const lines = out.stderr.trim().split("\n");
    assert.equal(lines.length, 1, out.stderr);
    assert.match(lines[0], /^localexec eval: no model server answered, so no task was run: /);
    assert.ok(lines[0].includes(`Ollama is not reachable at ${url}`), lines[0]);
    assert.match(
      lines[0],
      /`ollama serve`.*`ollama pull qwen2\.5-coder:7b`.*point ollama_host in /,
    );
    assert.ok(lines[0].includes(join(box.root, ".localexec.json")), lines[0]);
    assert.deepEqual(await tree(box.root), [".localexec.json"]);
    assert.deepEqual(await tree(box.tmp), []);
  } finally {
    await box.close();
  }
});

Deno.test("eval skips a language whose toolchain is installed but does not run", async () => {
  const fake = await fakeModel();
  fake.answer = RIGHT;
  const box = await sandbox({ model: MODEL, ollama_host: fake.url });
  const tasks = join(box.dir, "my-tasks");
  await writeTask(tasks, "py", "Make f return 2.");
  await Deno.mkdir(join(tasks, "rs", "files"), { recursive: true });
  await Deno.writeTextFile(join(tasks, "rs", "files", "lib.rs"), "pub fn f() -> i32 { 1 }\n");
  await Deno.writeTextFile(
    join(tasks, "rs", "task.json"),
    JSON.stringify({
      kind: "bug fix",
      spec: "Make f return 2.",
      files_to_edit: ["lib.rs"],
      checks: { t: { command: "grep -q 2 lib.rs" } },
    }),
  );
  // rustup's rustc with no default toolchain: on PATH, but exits 1.
  const bin = join(box.dir, "bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    join(bin, "rustc"),
    '#!/bin/sh\necho "error: rustup could not choose a version of rustc to run, because one ' +
      "wasn't specified explicitly, and no default is configured.\" >&2\nexit 1\n",
  );
  await Deno.chmod(join(bin, "rustc"), 0o755);
  try {
    const { result, stderr } = await runJson(box, ["--tasks", tasks], { PATH: `${bin}:${PATH}` });
    assert.equal(result.skipped.length, 1, stderr);
    const [skip] = result.skipped;
    assert.deepEqual([skip.language, skip.tasks], ["rust", 1]);
    assert.match(skip.why, /^rustc is installed but does not run: `rustc --version` exited 1: /);
    assert.match(skip.why, /rustup could not choose a version of rustc/);
    assert.match(stderr, /rust skipped: rustc is installed but does not run/);
    assert.deepEqual(result.models[0].tasks.map((t) => [t.task, t.status]), [["py", "passed"]]);
  } finally {
    await fake.close();
    await box.close();
  }
});

Deno.test("eval's command line", () => {
  const e = parseCli(["eval", "--models", "a, b", "--jobs", "3", "--json"], "/p").eval;
  assert.deepEqual(e, { models: ["a", "b"], tasks: undefined, jobs: 3, json: true });
  assert.throws(() => parseCli(["serve", "--models", "a"], "/p"), /--models is an option of eval/);
  assert.throws(() => parseCli(["eval", "--jobs", "0"], "/p"), /--jobs takes a whole number/);
  assert.throws(() => parseCli(["eval", "--models", ","], "/p"), /--models needs/);
});

Deno.test("a task folder with a typo is refused with its name and key", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await writeTask(dir, "typo", "x", { file_to_edit: ["calc.py"] });
    await assert.rejects(loadTasks(dir), /task typo: unknown key "file_to_edit"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
