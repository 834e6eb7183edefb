import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import shell from "../../tools/shell.ts";
import runPython from "../../tools/run_python.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { callJson, tempProject, testContext } from "../helpers/project.ts";

const TIMEOUT_NOTE = "killed after 1 s (whole process group); raise timeout for long commands";

/** True while `pid` is a live process (a zombie waiting to be reaped counts as gone). */
async function isAlive(pid: number): Promise<boolean> {
  const out = await new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] }).output();
  const stat = new TextDecoder().decode(out.stdout).trim();
  return out.success && stat !== "" && !stat.startsWith("Z");
}

/** Waits until `file` holds `count` pids (a line each), at most 10 s. */
async function waitForPids(file: string, count = 1): Promise<number[]> {
  for (let i = 0; i < 200; i++) {
    const text = await Deno.readTextFile(file).catch(() => "");
    const pids = text.split("\n").filter(Boolean).map(Number);
    if (pids.length >= count) return pids;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no pids in ${file}`);
}

/** Asserts that none of `pids` is alive (polling briefly), killing any survivor. */
async function assertGone(pids: number[]): Promise<void> {
  let alive = pids;
  for (let i = 0; i < 50 && alive.length; i++) {
    const next = [];
    for (const pid of alive) if (await isAlive(pid)) next.push(pid);
    alive = next;
    if (alive.length) await new Promise((r) => setTimeout(r, 100));
  }
  for (const pid of alive) Deno.kill(pid, "SIGKILL");
  assert.deepEqual(alive, [], "processes left behind");
}

Deno.test("shell runs a command and reports exit code 0 as ok", async () => {
  const root = await tempProject();
  const progress: string[] = [];
  const r = await callJson(shell, { command: "echo hi" }, testContext(root, { progress }));
  assert.deepEqual(r, { status: "ok", exit_code: 0, output: "hi\n" });
  assert.deepEqual(progress, ["running"]);
});

Deno.test("shell reports a non-zero exit as failed with its output", async () => {
  const root = await tempProject();
  const r = await callJson(shell, { command: "echo oops >&2; exit 3" }, testContext(root));
  assert.deepEqual(r, { status: "failed", exit_code: 3, output: "oops\n" });
});

Deno.test("shell merges stdout and stderr in order", async () => {
  const root = await tempProject();
  const r = await callJson(
    shell,
    { command: "echo 1; echo 2 >&2; echo 3; echo 4 >&2" },
    testContext(root),
  );
  assert.equal(r.output, "1\n2\n3\n4\n");
});

Deno.test("shell passes stdin, and an empty stdin when none is given", async () => {
  const root = await tempProject();
  const ctx = testContext(root);
  const fed = await callJson(shell, { command: "sort", stdin: "b\na\nc\n" }, ctx);
  assert.equal(fed.output, "a\nb\nc\n");
  const none = await callJson(shell, { command: "cat; echo end", stdin: null }, ctx);
  assert.deepEqual(none, { status: "ok", exit_code: 0, output: "end\n" });
});

Deno.test("shell keeps unicode intact both ways", async () => {
  const root = await tempProject();
  const text = "héllo wörld — 日本語 😀";
  const r = await callJson(
    shell,
    { command: 'cat; printf "\\n%s\\n" "ünï"', stdin: text },
    testContext(root),
  );
  assert.equal(r.output, `${text}\nünï\n`);
});

Deno.test("shell runs in cwd inside the root", async () => {
  const root = await tempProject({ "sub/deep/x.txt": "" });
  const r = await callJson(shell, { command: "pwd; ls", cwd: "sub/deep" }, testContext(root));
  assert.equal(r.output, `${join(root, "sub/deep")}\nx.txt\n`);
  const dflt = await callJson(shell, { command: "pwd" }, testContext(root));
  assert.equal(dflt.output, `${root}\n`);
});

Deno.test("shell refuses a cwd outside the root", async () => {
  const root = await tempProject();
  const outside = await tempProject();
  await Deno.symlink(outside, join(root, "link"));
  for (const cwd of ["..", "../x", "/", outside, "link", "a\0b"]) {
    const r = await callJson(shell, { command: "touch ran", cwd }, testContext(root));
    assert.equal(r.status, "error", cwd);
    assert.equal(r.escalate, false);
  }
  await assert.rejects(Deno.stat(join(outside, "ran")), Deno.errors.NotFound);
});

Deno.test("shell refuses a cwd that is a file or missing", async () => {
  const root = await tempProject({ "f.txt": "x" });
  const file = await callJson(shell, { command: "true", cwd: "f.txt" }, testContext(root));
  assert.deepEqual(file, {
    status: "error",
    error: 'cwd: "f.txt" is a file, not a folder',
    escalate: false,
  });
  const missing = await callJson(shell, { command: "true", cwd: "nope" }, testContext(root));
  assert.equal(missing.status, "error");
  assert.match(String(missing.error), /"nope" does not exist/);
});

Deno.test("shell timeout answers within 2 s and leaves no process behind", async () => {
  const root = await tempProject();
  const t0 = performance.now();
  const r = await callJson(
    shell,
    { command: "echo $$ > pids; sleep 30 & echo $! >> pids; echo waiting; sleep 30", timeout: 1 },
    testContext(root),
  );
  const took = performance.now() - t0;
  assert.ok(took < 2000, `answered after ${Math.round(took)} ms`);
  assert.deepEqual(r, {
    status: "timeout",
    exit_code: null,
    output: "waiting\n",
    note: TIMEOUT_NOTE,
  });
  await assertGone(await waitForPids(join(root, "pids"), 2));
});

Deno.test("shell timeout of a plain sleep leaves no sleep behind", async () => {
  const root = await tempProject();
  const command = `sleep 30.${Math.floor(Math.random() * 1e9)}`; // unique, for pgrep
  const t0 = performance.now();
  const r = await callJson(shell, { command, timeout: 1 }, testContext(root));
  assert.ok(performance.now() - t0 < 2000);
  assert.equal(r.status, "timeout");
  const left = await new Deno.Command("pgrep", { args: ["-f", command] }).output();
  assert.equal(new TextDecoder().decode(left.stdout), "", "a sleep survived");
});

Deno.test("shell reports a kill by signal with exit_code null", async () => {
  const root = await tempProject();
  const r = await callJson(shell, { command: "echo x; kill -9 $$" }, testContext(root));
  assert.deepEqual(r, { status: "failed", exit_code: null, output: "x\n", signal: "SIGKILL" });
});

Deno.test("shell caps long output and says how much was cut", async () => {
  const root = await tempProject();
  const r = await callJson(
    shell,
    { command: "echo FIRST; yes | head -c 1000000; echo LAST" },
    testContext(root),
  );
  const output = String(r.output);
  assert.equal(r.status, "ok");
  assert.ok(output.length <= 30_100, `output has ${output.length} characters`);
  assert.ok(output.startsWith("FIRST\ny\n") && output.endsWith("y\nLAST\n"));
  const cut = 6 + 1_000_000 + 5 - 30_000;
  assert.ok(output.includes(`[… ${cut} bytes of output cut …]`));
  assert.match(String(r.note), new RegExp(`output was 1000011 bytes; the middle ${cut} bytes`));
});

Deno.test("shell stops when the context is cancelled", async () => {
  const root = await tempProject();
  const controller = new AbortController();
  const call = callJson(
    shell,
    { command: "echo $$ > pids; sleep 30 & echo $! >> pids; sleep 30", timeout: 60 },
    testContext(root, { signal: controller.signal }),
  );
  const pids = await waitForPids(join(root, "pids"), 2);
  const t0 = performance.now();
  controller.abort();
  const r = await call;
  assert.ok(performance.now() - t0 < 2000, "ended soon after the abort");
  assert.deepEqual(r, { status: "error", error: "cancelled", escalate: false });
  await assertGone(pids);
});

Deno.test("shell defaults to a 5 s timeout and checks its arguments", async () => {
  assert.equal(shell.input.parse({ command: "x" }).timeout, 5);
  const root = await tempProject();
  for (
    const args of [{}, { command: "" }, { command: "x", timeout: 0 }, { command: "x", extra: 1 }]
  ) {
    const r = await callJson(shell, args, testContext(root));
    assert.equal(r.status, "error", JSON.stringify(args));
  }
});

Deno.test("run_python runs code and returns its output", async () => {
  const root = await tempProject();
  const progress: string[] = [];
  const r = await callJson(
    runPython,
    { code: "print(6 * 7)\nprint('héllo 😀')" },
    testContext(root, { progress }),
  );
  assert.deepEqual(r, { status: "ok", exit_code: 0, output: "42\nhéllo 😀\n" });
  assert.deepEqual(progress, ["running"]);
});

Deno.test("run_python returns a traceback as-is after earlier output", async () => {
  const root = await tempProject();
  const r = await callJson(
    runPython,
    { code: "print('before')\ndef f():\n    raise ValueError('boom')\nf()\n" },
    testContext(root),
  );
  assert.equal(r.status, "failed");
  assert.equal(r.exit_code, 1);
  const output = String(r.output);
  assert.ok(output.startsWith("before\nTraceback (most recent call last):\n"), output);
  assert.match(output, /line 4, in <module>/);
  assert.ok(output.endsWith("ValueError: boom\n"));
});

Deno.test("run_python reads stdin", async () => {
  const root = await tempProject();
  const r = await callJson(
    runPython,
    { code: "import sys\nprint(sys.stdin.read().upper(), end='')", stdin: "abc ü\n" },
    testContext(root),
  );
  assert.equal(r.output, "ABC Ü\n");
});

Deno.test("run_python runs in cwd and imports project modules from there", async () => {
  const root = await tempProject({ "pkg/helper.py": "X = 41\n" });
  const r = await callJson(
    runPython,
    { code: "import os, helper\nprint(helper.X + 1, os.getcwd())", cwd: "pkg" },
    testContext(root),
  );
  assert.equal(r.output, `42 ${join(root, "pkg")}\n`);
});

Deno.test("run_python writes its temp file under .localexec/tmp and removes it", async () => {
  const root = await tempProject();
  const r = await callJson(runPython, { code: "print(__file__)" }, testContext(root));
  const file = String(r.output).trim();
  assert.ok(file.startsWith(join(root, ".localexec/tmp/")), file);
  assert.ok(file.endsWith(".py"));
  await assert.rejects(Deno.stat(file), Deno.errors.NotFound);
  assert.equal(await Deno.readTextFile(join(root, ".localexec/.gitignore")), "*\n");
  assert.deepEqual(await Array.fromAsync(Deno.readDir(join(root, ".localexec/tmp"))), []);
});

Deno.test("run_python timeout kills the script and removes its temp file", async () => {
  const root = await tempProject();
  const t0 = performance.now();
  const r = await callJson(
    runPython,
    {
      code: "import os, time\nopen('pids', 'w').write(f'{os.getpid()}\\n')\nprint('sleeping')\n" +
        "time.sleep(30)",
      timeout: 3,
    },
    testContext(root),
  );
  // Killed at its 3 s timeout, long before the script's 30 s sleep ends. 3 s, not 1: Python must
  // have started and printed before the timeout for the output kept to be checked (a loaded
  // machine took over a second to start it).
  assert.ok(performance.now() - t0 < 20_000);
  assert.deepEqual(r, {
    status: "timeout",
    exit_code: null,
    output: "sleeping\n",
    note: TIMEOUT_NOTE.replace("1 s", "3 s"),
  });
  await assertGone(await waitForPids(join(root, "pids")));
  assert.deepEqual(await Array.fromAsync(Deno.readDir(join(root, ".localexec/tmp"))), []);
});

Deno.test("run_python stops when cancelled and removes its temp file", async () => {
  const root = await tempProject();
  const controller = new AbortController();
  const call = callJson(
    runPython,
    {
      code: "import os, time\nopen('pids', 'w').write(f'{os.getpid()}\\n')\ntime.sleep(30)",
      timeout: 60,
    },
    testContext(root, { signal: controller.signal }),
  );
  const pids = await waitForPids(join(root, "pids"));
  controller.abort();
  assert.deepEqual(await call, { status: "error", error: "cancelled", escalate: false });
  await assertGone(pids);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(join(root, ".localexec/tmp"))), []);
});

Deno.test("run_python refuses a cwd outside the root or a file", async () => {
  const root = await tempProject({ "f.py": "" });
  for (const cwd of ["..", "/tmp", "f.py", "missing"]) {
    const r = await callJson(runPython, { code: "print(1)", cwd }, testContext(root));
    assert.equal(r.status, "error", cwd);
  }
});

Deno.test("run_python refuses a .localexec that is a link leading elsewhere", async () => {
  const root = await tempProject();
  const outside = await tempProject();
  await Deno.symlink(outside, join(root, ".localexec"));
  const r = await callJson(runPython, { code: "print(1)" }, testContext(root));
  assert.equal(r.status, "error");
  assert.match(String(r.error), /"\.localexec" exists but is not a folder/);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(outside)), []);
});

Deno.test("shell over stdio times out within 2 s and the server keeps serving", async () => {
  const root = await tempProject();
  const conn = await connect(root);
  try {
    const t0 = performance.now();
    const r = await callMcp(conn.client, "shell", {
      command: "echo $$ > pids; sleep 30 & echo $! >> pids; sleep 30",
      timeout: 1,
    });
    const took = performance.now() - t0;
    assert.ok(took < 2000, `answered after ${Math.round(took)} ms`);
    assert.equal(r.status, "timeout");
    assert.equal(r.exit_code, null);
    assert.equal(r.note, TIMEOUT_NOTE);
    await assertGone(await waitForPids(join(root, "pids"), 2));
    const { tools } = await conn.client.listTools();
    assert.ok(tools.some((t) => t.name === "shell"));
  } finally {
    await conn.close();
  }
});

Deno.test("shell over stdio is stopped by MCP cancellation", async () => {
  const root = await tempProject();
  const conn = await connect(root);
  try {
    const controller = new AbortController();
    const call = conn.client.callTool(
      { name: "shell", arguments: { command: "echo $$ > pids; sleep 30", timeout: 60 } },
      undefined,
      { signal: controller.signal },
    );
    const pids = await waitForPids(join(root, "pids"));
    controller.abort();
    await assert.rejects(call);
    await assertGone(pids);
    const r = await callMcp(conn.client, "shell", { command: "echo still here" });
    assert.equal(r.output, "still here\n");
  } finally {
    await conn.close();
  }
});
