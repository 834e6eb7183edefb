/**
 * Asynchronous implement_task end to end: the real server over stdio, the SDK client, a scripted
 * Ollama whose model takes a fixed time per chat. A call with `wait_s` answers `running`, the task
 * goes on in the server, and wait_tasks collects the verdict the synchronous call would have
 * answered; revert_task cancels a running task; the server's exit leaves it interrupted.
 */
import assert from "node:assert/strict";
import { type FakeOllama, startFakeOllama } from "../helpers/fake_ollama.ts";
import { connect, type Connection } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { CALC, FIX_ADD, FIXED, MODEL, WRONG_ADD } from "../helpers/calc.ts";
import { join } from "../../lib/deps.ts";

const ADD_CHECK = {
  command: "grep -q 'return a + b' calc.py || { echo 'FAIL test_add: add(2, 3) == -1'; exit 1; }",
};
const TASK = {
  task_id: "T1-add",
  spec: "Fix add() so that it adds",
  files_to_edit: ["calc.py"],
};
/**
 * Runs a task whose first attempt leaves an edit in the tree and whose second is still with the
 * model (for a minute) when the function returns.
 */
async function editedAndRunning(env: Env): Promise<void> {
  env.fake.modelMs = 0;
  env.fake.script(WRONG_ADD, FIX_ADD);
  const first = await call(env.conn, "implement_task", TASK);
  assert.equal(first.json.status, "running");
  await env.fake.waitForChats(1);
  // The first chat has had its (no) model time; the second waits a minute.
  env.fake.modelMs = 60_000;
  await env.fake.waitForChats(2);
  assert.notEqual(await Deno.readTextFile(join(env.root, "calc.py")), CALC);
}

/** The model's time per chat: long enough that a `wait_s` of 1 passes first. */
const MODEL_MS = 3_000;

interface Env {
  fake: FakeOllama;
  root: string;
  conn: Connection;
  close(): Promise<void>;
}

async function setup(config: Record<string, unknown> = {}, args: string[] = []): Promise<Env> {
  const fake = await startFakeOllama({
    models: [{ name: MODEL, contextLength: 32768 }],
    modelMs: MODEL_MS,
  });
  const root = await tempProject({
    "calc.py": CALC,
    ".localexec.json": JSON.stringify({
      model: MODEL,
      ollama_host: fake.url,
      checks: { add: ADD_CHECK },
      ...config,
    }),
  });
  const conn = await connect(root, { args });
  return {
    fake,
    root,
    conn,
    async close() {
      await conn.close();
      await fake.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

let tokens = 0;

/** Calls `name` with a progress token; the JSON answer, and the progress messages of the call. */
async function call(
  conn: Connection,
  name: string,
  args: Record<string, unknown>,
  options: { signal?: AbortSignal } = {},
): Promise<{ json: Record<string, unknown>; progress: { progress: number; message?: string }[] }> {
  const progress: { progress: number; message?: string }[] = [];
  const result = await conn.client.callTool(
    { name, arguments: args, _meta: { progressToken: ++tokens } },
    undefined,
    { signal: options.signal, timeout: 60_000, onprogress: (p) => void progress.push(p) },
  );
  const content = result.content as { type: string; text?: string }[];
  const json = JSON.parse(content[0].text!);
  assert.deepEqual(result.structuredContent, json);
  return { json, progress };
}

Deno.test("async: wait_s 1 answers running, wait_tasks gives the synchronous verdict", async () => {
  const sync = await setup();
  const async = await setup();
  try {
    sync.fake.script(FIX_ADD);
    async.fake.script(FIX_ADD);
    const started = performance.now();
    const first = await call(async.conn, "implement_task", { ...TASK, wait_s: 1 });
    const firstSecs = (performance.now() - started) / 1000;
    console.error(`first answer after ${firstSecs.toFixed(2)} s`);
    assert.equal(first.json.status, "running", JSON.stringify(first.json));
    assert.equal(first.json.task_id, TASK.task_id);
    assert.equal(first.json.escalate, false);
    assert.equal(first.json.model, MODEL);
    assert.equal(typeof first.json.attempts, "number");
    assert.match(String(first.json.why), /wait_tasks/);
    // Answered before the model: no chat has had its answer yet.
    const answered = async.fake.requests.filter((r) => r.path === "/api/chat" && r.doneMs);
    assert.deepEqual(answered, []);
    await async.fake.waitForChats(1); // (attempt 1 is with the model for its 3 s)
    const listed = await call(async.conn, "list_tasks", {});
    const running = listed.json.running as { task_id: string; attempt: number }[];
    assert.deepEqual(running.map((r) => r.task_id), [TASK.task_id]);
    assert.match((listed.json.tasks as string[])[0], /^T1-add running /);
    // The line and running[] agree on the attempt (main: "0 attempts" beside attempt 1).
    assert.equal(running[0].attempt, 1);
    assert.match((listed.json.tasks as string[])[0], /^T1-add running 1 attempt /);

    const waited = await call(async.conn, "wait_tasks", {});
    const [verdict, ...others] = waited.json.finished as Record<string, unknown>[];
    assert.deepEqual(others, []);
    assert.deepEqual(waited.json.running, []);
    // Progress kept flowing to the call that waits, each value above the one before.
    assert.ok(waited.progress.some((p) => /^T1-add: /.test(p.message ?? "")), "task progress");
    for (let i = 1; i < waited.progress.length; i++) {
      assert.ok(waited.progress[i].progress > waited.progress[i - 1].progress);
    }

    const direct = await call(sync.conn, "implement_task", TASK);
    assert.equal(direct.json.status, "passed");
    assert.deepEqual(verdict, { task_id: TASK.task_id, ...direct.json });
    assert.equal(await Deno.readTextFile(join(async.root, "calc.py")), FIXED);

    // Reported once: the default set is now empty, and an id asks again.
    const again = await call(async.conn, "wait_tasks", { timeout_s: 0 });
    assert.deepEqual(again.json.finished, []);
    const byId = await call(async.conn, "wait_tasks", { task_ids: [TASK.task_id, "nope"] });
    assert.deepEqual(byId.json.finished, [verdict]);
    assert.deepEqual(byId.json.unknown, ["nope"]);
  } finally {
    await sync.close();
    await async.close();
  }
});

Deno.test("async: wait_tasks returns at its timeout with the task still running", async () => {
  const env = await setup({ wait_s: 0 });
  try {
    env.fake.script(FIX_ADD);
    const first = await call(env.conn, "implement_task", TASK);
    assert.equal(first.json.status, "running", "the config's wait_s is the default");
    const waited = await call(env.conn, "wait_tasks", { timeout_s: 0.3, mode: "any" });
    assert.deepEqual(waited.json.finished, []);
    const [r] = waited.json.running as Record<string, unknown>[];
    assert.equal(r.task_id, TASK.task_id);
    assert.equal(typeof r.seconds, "number");
    const done = await call(env.conn, "wait_tasks", { task_ids: [TASK.task_id] });
    assert.equal((done.json.finished as { status: string }[])[0].status, "passed");
  } finally {
    await env.close();
  }
});

Deno.test("async: revert_task on a running task cancels it, then reverts it", async () => {
  const env = await setup({}, ["--wait-s", "0"]);
  try {
    await editedAndRunning(env);
    const dry = await call(env.conn, "revert_task", { task_id: TASK.task_id, dry_run: true });
    assert.match(String(dry.json.note), /running/);
    const reverted = await call(env.conn, "revert_task", { task_id: TASK.task_id });
    assert.equal(reverted.json.status, "reverted", JSON.stringify(reverted.json));
    assert.deepEqual(reverted.json.restore, ["calc.py"]);
    // It says it cancelled the task (main said nothing of it).
    assert.equal(reverted.json.cancelled, true);
    assert.match(String(reverted.json.note), /^task T1-add was running: it was cancelled first/);
    assert.equal(await Deno.readTextFile(join(env.root, "calc.py")), CALC);
    const waited = await call(env.conn, "wait_tasks", { timeout_s: 0 });
    const [verdict] = waited.json.finished as Record<string, unknown>[];
    assert.equal(verdict.status, "error");
    assert.equal(verdict.error, "cancelled");
    const listed = await call(env.conn, "list_tasks", {});
    assert.equal(listed.json.running, undefined);
  } finally {
    await env.close();
  }
});

Deno.test("async: cancelling a waiting call cancels its task only", async () => {
  const env = await setup();
  try {
    env.fake.modelMs = 1_500;
    env.fake.script(FIX_ADD, FIX_ADD);
    const a = await call(env.conn, "implement_task", { ...TASK, wait_s: 0 });
    assert.equal(a.json.status, "running");
    await env.fake.waitForChats(1);
    // B waits for the project lock that A holds; its call is cancelled while it waits.
    const controller = new AbortController();
    const b = call(env.conn, "implement_task", {
      task_id: "T2-sub",
      spec: "Leave sub as it is",
      files_to_edit: ["calc.py"],
    }, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 300));
    controller.abort();
    await assert.rejects(b);
    const waited = await call(env.conn, "wait_tasks", {});
    const finished = waited.json.finished as Record<string, unknown>[];
    const byId = new Map(finished.map((v) => [v.task_id, v]));
    assert.equal(byId.get(TASK.task_id)?.status, "passed", JSON.stringify(finished));
    // B's call was cancelled; its task ended with it (it had not been reported to anyone). B may
    // run beside A in a workspace: on a loaded machine its model request can have started, and is
    // cancelled with it.
    assert.match(String(byId.get("T2-sub")?.error), /cancelled/, JSON.stringify(finished));
    assert.equal(byId.get("T2-sub")?.status, "error", JSON.stringify(finished));
    assert.ok(env.fake.chats.length <= 2);
  } finally {
    await env.close();
  }
});

for (const how of ["stdin closed", "SIGTERM", "SIGINT"] as const) {
  Deno.test(`async: the server's exit (${how}) leaves a running task interrupted, revertable`, async () => {
    const env = await setup({ wait_s: 0 });
    try {
      await editedAndRunning(env);
      const pid = env.conn.transport.pid!;
      if (how !== "stdin closed") Deno.kill(pid, how);
      await env.conn.close();
      // The process is gone (Linux): no /proc entry left once it has exited and been reaped.
      const until = Date.now() + 20_000;
      while (_alive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      assert.ok(!_alive(pid), "the server exited");
      const next = await connect(env.root);
      try {
        const listed = await call(next, "list_tasks", {});
        assert.match((listed.json.tasks as string[])[0], /^T1-add interrupted /);
        const reverted = await call(next, "revert_task", { task_id: TASK.task_id });
        assert.equal(reverted.json.status, "reverted", JSON.stringify(reverted.json));
        assert.deepEqual(reverted.json.restore, ["calc.py"]);
        assert.equal(await Deno.readTextFile(join(env.root, "calc.py")), CALC);
      } finally {
        await next.close();
      }
    } finally {
      await env.close();
    }
  });
}

/** Whether process `pid` still exists (and is no zombie). */
function _alive(pid: number): boolean {
  try {
    return !/\) Z /.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}
