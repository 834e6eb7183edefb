/**
 * implement_task end to end on other model servers: the real server over stdio, the SDK client,
 * a scripted OpenAI-compatible server (llama-server, vLLM) or two scripted Ollama hosts on
 * loopback, real checks and a real temp project.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { closedUrl, startFakeOllama } from "../helpers/fake_ollama.ts";
import { type FakeOpenAIOptions, startFakeOpenAI } from "../helpers/fake_openai.ts";
import { secondsUntilEnded } from "../helpers/stream.ts";
import { connect, type Connection, trackProgress } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { CALC, FIX_ADD, FIXED, MODEL } from "../helpers/calc.ts";

/** A check that passes once add() adds. */
const ADD_CHECK = {
  command: "grep -q 'return a + b' calc.py || { echo 'FAIL test_add: add(2, 3) == -1'; exit 1; }",
};

interface Env {
  root: string;
  conn: Connection;
  progress: Map<string | number, string[]>;
  configure(config: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

async function setup(config: Record<string, unknown>, env?: Record<string, string>): Promise<Env> {
  const root = await tempProject({ "calc.py": CALC });
  const configure = (c: Record<string, unknown>) =>
    Deno.writeTextFile(
      join(root, ".localexec.json"),
      JSON.stringify({ model: MODEL, checks: { tests: ADD_CHECK }, ...c }),
    );
  await configure(config);
  const conn = await connect(root, { env });
  return {
    root,
    conn,
    progress: trackProgress(conn.client),
    configure,
    async close() {
      await conn.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

let tokens = 0;

async function implement(
  env: Env,
  taskId: string,
  options: { signal?: AbortSignal } = {},
): Promise<Record<string, unknown> & { token: number }> {
  const token = ++tokens;
  const result = await env.conn.client.callTool(
    {
      name: "implement_task",
      arguments: {
        task_id: taskId,
        spec: "add(a, b) must return a + b",
        files_to_edit: ["calc.py"],
      },
      _meta: { progressToken: token },
    },
    undefined,
    { signal: options.signal, timeout: 60_000 },
  );
  const content = result.content as { type: string; text?: string }[];
  return { ...JSON.parse(content[0].text!), token };
}

const read = (env: Env, rel: string) => Deno.readTextFile(join(env.root, rel));

async function openai(opts: FakeOpenAIOptions) {
  return await startFakeOpenAI({ models: [{ id: MODEL, contextLength: 16384 }], ...opts });
}

Deno.test("implement_task passes on llama-server with token counts, thinking and progress", async () => {
  const fake = await openai({ flavor: "llama-server" });
  const env = await setup({ provider: "openai", base_url: fake.origin });
  try {
    fake.script({
      content: FIX_ADD,
      reasoning: "add subtracts; make it add.",
      completionTokens: 42,
    });
    const out = await implement(env, "O1");
    assert.equal(out.status, "passed", JSON.stringify(out));
    assert.equal(out.attempts, 1);
    assert.equal(out.why, "all checks passed");
    assert.equal(await read(env, "calc.py"), FIXED);
    const sent = fake.chats[0];
    assert.equal(sent.model, MODEL);
    assert.equal(sent.stream, true);
    assert.ok(Number(sent.max_tokens) >= 1024 && Number(sent.max_tokens) < 16384);
    const record = JSON.parse(await read(env, ".localexec/O1.json"));
    assert.equal(record.reply_tokens, 42);
    assert.ok(record.prompt_tokens > 0);
    const log = await read(env, ".localexec/O1.log");
    assert.match(log, new RegExp(`attempt 1 prompt \\(num_ctx 16384\\)`));
    assert.match(
      log,
      new RegExp(`${fake.baseUrl}, prompt \\d+ tokens, reply 42 tokens, done_reason stop`),
    );
    const messages = env.progress.get(out.token) ?? [];
    assert.ok(messages.includes("attempt 1/3: asking qwen2.5-coder:7b"), messages.join(" | "));
    assert.ok(
      messages.some((m) => /model thinking \(\d+ characters so far\)/.test(m)),
      messages.join(" | "),
    );
  } finally {
    await env.close();
    await fake.close();
  }
});

Deno.test("implement_task on vLLM closes the model request within a second of the cancel", async () => {
  const fake = await openai({ flavor: "vllm" });
  const env = await setup({ provider: "openai", base_url: fake.baseUrl });
  try {
    // About 500 chunks 200 ms apart: the reply would stream for 100 s.
    fake.script({ content: FIX_ADD.repeat(40), chunkDelayMs: 200 });
    const ctl = new AbortController();
    const call = implement(env, "O2", { signal: ctl.signal });
    await fake.waitForChats(1);
    const chat = fake.requests.find((r) => r.path === "/v1/chat/completions")!;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(chat.doneMs, undefined, "the reply is still streaming");
    const cancelled = performance.now();
    ctl.abort();
    await assert.rejects(call);
    const secs = await secondsUntilEnded(chat, cancelled);
    // Closed by the cancel, not by the end of the reply (a tenth of what was left, at most).
    assert.ok(secs !== undefined && secs < 10, `request closed after ${secs} s`);
    assert.equal(await read(env, "calc.py"), CALC);
  } finally {
    await env.close();
    await fake.close();
  }
});

Deno.test("implement_task on an OpenAI-compatible server answers what to do when it cannot start", async () => {
  const fake = await openai({ flavor: "vllm", apiKey: "k3y" });
  const env = await setup({}, { H12_KEY: "k3y" });
  const base = { provider: "openai", base_url: fake.baseUrl, api_key_env: "H12_KEY" };
  try {
    const cases: [string, Record<string, unknown>, RegExp, string][] = [
      [
        "down",
        { ...base, base_url: closedUrl() },
        /model server is not reachable/,
        "the model server could not be reached",
      ],
      [
        "no key",
        { ...base, api_key_env: undefined },
        /wants an API key .*set api_key_env/,
        "the model server needs a valid API key",
      ],
      [
        "unset key",
        { ...base, api_key_env: "H12_UNSET" },
        /H12_UNSET, which is not set/,
        "the model server needs a valid API key",
      ],
      [
        "not served",
        { ...base, model: "llama3" },
        /model "llama3" is not served at .*it serves "qwen2.5-coder:7b"/,
        "the configured model is not served",
      ],
      [
        "too small",
        { ...base, context_length: 512 },
        /task needs ~\d+ tokens; the model server's context window is 512/,
        "the task does not fit the model's context",
      ],
    ];
    for (const [name, config, error, why] of cases) {
      await env.configure(config);
      const out = await implement(env, `E-${name.replace(/ /g, "-")}`);
      assert.equal(out.status, "error", name);
      assert.match(String(out.error), error, `${name}: ${out.error}`);
      assert.equal(out.why, why, name);
      assert.equal(await read(env, "calc.py"), CALC, name);
    }
    assert.equal(fake.chats.length, 0, "no case reached the model");
    // A reply cut at max_tokens is sent back as cut off; the next attempt passes.
    await env.configure(base);
    fake.script({ content: FIX_ADD, finishReason: "length" }, FIX_ADD);
    const out = await implement(env, "E-length");
    assert.equal(out.status, "passed", JSON.stringify(out));
    assert.equal(out.attempts, 2);
    assert.match(JSON.stringify(fake.chats[1].messages), /cut off/);
  } finally {
    await env.close();
    await fake.close();
  }
});

Deno.test("implement_task passes on the second Ollama host when the first refuses connections", async () => {
  const second = await startFakeOllama();
  const down = closedUrl();
  const env = await setup({ ollama_host: [down, second.url] });
  try {
    second.script(FIX_ADD);
    const out = await implement(env, "H1");
    assert.equal(out.status, "passed", JSON.stringify(out));
    const log = await read(env, ".localexec/H1.log");
    assert.match(log, new RegExp(`model host ${down} is not usable: Ollama is not reachable`));
    assert.match(log, new RegExp(`using model host ${second.url}`));
  } finally {
    await env.close();
    await second.close();
  }
});

Deno.test("implement_task retries the attempt on the second host when the first dies mid-stream", async () => {
  const first = await startFakeOllama({ chunkDelayMs: 100 });
  const second = await startFakeOllama();
  const env = await setup({ ollama_host: [first.url, second.url] });
  try {
    first.script(FIX_ADD.repeat(20));
    second.script(FIX_ADD);
    const call = implement(env, "H2");
    await first.waitForChats(1);
    await new Promise((r) => setTimeout(r, 300));
    await first.close();
    const out = await call;
    assert.equal(out.status, "passed", JSON.stringify(out));
    assert.equal(out.attempts, 1);
    assert.equal(second.chats.length, 1);
    assert.equal(await read(env, "calc.py"), FIXED);
    const log = await read(env, ".localexec/H2.log");
    assert.match(
      log,
      new RegExp(
        `attempt 1: model host ${first.url} dropped during the attempt .*retrying it on ${second.url}`,
      ),
    );
    const messages = env.progress.get(out.token) ?? [];
    assert.ok(messages.some((m) => m.includes("dropped during the attempt")), messages.join(" | "));
  } finally {
    await env.close();
    await Promise.all([first.close(), second.close()]);
  }
});
