/**
 * What delegating saves (docs/EVAL.md, "What delegating saves"): per passed task, the caller's
 * tokens for the call and its verdict against those of reading the files and writing the change
 * itself, both by the same estimate; kept in the task record, summed in `status.record`, and
 * printed per model by `localexec eval` (a real `--tasks` run against the scripted Ollama).
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import type { EvalResult } from "../../lib/eval/mod.ts";
import { addedLines, savings } from "../../lib/implement/savings.ts";
import { estimateTokens } from "../../lib/implement/context_size.ts";
import { readRecord } from "../../lib/tasks/mod.ts";
import { startFakeOllama } from "../helpers/fake_ollama.ts";
import { blocksFor } from "../helpers/eval_model.ts";
import { callMcp, connectInProcess, FULL, MAIN } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { CALC, FIX_ADD, MODEL } from "../helpers/calc.ts";

const NOTES = "add() must add its two arguments; sub() subtracts.\n".repeat(20);

Deno.test("savings: the added lines of a patch, and both sides by the same estimate", () => {
  const patch = "--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n" +
    "+    return 2\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+++x\n";
  assert.equal(addedLines(patch), "    return 2\n++x");
  const call = { task_id: "T", spec: "s" };
  const verdict = { status: "passed" };
  const s = savings({ call, verdict, read: ["aaa", "bbb"], patch });
  assert.deepEqual(s, {
    call_tokens: estimateTokens(JSON.stringify(call)) + estimateTokens(JSON.stringify(verdict)),
    self_tokens: estimateTokens("aaa") + estimateTokens("bbb") + estimateTokens(addedLines(patch)),
  });
});

Deno.test("a passed task records what it saved the caller, and status.record sums it", async () => {
  const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
  const root = await tempProject({
    "calc.py": CALC,
    "notes.md": NOTES,
    ".localexec.json": JSON.stringify({
      model: MODEL,
      ollama_host: fake.url,
      checks: { add: { command: "grep -q 'return a + b' calc.py" } },
    }),
  });
  const conn = await connectInProcess(root);
  try {
    const args = {
      task_id: "S1",
      spec: "Fix add() so that it adds",
      files_to_edit: ["calc.py"],
      context_files: ["notes.md"],
    };
    fake.script(FIX_ADD);
    const verdict = await callMcp(conn.client, "implement_task", args);
    assert.equal(verdict.status, "passed", JSON.stringify(verdict));
    const patch = await Deno.readTextFile(join(root, ".localexec/S1.patch"));
    const record = await readRecord(root, "S1");
    const expected = savings({ call: args, verdict, read: [CALC, NOTES], patch });
    assert.deepEqual(
      { call_tokens: record?.call_tokens, self_tokens: record?.self_tokens },
      expected,
    );
    // A failed task saved nothing: it counts in neither sum.
    fake.script("no edit here", "nor here", "nor here");
    const failed = await callMcp(conn.client, "implement_task", { ...args, task_id: "S2" });
    assert.equal(failed.status, "failed");
    assert.equal((await readRecord(root, "S2"))?.call_tokens, undefined);
    const status = await callMcp(conn.client, "status");
    const rows = status.record as Record<string, unknown>[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0].tasks, 2);
    assert.equal(rows[0].call_tokens, expected.call_tokens);
    assert.equal(rows[0].self_tokens, expected.self_tokens);
    assert.ok(expected.self_tokens > expected.call_tokens, JSON.stringify(expected));
  } finally {
    await conn.close();
    await fake.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("eval prints what delegating saved per model, and --json has it per task", async () => {
  const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "eval-savings-" }));
  const root = join(dir, "project");
  const task = join(dir, "tasks", "fix-f");
  await Deno.mkdir(root);
  await Deno.mkdir(join(task, "files"), { recursive: true });
  await Deno.writeTextFile(
    join(root, ".localexec.json"),
    JSON.stringify({ model: MODEL, ollama_host: fake.url }),
  );
  await Deno.writeTextFile(join(task, "files", "calc.py"), "def f():\n    return 1\n");
  await Deno.writeTextFile(
    join(task, "task.json"),
    JSON.stringify({
      spec: "Make f return 2.",
      files_to_edit: ["calc.py"],
      checks: { t: { command: "grep -q 'return 2' calc.py" } },
    }),
  );
  const run = async (json: boolean) => {
    fake.answer = () =>
      blocksFor("calc.py", "def f():\n    return 1\n", "def f():\n    return 2\n");
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        ...FULL,
        MAIN,
        "eval",
        "--root",
        root,
        "--tasks",
        join(dir, "tasks"),
        ...(json ? ["--json"] : []),
      ],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    assert.equal(out.code, 0, dec.decode(out.stderr));
    return dec.decode(out.stdout);
  };
  try {
    const result = JSON.parse(await run(true)) as EvalResult;
    const [t] = result.models[0].tasks;
    assert.equal(t.status, "passed");
    assert.ok(t.call_tokens! > 0 && t.self_tokens! > 0, JSON.stringify(t));
    assert.equal(result.models[0].score.call_tokens, t.call_tokens);
    assert.equal(result.models[0].score.self_tokens, t.self_tokens);
    const table = await run(false);
    const n = (x: number) => x.toLocaleString("en-US");
    assert.match(
      table,
      new RegExp(
        `^ {2}delegating (saved|cost) the caller [\\d,]+ (more )?tokens over 1 passed task: ${
          n(t.call_tokens!)
        } for the calls and verdicts against ${n(t.self_tokens!)} to read the files and ` +
          "write the changes itself",
        "m",
      ),
    );
  } finally {
    await fake.close();
    await Deno.remove(dir, { recursive: true });
  }
});
