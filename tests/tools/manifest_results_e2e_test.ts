/**
 * Every tool's `outputSchema` (tools/manifest.json, as `tools/list` shows it) declares every field
 * the tool answers: the real server over stdio with the SDK client and a scripted Ollama drives
 * each tool into each status it answers, and each real answer is held to the listed schema
 * strictly (a field the schema does not declare, nested ones included, fails, as if every object
 * were `additionalProperties: false`).
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake_ollama.ts";
import { connect, type Connection } from "../helpers/mcp.ts";
import { git, tempProject } from "../helpers/project.ts";
import { CALC, FIX_ADD, MODEL, WRONG_ADD } from "../helpers/calc.ts";
import { writeEvalRecord } from "../../lib/eval/record.ts";
import { modelResult } from "../../lib/eval/report.ts";
import { strictProblems } from "../helpers/strict_schema.ts";
import { TOOL_NAMES } from "../../tools/mod.ts";

type Json = Record<string, unknown>;

/**
 * The statuses each tool answers, every one of them reached below (revert_task's `partial` aside:
 * it needs a revert raced by another writer). implement_task has no `timeout`: a model that does
 * not answer in time ends the task as `error`, its `why` saying so.
 */
const STATUSES: Record<string, string[]> = {
  list_files: ["ok", "error"],
  read_file: ["ok", "error"],
  write_file: ["ok", "error"],
  patch_file: ["ok", "error"],
  shell: ["ok", "failed", "timeout", "error"],
  run_python: ["ok", "failed", "timeout", "error"],
  implement_task: ["passed", "failed", "blocked", "conflict", "error", "running"],
  wait_tasks: ["ok", "error"],
  run_checks: ["passed", "failed", "error"],
  revert_task: ["reverted", "dry_run", "already_reverted", "ok", "error"],
  list_tasks: ["ok", "error"],
  show_patch: ["ok", "error"],
  status: ["ok", "error"],
  outline: ["ok", "error"],
  find: ["ok", "error"],
};

const ADD_CHECK = {
  command: "grep -q 'return a + b' calc.py || { echo 'FAIL test_add: add(2, 3) == -1'; exit 1; }",
};
const OTHER = "qwen2.5-coder:14b";
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

interface Lab {
  fake: FakeOllama;
  root: string;
  conn: Connection;
  answers: { tool: string; json: Json }[];
  call(tool: string, args?: Json): Promise<Json>;
  config(extra?: Json): Promise<void>;
}

async function _lab(): Promise<Lab> {
  const fake = await startFakeOllama({
    models: [{ name: MODEL, contextLength: 32768 }, { name: OTHER, contextLength: 32768 }],
  });
  const root = await tempProject({
    "calc.py": CALC,
    "notes.txt": "one\ntwo\nthree\n",
    "pic.png": PNG,
    "blob.bin": new Uint8Array([0, 1, 2, 3, 255, 0, 7]),
    "lib.ts": "export function twice(n: number): number {\n  return 2 * n;\n}\n",
    // More entries than list_files shows (200).
    ...Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`many/f${i}.txt`, ""])),
  });
  await git(root, "init", "-q");
  const answers: { tool: string; json: Json }[] = [];
  const lab: Lab = {
    fake,
    root,
    conn: undefined as unknown as Connection,
    answers,
    async call(tool, args = {}) {
      const result = await lab.conn.client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: 120_000,
      });
      const text = (result.content as { type: string; text?: string }[])[0].text!;
      const json = JSON.parse(text) as Json;
      assert.deepEqual(result.structuredContent, json, tool);
      answers.push({ tool, json });
      return json;
    },
    async config(extra = {}) {
      await Deno.writeTextFile(
        join(root, ".localexec.json"),
        JSON.stringify({
          model: MODEL,
          ollama_host: fake.url,
          max_attempts: 2,
          checks: { add: ADD_CHECK, lint: { command: "true {files}", files_filter: ["*.ts"] } },
          ...extra,
        }),
      );
    },
  };
  await lab.config();
  lab.conn = await connect(root);
  return lab;
}

/** Drives the host tools and the navigation tools into each of their statuses. */
async function _hostTools(l: Lab): Promise<void> {
  await l.call("list_files", {});
  await l.call("list_files", { directory: "many" });
  await l.call("list_files", { directory: "nope" });
  await l.call("read_file", { filename: "notes.txt", line_numbers: true });
  await l.call("read_file", { filename: "notes.txt", start_line: 2, end_line: 2, max_chars: 2 });
  await l.call("read_file", { filename: "pic.png" });
  await l.call("read_file", { filename: "blob.bin" });
  await l.call("read_file", { filename: "nope.txt" });
  await l.call("write_file", { file_path: "new.txt", content: "a\nb\n" });
  await l.call("write_file", { file_path: "../out.txt", content: "a" });
  await l.call("patch_file", { file_path: "notes.txt", from_line: 2, to_line: 2, content: "2" });
  await l.call("patch_file", { file_path: "notes.txt", from_line: 1, to_line: 1, content: "1" });
  await l.call("shell", { command: "echo hi" });
  await l.call("shell", { command: "echo no; exit 3" });
  await l.call("shell", { command: "kill -9 $$" });
  await l.call("shell", { command: "sleep 5", timeout: 1 });
  await l.call("shell", { command: "head -c 40000 /dev/zero | tr '\\0' x" });
  await l.call("shell", { command: "true", cwd: "nope" });
  await l.call("run_python", { code: "print(1)" });
  await l.call("run_python", { code: "raise SystemExit(2)" });
  await l.call("run_python", { code: "import time\ntime.sleep(5)", timeout: 1 });
  await l.call("run_python", { code: "print(1)", cwd: "nope" });
  await l.call("outline", { path: "lib.ts" });
  await l.call("outline", { path: "nope.ts" });
  await l.call("find", { pattern: "return", max_results: 1 });
  await l.call("find", { pattern: "two" });
  await l.call("find", { pattern: "(" });
}

/** Drives implement_task and the task tools into each of their statuses. */
async function _taskTools(l: Lab): Promise<void> {
  const task = (id: string, extra: Json = {}) =>
    l.call("implement_task", {
      task_id: id,
      spec: "Fix add()",
      files_to_edit: ["calc.py"],
      ...extra,
    });
  l.fake.script(FIX_ADD);
  await task("P1", { context_files: ["notes.txt"] });
  await l.call("show_patch", { task_id: "P1" });
  await l.call("show_patch", { task_id: "nope" });
  await l.call("run_checks", {});
  await l.call("run_checks", { task_id: "P1" });
  await l.call("run_checks", { names: ["nope"] });
  await l.call("revert_task", { task_id: "P1", dry_run: true });
  await l.call("revert_task", { task_id: "P1" });
  await l.call("revert_task", { task_id: "P1" });
  await l.call("revert_task", { task_id: "nope" });
  await l.call("run_checks", { names: ["add"] });
  // failed, on a ladder of two rungs (tried)
  await l.config({ model: undefined, ladder: [{ model: MODEL }, { model: OTHER }] });
  l.fake.script(WRONG_ADD, WRONG_ADD, WRONG_ADD, WRONG_ADD);
  await task("F1");
  await l.call("status", {});
  await l.call("revert_task", { task_id: "F1" });
  // A misspelt config key: the boundary adds the config's warnings to every answer that reads it.
  await l.config({ max_attempt: 2 });
  const warned = [
    await l.call("run_checks", { names: ["add"] }),
    await l.call("status", {}),
    await l.call("revert_task", { task_id: "F1" }),
  ];
  for (const w of warned) {
    assert.match(JSON.stringify(w.warnings), /did you mean/, JSON.stringify(w));
  }
  await l.config();
  l.fake.script("QUESTION: should add() also accept strings?");
  await task("B1");
  await task("E1", { checks: ["nope"] });
  await task("E2", { model: "nope:1b" });
  // conflict: the user changes the task's own line while the model writes
  l.fake.script(async () => {
    await Deno.writeTextFile(join(l.root, "calc.py"), CALC.replace("a - b", "b - a"));
    return FIX_ADD;
  });
  await task("C1");
  await Deno.writeTextFile(join(l.root, "calc.py"), CALC);
  // running, then collected
  l.fake.modelMs = 3_000;
  l.fake.script(FIX_ADD);
  await task("R1", { wait_s: 0 });
  await l.call("list_tasks", {});
  await l.call("revert_task", { task_id: "R1", dry_run: true });
  await l.call("wait_tasks", { timeout_s: 0 });
  await l.call("wait_tasks", { task_ids: ["R1", "nope"] });
  await l.call("wait_tasks", { task_ids: ["bad id!"], mode: "nope" });
  l.fake.modelMs = 0;
  await l.call("list_tasks", { limit: 1 });
  await l.call("list_tasks", { limit: "x" });
  await writeEvalRecord(l.root, {
    started: "2026-01-01T00:00:00Z",
    finished: "2026-01-01T00:01:00Z",
    suite: "bundled",
    models: [modelResult(MODEL, [{
      task: "py-fix",
      language: "python",
      kind: "bug fix",
      model: MODEL,
      status: "passed",
      passed: true,
      attempts: 1,
      first_try: true,
      seconds: 1,
      prompt_tokens: 100,
      reply_tokens: 10,
      refused: 0,
      why: "all checks passed",
      verdict: {},
    }])],
    skipped: [],
  });
  await l.call("status", {});
  await l.config({ ollama_host: "http://127.0.0.1:9" });
  await l.call("status", {});
  await l.call("implement_task", { task_id: "E3", spec: "x", files_to_edit: [] });
}

Deno.test("every tool's outputSchema declares every field of each status it answers", async () => {
  const l = await _lab();
  try {
    await _hostTools(l);
    await _taskTools(l);
  } finally {
    await l.conn.close();
    await l.fake.close();
  }
  try {
    const listed = await _listed(l.root);
    const problems: string[] = [];
    const seen = new Map<string, Set<string>>();
    for (const { tool, json } of l.answers) {
      const statuses = seen.get(tool) ?? new Set();
      seen.set(tool, statuses.add(String(json.status)));
      for (const p of strictProblems(listed.get(tool)!, json)) {
        problems.push(`${tool} (${json.status}): ${p}`);
      }
    }
    assert.deepEqual([...new Set(problems)], []);
    // Every registered tool is driven here (a new tool adds its statuses above).
    assert.deepEqual(Object.keys(STATUSES).sort(), [...TOOL_NAMES].sort());
    for (const [tool, statuses] of Object.entries(STATUSES)) {
      assert.deepEqual([...seen.get(tool) ?? []].sort(), [...statuses].sort(), tool);
    }
  } finally {
    await Deno.remove(l.root, { recursive: true });
  }
});

/** Each tool's outputSchema as a fresh server lists it. */
async function _listed(root: string): Promise<Map<string, Json>> {
  const conn = await connect(root);
  try {
    const { tools } = await conn.client.listTools();
    return new Map(tools.map((t) => [t.name, t.outputSchema as Json]));
  } finally {
    await conn.close();
  }
}
