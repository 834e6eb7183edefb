/**
 * The scripted OpenAI-compatible server answers with the shapes the real servers send (raw HTTP,
 * no client of ours in between).
 */
import assert from "node:assert/strict";
import { startFakeOpenAI } from "./fake_openai.ts";

async function sse(res: Response): Promise<string[]> {
  const text = await res.text();
  return text.split("\n\n").filter((e) => e).map((e) => e.replace(/^data: /, ""));
}

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

Deno.test("fake openai streams vLLM's chunks: role first, finish, usage with no choices, [DONE]", async () => {
  const fake = await startFakeOpenAI({ flavor: "vllm", models: [{ id: "m" }] });
  try {
    fake.script({ content: "hello world", promptTokens: 16, completionTokens: 2 });
    const res = await post(`${fake.baseUrl}/chat/completions`, {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const events = await sse(res);
    assert.equal(events.at(-1), "[DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    assert.ok(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "m"));
    assert.deepEqual(chunks[0].choices[0].delta, { role: "assistant", content: null });
    assert.equal(
      chunks.slice(1, -2).map((c) => c.choices[0].delta.content).join(""),
      "hello world",
    );
    assert.equal(chunks.at(-2).choices[0].finish_reason, "stop");
    assert.deepEqual(chunks.at(-2).choices[0].delta, {});
    assert.deepEqual(chunks.at(-1).choices, []);
    assert.deepEqual(chunks.at(-1).usage, {
      completion_tokens: 2,
      prompt_tokens: 16,
      total_tokens: 18,
    });
    const unknown = await post(`${fake.baseUrl}/chat/completions`, { model: "x", messages: [] });
    assert.equal(unknown.status, 404);
    assert.deepEqual(await unknown.json(), {
      object: "error",
      message: "The model `x` does not exist.",
      type: "NotFoundError",
      param: null,
      code: 404,
    });
    const models = await (await fetch(`${fake.baseUrl}/models`)).json();
    assert.equal(models.data[0].owned_by, "vllm");
    assert.equal(models.data[0].max_model_len, 4096);
  } finally {
    await fake.close();
  }
});

Deno.test("fake openai answers as llama-server: usage on the finish chunk, /props, its errors", async () => {
  const fake = await startFakeOpenAI({
    flavor: "llama-server",
    apiKey: "k",
    models: [{ id: "model.gguf", contextLength: 8192 }],
  });
  try {
    const denied = await fetch(`${fake.origin}/props`);
    assert.equal(denied.status, 401);
    assert.deepEqual(await denied.json(), {
      error: { code: 401, message: "Invalid API Key", type: "authentication_error" },
    });
    assert.equal((await fetch(`${fake.origin}/health`)).status, 200, "health needs no key");
    const auth = { authorization: "Bearer k" };
    const props = await (await fetch(`${fake.origin}/props`, { headers: auth })).json();
    assert.equal(props.default_generation_settings.n_ctx, 8192);
    fake.script({ content: "ok", reasoning: "hm" });
    const events = await sse(
      await post(`${fake.baseUrl}/chat/completions`, {
        model: "anything",
        messages: [{ role: "user", content: "hi" }],
        stream: true,
      }, auth),
    );
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    assert.equal(chunks[1].choices[0].delta.reasoning_content, "hm");
    const finish = chunks.at(-1);
    assert.equal(finish.choices[0].finish_reason, "stop");
    assert.ok(finish.usage.prompt_tokens > 0 && finish.timings.predicted_n > 0);
    fake.script({ content: "", fail: "loading" });
    const loading = await post(`${fake.baseUrl}/chat/completions`, {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
    }, auth);
    assert.equal(loading.status, 503);
    assert.deepEqual(await loading.json(), {
      error: { code: 503, message: "Loading model", type: "unavailable_error" },
    });
  } finally {
    await fake.close();
  }
});

Deno.test("fake openai lists LM Studio's models with state and context", async () => {
  const fake = await startFakeOpenAI({
    flavor: "lmstudio",
    models: [{ id: "a", contextLength: 4096 }, { id: "b", loaded: false }],
  });
  try {
    const list = await (await fetch(`${fake.origin}/api/v0/models`)).json();
    assert.deepEqual(list.data.map((m: Record<string, unknown>) => [m.id, m.state]), [
      ["a", "loaded"],
      ["b", "not-loaded"],
    ]);
    assert.equal(list.data[0].loaded_context_length, 4096);
    assert.equal(list.data[1].loaded_context_length, undefined);
    assert.equal(list.data[1].max_context_length, 131072);
    const missing = await post(`${fake.baseUrl}/chat/completions`, { model: "c", messages: [] });
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error.code, "model_not_found");
  } finally {
    await fake.close();
  }
});

Deno.test("fake openai: a fixed model time per chat, and the most chats served at once", async () => {
  const fake = await startFakeOpenAI({ models: [{ id: "m" }], modelMs: 200 });
  try {
    fake.script("one", "two", "three");
    const body = { model: "m", messages: [{ role: "user", content: "hi" }] };
    const url = `${fake.baseUrl}/chat/completions`;
    const answers = await Promise.all([post(url, body), post(url, body), post(url, body)]);
    for (const a of answers) await a.text();
    assert.deepEqual(fake.busy, { now: 0, most: 3 });
    for (const r of fake.requests.filter((r) => r.path === "/v1/chat/completions")) {
      assert.ok(r.doneMs! - r.receivedMs >= 200, `answered after the model time: ${r.doneMs}`);
    }
  } finally {
    await fake.close();
  }
});
