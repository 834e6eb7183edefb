/**
 * The task tools, `.localexec.json` and `localexec init` judged from the outside: the real server
 * over stdio with the SDK `Client` (which checks every result against the tool's output schema),
 * and `main.ts` run as a user runs it. Tasks are made with the task store's own API.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { withProjectLock } from "../../lib/tasks/lock.ts";
import { applyFiles, beginTask, updateTask, writePatch } from "../../lib/tasks/mod.ts";
import { callMcp, connectInProcess, MAIN } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";

/** Records a finished task `id` that wrote `edits`. */
async function task(root: string, id: string, edits: Record<string, string>): Promise<void> {
  await withProjectLock(root, { tool: "test", taskId: id }, async () => {
    await beginTask(root, { id, spec: `spec of ${id}`, files: Object.keys(edits) });
    await applyFiles(root, id, new Map(Object.entries(edits)));
    await writePatch(root, id);
    await updateTask(root, id, { status: "passed", attempts: 1 });
  });
}

/** Runs `main.ts ARGS` in `cwd`; returns exit code, stdout and stderr. */
async function cli(cwd: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "-A", MAIN, ...args],
    cwd,
    env,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const LINES = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n") + "\n";

Deno.test("show_patch clamps any max_lines, fractions included, instead of refusing it", async () => {
  const root = await tempProject({ "a.txt": LINES });
  await task(root, "P1", { "a.txt": LINES.replace(/line (\d+)/g, "LINE $1") });
  const conn = await connectInProcess(root);
  try {
    // 30 changed lines: headers (3) + 30 removed + 30 added = 63 lines in the reduced diff.
    for (const [max, shown] of [[0, 5], [-5, 5], [2.5, 5], [7.9, 7], [1000, 63]]) {
      const out = await callMcp(conn.client, "show_patch", { task_id: "P1", max_lines: max });
      assert.equal(out.status, "ok", `max_lines ${max}: ${JSON.stringify(out)}`);
      assert.equal(String(out.diff).split("\n").length, shown, `max_lines ${max}`);
      if (shown < 63) assert.match(String(out.note), new RegExp(`showing ${shown} of 63 lines`));
    }
  } finally {
    await conn.close();
  }
});

Deno.test("show_patch narrows to a file named with ./, .. or its absolute path", async () => {
  const root = await tempProject({ "a.txt": "a\n", "src/b.txt": "b\n" });
  await task(root, "P2", { "a.txt": "A\n", "src/b.txt": "B\n" });
  const conn = await connectInProcess(root);
  try {
    for (const file of ["src/b.txt", "./src/b.txt", "src/../src/b.txt", join(root, "src/b.txt")]) {
      const out = await callMcp(conn.client, "show_patch", { task_id: "P2", file });
      assert.equal(out.status, "ok", `${file}: ${JSON.stringify(out)}`);
      assert.match(String(out.diff), /^--- a\/src\/b\.txt\n/, file);
      assert.doesNotMatch(String(out.diff), /a\.txt\n\+\+\+ b\/a\.txt/, file);
    }
    const outside = await callMcp(conn.client, "show_patch", {
      task_id: "P2",
      file: "/etc/passwd",
    });
    assert.equal(outside.status, "error");
  } finally {
    await conn.close();
  }
});

Deno.test("show_patch shortens very long diff lines and says where they are whole", async () => {
  const root = await tempProject({ "min.js": `var a=${"1+".repeat(5000)}1;\n` });
  await task(root, "P3", { "min.js": `var a=${"2+".repeat(5000)}2;\n` });
  const conn = await connectInProcess(root);
  try {
    const out = await callMcp(conn.client, "show_patch", { task_id: "P3" });
    assert.equal(out.status, "ok");
    assert.ok(JSON.stringify(out).length < 1500, `${JSON.stringify(out).length} characters`);
    assert.match(String(out.diff), /^-var a=1\+1\+.*… \[\d+ chars cut\]$/m);
    assert.match(String(out.note), /2 long lines were shortened.*\.localexec\/P3\.patch/);
  } finally {
    await conn.close();
  }
});

Deno.test("list_tasks clamps any limit and keeps each line short", async () => {
  const root = await tempProject();
  const deep = `${"deep/".repeat(40)}file.txt`;
  await task(root, "L1", { "a.txt": "1\n" });
  await task(root, "L2", { [deep]: "2\n" });
  await task(root, "L3", { "c.txt": "3\n" });
  const conn = await connectInProcess(root);
  try {
    for (const [limit, shown] of [[0, 1], [-4, 1], [2.5, 2], [5000, 3]]) {
      const out = await callMcp(conn.client, "list_tasks", { limit });
      assert.equal(out.status, "ok", `limit ${limit}: ${JSON.stringify(out)}`);
      assert.equal(out.total, 3);
      assert.equal((out.tasks as string[]).length, shown, `limit ${limit}`);
    }
    const all = await callMcp(conn.client, "list_tasks", {});
    const line = (all.tasks as string[]).find((l) => l.startsWith("L2 "))!;
    assert.match(line, /^L2 passed 1 attempt …(\/deep)+\/file\.txt — spec of L2$/);
    assert.ok(line.length < 120, line);
  } finally {
    await conn.close();
  }
});

Deno.test("run_checks reads a .localexec.json that starts with a byte order mark", async () => {
  const config = JSON.stringify({ checks: { ok: { command: "true" } } });
  const root = await tempProject({ ".localexec.json": `\ufeff${config}` });
  const conn = await connectInProcess(root);
  try {
    const out = await callMcp(conn.client, "run_checks", {});
    assert.equal(out.status, "passed", JSON.stringify(out));
    const results = out.results as { name: string; ok: boolean }[];
    assert.deepEqual(results.map((r) => [r.name, r.ok]), [["ok", true]]);
  } finally {
    await conn.close();
  }
});

Deno.test("init writes ollama_host from OLLAMA_HOST, and test checks a new project passes", async () => {
  const root = await tempProject({ "deno.json": "{}", "main.ts": "export const x = 1;\n" });
  const env = { OLLAMA_HOST: "10.1.2.3:9999" };
  const init = await cli(root, ["init"], env);
  assert.equal(init.code, 0, init.stderr);
  const written = JSON.parse(await Deno.readTextFile(join(root, ".localexec.json")));
  assert.equal(written.ollama_host, "http://10.1.2.3:9999");
  // A fresh project has no tests yet: the written checks must not fail it for that.
  const run = await cli(root, ["call", "run_checks", "{}"], env);
  assert.equal(run.code, 0, run.stdout);
  assert.equal(JSON.parse(run.stdout).status, "passed", run.stdout);
  const plain = await tempProject({ "deno.json": "{}" });
  await cli(plain, ["init"], { OLLAMA_HOST: "" });
  const defaults = JSON.parse(await Deno.readTextFile(join(plain, ".localexec.json")));
  assert.equal(defaults.ollama_host, "http://127.0.0.1:11434");
});

Deno.test("init's pytest check passes a Python project without tests, fails a failing one", async () => {
  const probe = await new Deno.Command("python3", { args: ["-m", "pytest", "--version"] })
    .output().catch(() => undefined);
  if (!probe?.success) return; // pytest is not installed here: nothing to run the check with
  const root = await tempProject({ "pyproject.toml": "", "calc.py": "x = 1\n" });
  assert.equal((await cli(root, ["init"])).code, 0);
  const empty = await cli(root, ["call", "run_checks", "{}"]);
  assert.equal(JSON.parse(empty.stdout).status, "passed", empty.stdout);
  await Deno.writeTextFile(join(root, "test_calc.py"), "def test_x():\n    assert 1 == 2\n");
  const failing = await cli(root, ["call", "run_checks", "{}"]);
  assert.equal(JSON.parse(failing.stdout).failed_check, "tests", failing.stdout);
});

Deno.test("run_checks fails a check that hangs past timeout_s with the reference's fields", async () => {
  const root = await tempProject({
    ".localexec.json": JSON.stringify({
      checks: {
        hang: { command: "sleep 60 & sleep 60; echo never", timeout_s: 1 },
        after: { command: ["sh", "-c", "echo fine"] },
      },
    }),
  });
  const conn = await connectInProcess(root);
  try {
    const out = await callMcp(conn.client, "run_checks", {});
    assert.equal(out.status, "failed");
    assert.equal(out.failed_check, "hang");
    const results = out.results as Record<string, unknown>[];
    // Each entry holds exactly name, ok, secs (and skipped when it was): the timeout is a note.
    assert.deepEqual(results.map((r) => Object.keys(r).sort()), [
      ["name", "ok", "secs"],
      ["name", "ok", "secs"],
    ]);
    assert.deepEqual(results.map((r) => [r.name, r.ok]), [["hang", false], ["after", true]]);
    assert.match(String(out.note), /check hang timed out after 1 s and was killed/);
    assert.match(String(out.output), /timed out after 1 s/);
  } finally {
    await conn.close();
  }
});

Deno.test("revert_task removes the folders a task created even when its file is gone", async () => {
  const root = await tempProject({ "keep.txt": "k\n" });
  await task(root, "R1", { "new/deep/c.py": "x = 1\n" });
  await Deno.remove(join(root, "new/deep/c.py"));
  const conn = await connectInProcess(root);
  try {
    const out = await callMcp(conn.client, "revert_task", { task_id: "R1" });
    assert.deepEqual(out, { status: "reverted", restore: [], remove: [] });
    await assert.rejects(() => Deno.lstat(join(root, "new")), Deno.errors.NotFound);
    const again = await callMcp(conn.client, "revert_task", { task_id: "R1" });
    assert.equal(again.status, "already_reverted");
  } finally {
    await conn.close();
  }
});

Deno.test("show_patch cut by max_lines is still a patch git applies to the originals", async () => {
  const before = Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const after = before.replace("line 3\n", "LINE 3\nextra\n").replace("line 30\n", "LINE 30\n");
  const root = await tempProject({ "a.txt": before, "b.txt": "b\n" });
  await task(root, "P4", { "a.txt": after, "b.txt": "B\n" });
  const conn = await connectInProcess(root);
  try {
    for (const max of [5, 6, 7, 9, 11, 12, 13, 15]) {
      const out = await callMcp(conn.client, "show_patch", { task_id: "P4", max_lines: max });
      const diff = `${out.diff}\n`;
      const check = await new Deno.Command("git", {
        args: ["apply", "--check", "--unidiff-zero", "-"],
        cwd: await tempProject({ "a.txt": before, "b.txt": "b\n" }),
        stdin: "piped",
        stderr: "piped",
      }).spawn();
      const writer = check.stdin.getWriter();
      await writer.write(new TextEncoder().encode(diff));
      await writer.close();
      const result = await check.output();
      const why = new TextDecoder().decode(result.stderr);
      assert.ok(result.success, `max_lines ${max}: ${why}\n${diff}`);
      assert.ok(diff.split("\n").length - 1 <= max, `max_lines ${max}`);
    }
  } finally {
    await conn.close();
  }
});
