/**
 * The model ladder end to end: the real server over stdio, the SDK client, a scripted Ollama and a
 * scripted llama-server on loopback (two hosts, one rung each), real checks and a temp project.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { prefixShare } from "../../lib/implement/prompt.ts";
import { closedUrl, type FakeOllama, startFakeOllama } from "../helpers/fake_ollama.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../helpers/fake_openai.ts";
import { callMcp, connect, type Connection } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { CALC, FIX_ADD, FIX_WRONG, FIXED, WORSE_ADD, WRONG_ADD } from "../helpers/calc.ts";
import { CONTEXT_20K } from "../helpers/context.ts";
import { estimateTokens } from "../../lib/implement/context_size.ts";

const SMALL = "small-coder:1b";
const BIG = "big-coder-32b";

/** A check that passes once add() adds. */
const ADD_CHECK = {
  command: "grep -q 'return a + b' calc.py || { echo 'FAIL test_add: add(2, 3) == 6'; exit 1; }",
};

interface Env {
  root: string;
  conn: Connection;
  ollama: FakeOllama;
  server: FakeOpenAI;
  close(): Promise<void>;
}

/** Extra settings, or a function of the two fakes that gives them (a ladder naming their URLs). */
type Extra =
  | Record<string, unknown>
  | ((ollama: FakeOllama, server: FakeOpenAI) => Record<string, unknown>);

async function setup(extra: Extra = {}): Promise<Env> {
  const ollama = await startFakeOllama({ models: [{ name: SMALL, contextLength: 32768 }] });
  const server = await startFakeOpenAI({
    flavor: "llama-server",
    models: [{ id: BIG, contextLength: 16384 }],
  });
  const root = await tempProject({
    "calc.py": CALC,
    ".localexec.json": JSON.stringify({
      checks: { tests: ADD_CHECK },
      max_attempts: 2,
      ladder: [
        { model: SMALL, ollama_host: ollama.url },
        { model: BIG, provider: "openai", base_url: server.baseUrl, max_attempts: 3 },
      ],
      ...(typeof extra === "function" ? extra(ollama, server) : extra),
    }),
  });
  const conn = await connect(root);
  return {
    root,
    conn,
    ollama,
    server,
    async close() {
      await conn.close();
      await ollama.close();
      await server.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

function implement(env: Env, id: string, extra: Record<string, unknown> = {}) {
  return callMcp(env.conn.client, "implement_task", {
    task_id: id,
    spec: "add(a, b) must return a + b",
    files_to_edit: ["calc.py"],
    ...extra,
  });
}

const read = (env: Env, rel: string) => Deno.readTextFile(join(env.root, rel));

Deno.test("ladder: the first model fails its checks twice, the second passes from the original files", async () => {
  const env = await setup();
  try {
    env.ollama.script(WRONG_ADD, WORSE_ADD);
    env.server.script(FIX_ADD);
    const out = await implement(env, "L1");
    assert.equal(out.status, "passed", JSON.stringify(out));
    assert.equal(out.model, BIG);
    assert.equal(out.escalate, false);
    assert.equal(out.attempts, 3);
    assert.deepEqual(out.tried, [
      { model: SMALL, attempts: 2, status: "failed" },
      { model: BIG, attempts: 1, status: "passed" },
    ]);
    assert.equal(await read(env, "calc.py"), FIXED);
    // The second rung's first prompt: the original file, what the first rung tried, how it failed.
    const first = env.server.chats[0].messages.map((m) => m.content).join("\n");
    assert.match(first, /### calc\.py[^\n]*\n```python\ndef add\(a, b\):\n {4}return a - b\n/);
    assert.match(first, /An earlier model did not manage this task/);
    assert.match(first, new RegExp(`Another model \\(${SMALL}\\) tried it in 2 attempts`));
    assert.match(first, /\+ {4}return a \*\* b/);
    assert.match(first, /FAIL test_add: add\(2, 3\) == 6/);
    // llama-server is asked to keep the prompt's cache.
    assert.equal(env.server.chats[0].cache_prompt, true);
    // Each rung on its own host.
    assert.equal(env.ollama.chats.length, 2);
    assert.ok(env.ollama.chats.every((c) => c.model === SMALL));
    assert.equal(env.server.chats.length, 1);
    // The log names the model and host of every attempt.
    const log = await read(env, ".localexec/L1.log");
    for (const n of [1, 2]) {
      assert.match(
        log,
        new RegExp(`attempt ${n} reply \\([\\d.]+ s, model ${SMALL} at ${env.ollama.url},`),
      );
    }
    assert.match(
      log,
      new RegExp(`attempt 3 reply \\([\\d.]+ s, model ${BIG} at ${env.server.baseUrl},`),
    );
    // The record keeps every attempt's facts.
    const record = JSON.parse(await read(env, ".localexec/L1.json"));
    assert.equal(record.model, BIG);
    assert.equal(record.kind, "python");
    assert.equal(record.escalate, false);
    assert.deepEqual(record.tried, out.tried);
    assert.deepEqual(
      record.history.map((h: Record<string, unknown>) => [h.model, h.host, h.provider, h.checks]),
      [
        [SMALL, env.ollama.url, "ollama", "failed: tests"],
        [SMALL, env.ollama.url, "ollama", "failed: tests"],
        [BIG, env.server.baseUrl, "openai", "passed"],
      ],
    );
    for (const h of record.history) {
      assert.equal(h.decision, "applied");
      assert.equal(h.tokens, "counted");
      assert.ok(h.prompt_tokens > 0 && h.reply_tokens > 0, JSON.stringify(h));
      assert.equal(typeof h.secs, "number");
      assert.equal(typeof h.first_token_secs, "number");
      assert.ok(h.first_token_secs <= h.secs + 0.01, JSON.stringify(h));
    }
    // list_tasks names the model that produced the result.
    const list = await callMcp(env.conn.client, "list_tasks", {});
    assert.match(
      String((list.tasks as string[])[0]),
      new RegExp(`^L1 passed 3 attempts by ${BIG} calc\\.py`),
    );
  } finally {
    await env.close();
  }
});

Deno.test("ladder: every rung failing escalates, and the tree keeps the last rung's edit", async () => {
  const env = await setup();
  try {
    env.ollama.script(WRONG_ADD, WRONG_ADD);
    env.server.script(WRONG_ADD, WRONG_ADD, WRONG_ADD);
    const out = await implement(env, "L2");
    assert.equal(out.status, "failed", JSON.stringify(out));
    assert.equal(out.escalate, true);
    assert.equal(out.model, BIG);
    assert.equal(out.attempts, 5);
    assert.deepEqual(out.tried, [
      { model: SMALL, attempts: 2, status: "failed" },
      { model: BIG, attempts: 3, status: "failed" },
    ]);
    assert.match(String(out.failed_check), /^tests: FAIL test_add/);
    assert.match(await read(env, "calc.py"), /return a \* b/);
    // A failing rung that is not the last does not escalate: only the second one's end counts.
    const record = JSON.parse(await read(env, ".localexec/L2.json"));
    assert.equal(record.escalate, true);
    assert.equal(record.status, "failed");
  } finally {
    await env.close();
  }
});

Deno.test("ladder: a question from the first rung ends the call there: blocked, no climb, no escalate", async () => {
  const env = await setup();
  try {
    env.ollama.script("QUESTION: should add() also accept strings?");
    env.server.script(FIX_ADD);
    const out = await implement(env, "LQ");
    assert.equal(out.status, "blocked", JSON.stringify(out));
    assert.equal(out.question, "should add() also accept strings?");
    assert.equal(out.escalate, false);
    assert.equal(out.model, SMALL);
    assert.equal(out.tried, undefined);
    assert.equal(env.server.requests.length, 0, "the second rung was asked");
    assert.equal(await read(env, "calc.py"), CALC);
  } finally {
    await env.close();
  }
});

Deno.test("ladder: a rung the task does not fit counts no attempt and hands over to the next", async () => {
  const env = await setup((ollama, server) => ({
    ladder: [
      { model: SMALL, ollama_host: ollama.url, num_ctx: 512 },
      { model: BIG, provider: "openai", base_url: server.baseUrl, max_attempts: 3 },
    ],
  }));
  try {
    env.server.script(FIX_ADD);
    const out = await implement(env, "LF");
    assert.equal(out.status, "passed", JSON.stringify(out));
    assert.equal(out.attempts, 1);
    assert.deepEqual(out.tried, [
      { model: SMALL, attempts: 0, status: "error" },
      { model: BIG, attempts: 1, status: "passed" },
    ]);
    assert.equal(env.ollama.chats.length, 0);
    assert.equal(await read(env, "calc.py"), FIXED);
  } finally {
    await env.close();
  }
});

Deno.test("ladder: model starts at its rung (the first rung's host is never asked); an unknown one lists the rungs", async () => {
  const env = await setup();
  try {
    env.server.script(FIX_ADD);
    const out = await implement(env, "L3", { model: BIG });
    assert.equal(out.status, "passed", JSON.stringify(out));
    assert.equal(out.model, BIG);
    assert.equal(out.tried, undefined);
    assert.equal(env.ollama.requests.length, 0, "the first rung's host was asked");
    const unknown = await implement(env, "L4", { model: "nope" });
    assert.equal(unknown.status, "error");
    assert.equal(
      unknown.error,
      `model "nope" is not on the ladder; its rungs are "${SMALL}", "${BIG}"`,
    );
    assert.equal(env.ollama.requests.length, 0);
  } finally {
    await env.close();
  }
});

Deno.test("ladder: a bad rung is refused naming the rung and the key", async () => {
  const env = await setup();
  try {
    const configure = (ladder: unknown) =>
      Deno.writeTextFile(
        join(env.root, ".localexec.json"),
        JSON.stringify({ checks: { tests: ADD_CHECK }, ladder }),
      );
    await configure([{ model: SMALL }, { provider: "openai", base_url: env.server.baseUrl }]);
    let out = await implement(env, "B1");
    assert.equal(out.status, "error");
    assert.match(
      String(out.error),
      /^invalid configuration: \.localexec\.json: ladder\.1\.model: missing/,
    );
    await configure([{ model: SMALL, base_url: env.server.baseUrl }]);
    out = await implement(env, "B2");
    assert.match(String(out.error), /ladder\.0\.base_url: only used with provider "openai"/);
    await configure([]);
    out = await implement(env, "B3");
    assert.match(String(out.error), /ladder: the list must not be empty/);
    const status = await callMcp(env.conn.client, "status", {});
    assert.equal(status.status, "error");
    assert.match(String(status.error), /ladder: the list must not be empty/);
  } finally {
    await env.close();
  }
});

Deno.test("ladder: status lists each rung's hosts, whether its model is there and loaded, and its context", async () => {
  const env = await setup();
  try {
    const out = await callMcp(env.conn.client, "status", {});
    assert.equal(out.status, "ok", JSON.stringify(out));
    assert.equal(out.model, SMALL);
    const ladder = out.ladder as Record<string, unknown>[];
    assert.deepEqual(ladder.map((r) => [r.model, r.provider, r.model_installed]), [
      [SMALL, "ollama", true],
      [BIG, "openai", true],
    ]);
    assert.deepEqual((ladder[0].hosts as { url: string }[]).map((h) => h.url), [env.ollama.url]);
    assert.deepEqual((ladder[1].hosts as { url: string }[]).map((h) => h.url), [
      env.server.baseUrl,
    ]);
    assert.equal(ladder[1].context, 16384);
    assert.equal(ladder[0].max_attempts, 2);
    assert.equal(ladder[1].max_attempts, 3);
  } finally {
    await env.close();
  }
});

Deno.test("prompts: a retry re-sends a prefix of >= 90 % with a 20k-token context file, and the next task shares it up to the task", async () => {
  const ollama = await startFakeOllama({ models: [{ name: SMALL, contextLength: 32768 }] });
  const root = await tempProject({
    "calc.py": CALC,
    "notes.md": CONTEXT_20K,
    ".localexec.json": JSON.stringify({
      model: SMALL,
      ollama_host: ollama.url,
      checks: { tests: ADD_CHECK },
    }),
  });
  const conn = await connect(root);
  try {
    ollama.script(WRONG_ADD, FIX_WRONG, FIX_ADD);
    const args = {
      spec: "add(a, b) must return a + b",
      files_to_edit: ["calc.py"],
      context_files: ["notes.md"],
    };
    const one = await callMcp(conn.client, "implement_task", { task_id: "C1", ...args });
    assert.equal(one.status, "passed", JSON.stringify(one));
    assert.equal(one.attempts, 2);
    assert.equal(one.truncated, undefined, "the context file is sent whole");
    const [a1, a2] = ollama.chats;
    assert.ok(estimateTokens(CONTEXT_20K) >= 19_500, "a 20k-token context file");
    assert.ok(Number(a1.options?.num_ctx) >= 32768, "the window holds it");
    const share = prefixShare(a1.messages, a2.messages);
    assert.ok(share >= 0.9, `prefix share ${share}`);
    assert.equal(a1.options?.num_ctx, a2.options?.num_ctx, "num_ctx stays");
    // A second task with the same context: the prefix holds up to its task.
    await Deno.writeTextFile(join(root, "calc.py"), CALC);
    const two = await callMcp(conn.client, "implement_task", {
      task_id: "C2",
      ...args,
      spec: "make add(a, b) return the sum a + b",
    });
    assert.equal(two.status, "passed", JSON.stringify(two));
    const b1 = ollama.chats[2];
    const text = b1.messages.map((m) => m.content).join("");
    const taskAt = text.indexOf("## Task\n");
    assert.ok(taskAt > 0.9 * text.length, `the task starts at ${taskAt} of ${text.length}`);
    assert.ok(
      prefixShare(a1.messages, b1.messages) * text.length >= taskAt + "## Task\n".length,
      "the shared prefix reaches the task",
    );
  } finally {
    await conn.close();
    await ollama.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("ladder: a rung whose host cannot be used is skipped, listed in tried, and logged", async () => {
  const env = await setup();
  try {
    await Deno.writeTextFile(
      join(env.root, ".localexec.json"),
      JSON.stringify({
        checks: { tests: ADD_CHECK },
        max_attempts: 1,
        ladder: [
          { model: SMALL, ollama_host: env.ollama.url },
          { model: "gone:70b", ollama_host: closedUrl() },
          { model: BIG, provider: "openai", base_url: env.server.baseUrl },
        ],
      }),
    );
    env.ollama.script(WRONG_ADD);
    env.server.script(FIX_ADD);
    const out = await implement(env, "S1");
    assert.equal(out.status, "passed", JSON.stringify(out));
    assert.equal(out.model, BIG);
    assert.deepEqual(out.tried, [
      { model: SMALL, attempts: 1, status: "failed" },
      { model: "gone:70b", attempts: 0, status: "error" },
      { model: BIG, attempts: 1, status: "passed" },
    ]);
    const log = await read(env, ".localexec/S1.log");
    assert.match(log, /rung 2: model gone:70b cannot be used: Ollama is not reachable/);
  } finally {
    await env.close();
  }
});
