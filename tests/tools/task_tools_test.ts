import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { applyFiles, beginTask, revertTask, updateTask, writePatch } from "../../lib/tasks/mod.ts";
import listTasksTool from "../../tools/list_tasks.ts";
import runChecksTool from "../../tools/run_checks.ts";
import showPatchTool from "../../tools/show_patch.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { callJson, tempProject, testContext } from "../helpers/project.ts";

function config(checks: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ model: "m", checks, ...extra });
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}

Deno.test("run_checks without a config or with unknown names says what to do", async () => {
  const root = await tempProject();
  const ctx = testContext(root);
  const none = await callJson(runChecksTool, {}, ctx);
  assert.equal(none.status, "error");
  assert.match(
    String(none.error),
    /no checks configured: \.localexec\.json not found; run "localexec init"/,
  );
  await Deno.writeTextFile(join(root, ".localexec.json"), config({ lint: { command: "true" } }));
  const unknown = await callJson(runChecksTool, { names: ["pytest"] }, ctx);
  assert.match(String(unknown.error), /unknown check "pytest"; configured checks: lint/);
  await Deno.writeTextFile(join(root, ".localexec.json"), '{"checks": {"lint": {}}}');
  const bad = await callJson(runChecksTool, {}, ctx);
  assert.match(String(bad.error), /checks\.lint\.command: missing/);
});

Deno.test("run_checks says a check that cannot start is a setup error, with the fix", async () => {
  const root = await tempProject({
    ".localexec.json": config({ lint: { command: "true" }, tests: { command: "pytestt -q" } }),
  });
  const out = await callJson(runChecksTool, {}, testContext(root));
  assert.equal(out.status, "error");
  assert.equal(out.failed_check, "tests");
  assert.match(
    String(out.error),
    /^check tests cannot start: pytestt: command not found — is it installed and on PATH\? fix the "command" of checks\.tests in \.localexec\.json$/,
  );
  assert.equal(
    (await callJson(runChecksTool, { names: ["lint"] }, testContext(root))).status,
    "passed",
  );
});

Deno.test("run_checks reports passed and failed in the reference's shape", async () => {
  const root = await tempProject({
    ".localexec.json": config({
      standards: { command: "echo standards ok" },
      pytest: { command: ["sh", "-c", "echo '1 failed: test_add'; exit 1"] },
    }),
  });
  const progress: string[] = [];
  const out = await callJson(runChecksTool, {}, testContext(root, { progress }));
  assert.deepEqual(Object.keys(out).sort(), ["failed_check", "log", "output", "results", "status"]);
  assert.equal(out.status, "failed");
  assert.equal(out.failed_check, "pytest");
  assert.equal(out.log, ".localexec/run_checks.log");
  assert.match(String(out.output), /1 failed: test_add/);
  const results = out.results as Record<string, unknown>[];
  assert.deepEqual(results.map((r) => Object.keys(r).sort()), [["name", "ok", "secs"], [
    "name",
    "ok",
    "secs",
  ]]);
  assert.deepEqual(results.map((r) => [r.name, r.ok]), [["standards", true], ["pytest", false]]);
  assert.deepEqual(progress, ["running check standards 1/2", "running check pytest 2/2"]);
  const log = await Deno.readTextFile(join(root, ".localexec/run_checks.log"));
  assert.match(log, /standards ok/);
  const passed = await callJson(runChecksTool, { names: ["standards"] }, testContext(root));
  assert.deepEqual(Object.keys(passed).sort(), ["log", "results", "status"]);
  assert.equal(passed.status, "passed");
  const fresh = await Deno.readTextFile(join(root, ".localexec/run_checks.log"));
  assert.doesNotMatch(fresh, /test_add/);
});

Deno.test("run_checks scopes {files} to a task, or to open tasks plus git changes", async () => {
  const root = await tempProject({
    ".localexec.json": config({
      py: { command: "echo {files} > py.out", files_filter: ["*.py"] },
      rs: { command: "echo {files}", files_filter: ["*.rs"] },
    }),
    "tracked.py": "1\n",
    "clean.py": "1\n",
    "task.py": "1\n",
    "done.py": "1\n",
  });
  await git(root, "init", "-q");
  await git(root, "add", "tracked.py", "clean.py");
  await git(root, "commit", "-qm", "init");
  await Deno.writeTextFile(join(root, "tracked.py"), "2\n");
  await beginTask(root, { id: "T1", spec: "s", files: ["task.py"] });
  await updateTask(root, "T1", { status: "passed" });
  await beginTask(root, { id: "T0", spec: "s", files: ["done.py"] });
  await revertTask(root, "T0");
  const ctx = testContext(root);
  const all = await callJson(runChecksTool, {}, ctx);
  assert.equal(all.status, "passed");
  assert.deepEqual(
    (all.results as Record<string, unknown>[]).map((r) => [r.name, r.skipped ?? false]),
    [["py", false], ["rs", true]],
  );
  const got = (await Deno.readTextFile(join(root, "py.out"))).trim().split(" ").sort();
  assert.deepEqual(got, ["task.py", "tracked.py"]);
  await callJson(runChecksTool, { task_id: "T0" }, ctx);
  assert.equal((await Deno.readTextFile(join(root, "py.out"))).trim(), "done.py");
  const unknown = await callJson(runChecksTool, { task_id: "T9" }, ctx);
  assert.match(
    String(unknown.error),
    /no task "T9"; recent tasks: T0, T1|no task "T9"; recent tasks: T1, T0/,
  );
  const skipped = await callJson(runChecksTool, { names: ["rs"] }, ctx);
  assert.equal(skipped.status, "passed");
  assert.match(String(skipped.note), /every check was skipped/);
});

Deno.test("list_tasks shows one line per task, newest first, with totals", async () => {
  const root = await tempProject({ "calc.py": "a\n", "b.py": "" });
  const ctx = testContext(root);
  const empty = await callJson(listTasksTool, {}, ctx);
  assert.deepEqual(empty, {
    status: "ok",
    total: 0,
    tasks: [],
    totals: { prompt_tokens: 0, reply_tokens: 0, model_secs: 0, check_secs: 0 },
  });
  await beginTask(root, {
    id: "T1",
    spec: "Fix add so that it adds\nand more text",
    files: ["calc.py"],
  });
  await updateTask(root, "T1", {
    status: "passed",
    attempts: 1,
    prompt_tokens: 1200,
    reply_tokens: 80,
    model_secs: 3.25,
    check_secs: 1.5,
  });
  await new Promise((r) => setTimeout(r, 5));
  await beginTask(root, { id: "T2", spec: "x".repeat(200), files: ["b.py", "calc.py"] });
  await updateTask(root, "T2", { status: "failed", attempts: 3, prompt_tokens: 10 });
  await revertTask(root, "T2");
  const out = await callJson(listTasksTool, {}, ctx);
  assert.equal(out.total, 2);
  const tasks = out.tasks as string[];
  assert.match(tasks[0], /^T2 failed \[reverted\] 3 attempts b\.py, calc\.py — x{48}…$/);
  assert.equal(tasks[1], "T1 passed 1 attempt calc.py — Fix add so that it adds and more text");
  assert.deepEqual(out.totals, {
    prompt_tokens: 1210,
    reply_tokens: 80,
    model_secs: 3.3,
    check_secs: 1.5,
  });
  const one = await callJson(listTasksTool, { limit: 1 }, ctx);
  assert.equal((one.tasks as string[]).length, 1);
  assert.equal(one.total, 2);
  assert.match(String(one.note), /showing the newest 1 of 2/);
});

Deno.test("show_patch reduces the diff, clamps max_lines, notes drops, narrows to a file", async () => {
  const long = Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const root = await tempProject({ "a.py": long, "b.py": "keep\nold\nkeep\n" });
  await beginTask(root, { id: "P1", spec: "s", files: ["a.py", "b.py"] });
  const edited = long.replace("line 5\n", "line five\n").replace("line 30\n", "line thirty\n");
  await applyFiles(root, "P1", new Map([["a.py", edited], ["b.py", "keep\nnew\nkeep\n"]]));
  await writePatch(root, "P1");
  const ctx = testContext(root);
  const out = await callJson(showPatchTool, { task_id: "P1" }, ctx);
  assert.equal(out.status, "ok");
  assert.deepEqual(out.files, ["a.py", "b.py"]);
  assert.equal(out.stat, "+3 -3 in 2 files");
  assert.equal(out.patch, ".localexec/P1.patch");
  assert.equal(out.note, undefined);
  assert.equal(
    out.diff,
    [
      "--- a/a.py",
      "+++ b/a.py",
      "@@ -5,3 +5,3 @@",
      " line 4",
      "-line 5",
      "+line five",
      " line 6",
      "@@ -30,3 +30,3 @@",
      " line 29",
      "-line 30",
      "+line thirty",
      " line 31",
      "--- a/b.py",
      "+++ b/b.py",
      "@@ -1,3 +1,3 @@",
      " keep",
      "-old",
      "+new",
      " keep",
    ].join("\n"),
  );
  const short = await callJson(showPatchTool, { task_id: "P1", max_lines: 1 }, ctx);
  assert.equal((short.diff as string).split("\n").length, 5);
  assert.match(String(short.note), /showing 5 of 19 lines; pass file/);
  const big = await callJson(showPatchTool, { task_id: "P1", max_lines: 100000 }, ctx);
  assert.equal(big.note, undefined);
  const b = await callJson(showPatchTool, { task_id: "P1", file: "b.py" }, ctx);
  assert.match(String(b.diff), /^--- a\/b\.py\n\+\+\+ b\/b\.py\n@@ -1,3 \+1,3 @@/);
  assert.doesNotMatch(String(b.diff), /a\.py/);
  const wrong = await callJson(showPatchTool, { task_id: "P1", file: "c.py" }, ctx);
  assert.equal(wrong.status, "error");
  assert.match(String(wrong.error), /does not touch "c\.py"; its files: a\.py, b\.py/);
  const unknown = await callJson(showPatchTool, { task_id: "P9" }, ctx);
  assert.match(String(unknown.error), /no task "P9"; recent tasks: P1/);
});

Deno.test("show_patch computes the diff from backups for an interrupted run", async () => {
  const root = await tempProject({ "a.py": "x = 1\n" });
  await beginTask(root, { id: "I1", spec: "s", files: ["a.py", "n.py"] });
  await applyFiles(root, "I1", new Map([["a.py", "x = 2\n"], ["n.py", "y = 1\n"]]));
  const out = await callJson(showPatchTool, { task_id: "I1" }, testContext(root));
  assert.match(String(out.note), /computed from the backups/);
  assert.match(String(out.diff), /--- \/dev\/null\n\+\+\+ b\/n\.py\n@@ -0,0 \+1,1 @@\n\+y = 1/);
});

function vmHwmKb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]);
}

Deno.test("run_checks over MCP: 50 MB of output leaves server memory flat", async () => {
  const loud = (mb: number) => ({
    command: `echo START; head -c ${
      mb * 1024 * 1024
    } /dev/zero | tr '\\0' y; echo; echo END; exit 1`,
  });
  const root = await tempProject({
    ".localexec.json": config({
      warm: { command: "echo warm; exit 1" },
      loud: loud(50),
      louder: loud(150),
    }),
  });
  const conn = await connect(root);
  try {
    const warm = await callMcp(conn.client, "run_checks", { names: ["warm"] });
    assert.equal(warm.failed_check, "warm");
    const pid = conn.transport.pid!;
    const base = vmHwmKb(pid);
    const out = await callMcp(conn.client, "run_checks", { names: ["loud"] });
    assert.equal(out.failed_check, "loud");
    assert.ok(String(out.output).length < 2200);
    assert.match(String(out.output), /^START/);
    assert.match(String(out.output), /END$/);
    assert.ok(JSON.stringify(out).length < 3000);
    const log = await Deno.stat(join(root, ".localexec/run_checks.log"));
    assert.ok(log.size > 50 * 1024 * 1024);
    // Garbage collection lets the peak rise by a bounded amount (V8 collects the read buffers in
    // batches of tens of MB); it must not follow the output: 200 MB through the server in total,
    // while keeping one 150 MB output in memory would already raise the peak by 150 MB.
    await callMcp(conn.client, "run_checks", { names: ["louder"] });
    const grew = vmHwmKb(pid) - base;
    assert.ok(grew < 110_000, `200 MB of check output raised peak memory by ${grew} kB`);
  } finally {
    await conn.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("run_checks over MCP: one lock across calls and across two servers", async () => {
  const root = await tempProject({
    ".localexec.json": config({
      slow: { command: "echo start >> events.log; sleep 0.5; echo end >> events.log" },
    }),
  });
  const a = await connect(root);
  const b = await connect(root);
  try {
    const outs = await Promise.all([
      callMcp(a.client, "run_checks", {}),
      callMcp(a.client, "run_checks", {}),
      callMcp(b.client, "run_checks", {}),
    ]);
    assert.deepEqual(outs.map((o) => o.status), ["passed", "passed", "passed"]);
    const events = (await Deno.readTextFile(join(root, "events.log"))).trim();
    assert.equal(events, Array(3).fill("start\nend").join("\n"));
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("run_checks over MCP: a lock wait past lock_timeout_s names the holder", async () => {
  const root = await tempProject({
    ".localexec.json": config({ hang: { command: "touch started; sleep 3" } }, {
      lock_timeout_s: 0.5,
    }),
  });
  const a = await connect(root);
  const b = await connect(root);
  try {
    const first = callMcp(a.client, "run_checks", {});
    while (!(await Deno.lstat(join(root, "started")).catch(() => undefined))) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const messages: string[] = [];
    const result = await b.client.callTool({ name: "run_checks", arguments: {} }, undefined, {
      onprogress: (p) => messages.push(String(p.message)),
    });
    const out = JSON.parse((result.content as { text: string }[])[0].text);
    assert.equal(out.status, "error");
    assert.match(out.error, new RegExp(`locked by pid ${a.transport.pid} \\(run_checks\\) since`));
    assert.match(messages.join("\n"), /waiting for the project lock held by pid/);
    assert.equal((await first).status, "passed");
  } finally {
    await a.close();
    await b.close();
  }
});
