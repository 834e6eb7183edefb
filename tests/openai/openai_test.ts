/**
 * The OpenAI-compatible backend against the scripted server: streaming, usage, reasoning, the
 * served window, and every failure turned into a ModelError that says what to do.
 */
import assert from "node:assert/strict";
import { ModelError } from "../../lib/model/mod.ts";
import { createOpenAIHost } from "../../lib/openai/mod.ts";
import { createSseReader } from "../../lib/model/mod.ts";
import { closedUrl } from "../helpers/fake_ollama.ts";
import { type FakeOpenAIOptions, startFakeOpenAI } from "../helpers/fake_openai.ts";
import { secondsUntilEnded } from "../helpers/stream.ts";

const MESSAGES = [
  { role: "system" as const, content: "You edit code." },
  { role: "user" as const, content: "Fix add() in calc.py." },
];

function request(model: string, extra: Record<string, unknown> = {}) {
  return {
    model,
    messages: MESSAGES,
    contextLength: 8192,
    maxTokens: 2048,
    temperature: 0.1,
    ...extra,
  };
}

async function withFake(
  opts: FakeOpenAIOptions,
  body: (fake: Awaited<ReturnType<typeof startFakeOpenAI>>) => Promise<void>,
): Promise<void> {
  const fake = await startFakeOpenAI(opts);
  try {
    await body(fake);
  } finally {
    await fake.close();
  }
}

async function rejectsWith(
  p: Promise<unknown>,
  kind: string,
  message: RegExp,
): Promise<ModelError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ModelError, `not a ModelError: ${err}`);
    assert.equal(err.kind, kind, err.message);
    assert.match(err.message, message);
    return err;
  }
  throw new Error("expected a rejection");
}

Deno.test("sse reader joins data lines, skips comments and survives any split", () => {
  const text =
    ': ping\r\ndata: {"a":1}\r\n\r\nevent: x\ndata: line1\ndata: line2\n\nerror: {"code":500}\n\ndata: [DONE]\n\n';
  for (let size = 1; size <= text.length; size++) {
    const got: string[] = [];
    const sse = createSseReader((d, kind) => got.push(kind === "data" ? d : `error ${d}`));
    for (let i = 0; i < text.length; i += size) sse.push(text.slice(i, i + size));
    sse.end();
    assert.deepEqual(
      got,
      ['{"a":1}', "line1\nline2", 'error {"code":500}', "[DONE]"],
      `pieces of ${size}`,
    );
  }
  const tail: string[] = [];
  const sse = createSseReader((d) => tail.push(d));
  sse.push("data: last");
  sse.end();
  assert.deepEqual(tail, ["last"]);
});

Deno.test("openai chat streams llama-server's reply with usage, reasoning apart", async () => {
  await withFake({ flavor: "llama-server" }, async (fake) => {
    fake.script({
      content: "calc.py\nfixed",
      reasoning: "The bug is in add.",
      completionTokens: 9,
    });
    const host = createOpenAIHost(fake.baseUrl);
    const progress: { chars: number; thinking: boolean }[] = [];
    const chat = await host.chat(request("anything", {
      onChunk: (p: { chars: number; thinking: boolean }) => progress.push(p),
    }));
    assert.equal(chat.content, "calc.py\nfixed");
    assert.equal(chat.thinking, "The bug is in add.");
    assert.equal(chat.doneReason, "stop");
    assert.equal(chat.estimated, false);
    assert.equal(chat.evalCount, 9);
    assert.ok(chat.promptEvalCount > 0);
    assert.equal(chat.host, fake.baseUrl);
    assert.ok(progress.some((p) => p.thinking) && progress.some((p) => !p.thinking));
    assert.equal(progress.at(-1)!.chars, chat.content.length);
    const sent = fake.chats[0];
    assert.equal(sent.stream, true);
    assert.deepEqual(sent.stream_options, { include_usage: true });
    assert.equal(sent.max_tokens, 2048);
    assert.equal(sent.temperature, 0.1);
    assert.deepEqual(sent.messages, MESSAGES);
  });
});

Deno.test("openai chat reads vLLM's usage chunk and its reasoning field", async () => {
  await withFake(
    { flavor: "vllm", models: [{ id: "Qwen/Qwen3-8B", contextLength: 16384 }] },
    async (fake) => {
      fake.script({
        content: "done",
        reasoning: "thinking",
        promptTokens: 321,
        completionTokens: 4,
      });
      const chat = await createOpenAIHost(fake.baseUrl).chat(request("Qwen/Qwen3-8B"));
      assert.equal(chat.content, "done");
      assert.equal(chat.thinking, "thinking");
      assert.equal(chat.promptEvalCount, 321);
      assert.equal(chat.evalCount, 4);
    },
  );
});

Deno.test("openai chat marks counts estimated when the server sends no usage", async () => {
  await withFake({ flavor: "lmstudio", noUsage: true }, async (fake) => {
    fake.script("hello");
    const chat = await createOpenAIHost(fake.baseUrl).chat(request(fake.models[0].id));
    assert.equal(chat.content, "hello");
    assert.equal(chat.estimated, true);
    assert.equal(chat.promptEvalCount, 0);
  });
});

Deno.test("openai chat reports a reply cut by max_tokens as length", async () => {
  await withFake({}, async (fake) => {
    fake.script("x".repeat(400));
    const chat = await createOpenAIHost(fake.baseUrl).chat(request("m", { maxTokens: 10 }));
    assert.equal(chat.doneReason, "length");
    assert.equal(chat.content.length, 40);
  });
});

Deno.test("openai chat counts a leading <think> block as thinking in the progress", async () => {
  await withFake({ chunkChars: 4 }, async (fake) => {
    fake.script("<think>let me see</think>answer");
    const seen: { delta: string; thinking: boolean }[] = [];
    const chat = await createOpenAIHost(fake.baseUrl).chat(request("m", {
      onChunk: (p: { delta: string; thinking: boolean }) => seen.push(p),
    }));
    assert.equal(chat.content, "<think>let me see</think>answer");
    assert.ok(seen[0].thinking, "inside <think>");
    assert.equal(seen.at(-1)!.thinking, false, "after </think>");
  });
});

Deno.test("openai facts read the served window of each server kind", async () => {
  await withFake({
    flavor: "llama-server",
    models: [{ id: "../models/qwen2.5-coder-7b-q4_k_m.gguf", contextLength: 16384 }],
  }, async (fake) => {
    const facts = await createOpenAIHost(fake.baseUrl).facts("qwen2.5-coder-7b-q4_k_m");
    assert.deepEqual(facts, {
      model: "../models/qwen2.5-coder-7b-q4_k_m.gguf",
      contextLength: 16384,
      loaded: 16384,
      fixedContext: true,
      cutsLongPrompts: false,
    });
    // llama-server serves its one model whatever the name.
    assert.equal((await createOpenAIHost(fake.baseUrl).facts("other")).contextLength, 16384);
    assert.ok(fake.requests.some((r) => r.path === "/props"));
  });
  await withFake(
    { flavor: "vllm", models: [{ id: "Qwen/Qwen3-8B", contextLength: 40960 }] },
    async (fake) => {
      assert.equal(
        (await createOpenAIHost(fake.baseUrl).facts("Qwen/Qwen3-8B")).contextLength,
        40960,
      );
      const configured = createOpenAIHost(fake.baseUrl, { contextLength: 8192 });
      assert.equal((await configured.facts("Qwen/Qwen3-8B")).contextLength, 8192);
    },
  );
  await withFake({
    flavor: "lmstudio",
    models: [{ id: "qwen2.5-coder-7b-instruct", contextLength: 8192 }, {
      id: "llama-3.1-8b",
      loaded: false,
    }],
  }, async (fake) => {
    const host = createOpenAIHost(fake.baseUrl);
    assert.equal((await host.facts("qwen2.5-coder-7b-instruct")).contextLength, 8192);
    const report = await host.report("llama-3.1-8b");
    assert.equal(report.server, "LM Studio");
    assert.equal(report.model_installed, true);
    assert.equal(report.model_loaded, false);
    // Not loaded: the window it will get is LM Studio's to choose, so none is claimed.
    assert.equal(report.context, undefined);
    assert.deepEqual(await host.facts("llama-3.1-8b"), {
      model: "llama-3.1-8b",
      fixedContext: false,
      cutsLongPrompts: false,
    });
  });
});

Deno.test("openai facts list the served models when the model is not one of them", async () => {
  await withFake({ flavor: "vllm", models: [{ id: "a/b" }, { id: "c/d" }] }, async (fake) => {
    const host = createOpenAIHost(fake.baseUrl);
    await rejectsWith(
      host.facts("qwen"),
      "model_missing",
      /model "qwen" is not served at .*it serves "a\/b", "c\/d": set "model"/,
    );
    const err = await rejectsWith(
      host.chat(request("qwen")),
      "model_missing",
      /not served at .*does not exist/,
    );
    assert.equal(err.hostDown, false);
    const report = await host.report("qwen");
    assert.deepEqual([report.reachable, report.model_installed], [true, false]);
  });
});

Deno.test("openai errors say what to do: key, unreachable, loading, server error", async () => {
  await withFake({ apiKey: "s3cret" }, async (fake) => {
    await rejectsWith(
      createOpenAIHost(fake.baseUrl).facts("m"),
      "auth",
      /wants an API key \(HTTP 401: Invalid API Key\): set api_key_env/,
    );
    Deno.env.set("H12_TEST_KEY", "wrong");
    await rejectsWith(
      createOpenAIHost(fake.baseUrl, { apiKeyEnv: "H12_TEST_KEY" }).chat(request("m")),
      "auth",
      /refused the API key in H12_TEST_KEY/,
    );
    Deno.env.set("H12_TEST_KEY", "s3cret");
    fake.script("ok");
    const chat = await createOpenAIHost(fake.baseUrl, { apiKeyEnv: "H12_TEST_KEY" }).chat(
      request("m"),
    );
    assert.equal(chat.content, "ok");
    assert.equal(fake.chats.at(-1) !== undefined, true);
    Deno.env.delete("H12_TEST_KEY");
    await rejectsWith(
      createOpenAIHost(fake.baseUrl, { apiKeyEnv: "H12_TEST_KEY" }).chat(request("m")),
      "auth",
      /api_key_env names H12_TEST_KEY, which is not set/,
    );
  });
  const down = closedUrl() + "/v1";
  const err = await rejectsWith(
    createOpenAIHost(down).facts("m"),
    "unreachable",
    /model server is not reachable at .*: start it/,
  );
  assert.equal(err.hostDown, true);
  await withFake({}, async (fake) => {
    fake.script({ content: "", fail: "loading" }, { content: "", fail: "error" });
    const host = createOpenAIHost(fake.baseUrl);
    const loading = await rejectsWith(
      host.chat(request("m")),
      "http",
      /still loading the model \(HTTP 503\)/,
    );
    assert.equal(loading.hostDown, true);
    const failed = await rejectsWith(
      host.chat(request("m")),
      "http",
      /failed \(HTTP 500: CUDA error/,
    );
    assert.equal(failed.hostDown, true);
  });
});

Deno.test("openai chat reports broken streams: error event, cut short, dropped, not the API", async () => {
  await withFake({}, async (fake) => {
    const host = createOpenAIHost(fake.baseUrl);
    for (const fail of ["stream_error", "stream_error_line"] as const) {
      fake.script({ content: "abcdefghijkl", fail });
      await rejectsWith(
        host.chat(request("m")),
        "http",
        /failed while answering: llama_decode failed/,
      );
    }
    fake.script({ content: "abcdefghijklmnopqrstuvwxyz", fail: "no_done" });
    const cut = await rejectsWith(
      host.chat(request("m")),
      "bad_response",
      /ended the answer before it was complete/,
    );
    assert.equal(cut.hostDown, true);
    fake.script({ content: "abcdefghijklmnopqrstuvwxyz", fail: "drop" });
    const dropped = await host.chat(request("m")).catch((e) => e);
    assert.ok(dropped instanceof ModelError && dropped.hostDown, String(dropped));
  });
  const html = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response("<!DOCTYPE html><html>nginx</html>", {
        headers: { "content-type": "text/html" },
      }),
  );
  try {
    const base = `http://127.0.0.1:${html.addr.port}/v1`;
    await rejectsWith(
      createOpenAIHost(base).chat(request("m")),
      "bad_response",
      /not an OpenAI-compatible API.*nginx.*check base_url/,
    );
  } finally {
    await html.shutdown();
  }
});

Deno.test("openai chat times out a stalled stream and ends a cancelled one at once", async () => {
  await withFake({}, async (fake) => {
    const host = createOpenAIHost(fake.baseUrl, { firstChunkTimeoutS: 0.3, idleTimeoutS: 0.3 });
    fake.script({ content: "abc", fail: "stall" });
    await rejectsWith(host.chat(request("m")), "timeout", /sent nothing for 0.3 s/);
    fake.script({ content: "abcdefghijklmnop", fail: "stall_after_first" });
    await rejectsWith(host.chat(request("m")), "timeout", /stopped sending for 0.3 s/);
    fake.script({ content: "x".repeat(1600), chunkDelayMs: 100 });
    const ctl = new AbortController();
    const call = createOpenAIHost(fake.baseUrl).chat(request("m", {
      signal: ctl.signal,
      onChunk: () => ctl.abort(),
    }));
    const err = await rejectsWith(call, "cancelled", /cancelled/);
    assert.equal(err.hostDown, false);
    const record = fake.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)!;
    // 200 chunks 100 ms apart (20 s) were left: the cancel, not the reply's end, closed it.
    const secs = await secondsUntilEnded(record, performance.now());
    assert.ok(secs !== undefined && secs < 5, `closed after ${secs} s`);
  });
});

Deno.test("openai chat takes one whole answer from a server that ignores stream: true", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
    Response.json({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1731990317,
      model: "m",
      choices: [{
        index: 0,
        logprobs: null,
        finish_reason: "length",
        message: { role: "assistant", content: "part" },
      }],
      usage: { prompt_tokens: 24, completion_tokens: 53, total_tokens: 77 },
    }));
  try {
    const chat = await createOpenAIHost(`http://127.0.0.1:${server.addr.port}/v1`).chat(
      request("m"),
    );
    assert.deepEqual(
      [chat.content, chat.doneReason, chat.promptEvalCount, chat.evalCount, chat.estimated],
      ["part", "length", 24, 53, false],
    );
  } finally {
    await server.shutdown();
  }
});
