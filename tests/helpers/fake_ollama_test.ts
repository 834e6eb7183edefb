import assert from "node:assert/strict";
import { closedUrl, type FakeOllama, startFakeOllama } from "./fake_ollama.ts";

const MODEL = "qwen2.5-coder:7b";

async function withFake(fn: (fake: FakeOllama) => Promise<void>): Promise<void> {
  const fake = await startFakeOllama({
    models: [{ name: MODEL, contextLength: 32768 }, { name: "llama3:latest", family: "llama" }],
  });
  try {
    await fn(fake);
  } finally {
    await fake.close();
  }
}

function post(fake: FakeOllama, path: string, body: unknown): Promise<Response> {
  return fetch(fake.url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function json(res: Response): Promise<Record<string, unknown>> {
  return await res.json() as Record<string, unknown>;
}

function chat(extra: Record<string, unknown> = {}) {
  return { model: MODEL, messages: [{ role: "user", content: "Say hi." }], ...extra };
}

Deno.test("fake ollama answers the root, version and tags like Ollama", async () => {
  await withFake(async (fake) => {
    const root = await fetch(fake.url);
    assert.equal(await root.text(), "Ollama is running");
    const version = await fetch(`${fake.url}/api/version`);
    assert.equal(version.headers.get("content-type"), "application/json; charset=utf-8");
    assert.deepEqual(await version.json(), { version: "0.12.6" });
    const tags = await json(await fetch(`${fake.url}/api/tags`));
    const models = tags.models as Record<string, unknown>[];
    assert.deepEqual(models.map((m) => m.name), [MODEL, "llama3:latest"]);
    for (const key of ["name", "model", "modified_at", "size", "digest", "details"]) {
      assert.ok(key in models[0], key);
    }
    assert.equal((models[1].details as Record<string, unknown>).family, "llama");
  });
});

Deno.test("fake ollama shows model_info with <family>.context_length and parameters", async () => {
  await withFake(async (fake) => {
    const shown = await json(await post(fake, "/api/show", { model: MODEL }));
    const info = shown.model_info as Record<string, unknown>;
    assert.equal(info["general.architecture"], "qwen2");
    assert.equal(info["qwen2.context_length"], 32768);
    assert.match(String(shown.parameters), /^stop {27}"<\|im_start\|>"/m);
    assert.equal((shown.details as Record<string, unknown>).quantization_level, "Q4_K_M");
    const old = await json(await post(fake, "/api/show", { name: "llama3" }));
    assert.equal((old.model_info as Record<string, unknown>)["llama.context_length"], undefined);
  });
});

Deno.test("fake ollama streams chat as NDJSON that ends with done and token counts", async () => {
  await withFake(async (fake) => {
    const reply = "Hello there, this reply arrives in pieces.";
    fake.script(reply);
    const res = await post(fake, "/api/chat", chat({ options: { num_ctx: 8192 } }));
    assert.equal(res.headers.get("content-type"), "application/x-ndjson");
    const lines = (await res.text()).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.ok(lines.length > 3, "several chunks");
    assert.deepEqual(lines.map((l) => l.done), [...Array(lines.length - 1).fill(false), true]);
    assert.equal(lines.map((l) => l.message.content).join(""), reply);
    const last = lines.at(-1);
    assert.equal(last.done_reason, "stop");
    assert.equal(last.eval_count, Math.ceil(reply.length / 4));
    assert.equal(last.prompt_eval_count, Math.ceil("Say hi.".length / 4) + 4 + 3);
    for (
      const key of ["total_duration", "load_duration", "prompt_eval_duration", "eval_duration"]
    ) {
      assert.ok(Number.isInteger(last[key]) && last[key] > 0, key);
    }
    assert.equal(lines[0].model, MODEL);
    assert.equal(lines[0].message.role, "assistant");
  });
});

Deno.test("fake ollama answers stream false with one JSON object", async () => {
  await withFake(async (fake) => {
    fake.script("whole reply");
    const res = await post(fake, "/api/chat", chat({ stream: false }));
    assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
    const body = await json(res);
    assert.deepEqual(body.message, { role: "assistant", content: "whole reply" });
    assert.equal(body.done, true);
    assert.equal(body.done_reason, "stop");
  });
});

Deno.test("fake ollama replays the script in order, calling functions with the request", async () => {
  await withFake(async (fake) => {
    fake.script("first", (req) => `echo ${req.messages[0].content}`, { content: "third" });
    assert.equal(fake.pending, 3);
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const body = await json(await post(fake, "/api/chat", chat({ stream: false })));
      texts.push((body.message as { content: string }).content);
    }
    assert.deepEqual(texts, ["first", "echo Say hi.", "third"]);
    const empty = await post(fake, "/api/chat", chat());
    assert.equal(empty.status, 500);
    assert.match(String((await json(empty)).error), /no scripted reply left/);
  });
});

Deno.test("fake ollama gives Ollama's 404s for unknown models and paths", async () => {
  await withFake(async (fake) => {
    const chatRes = await post(fake, "/api/chat", chat({ model: "mistral" }));
    assert.equal(chatRes.status, 404);
    assert.deepEqual(await chatRes.json(), { error: "model 'mistral' not found" });
    const show = await post(fake, "/api/show", { model: "mistral:7b" });
    assert.deepEqual(await show.json(), { error: "model 'mistral:7b' not found" });
    const path = await fetch(`${fake.url}/api/nothing`);
    assert.equal(path.status, 404);
    assert.equal(await path.text(), "404 page not found");
    const method = await fetch(`${fake.url}/api/chat`);
    assert.equal(method.status, 404);
    await method.body?.cancel();
  });
});

Deno.test("fake ollama rejects bad bodies and keep_alive values like Ollama", async () => {
  await withFake(async (fake) => {
    const cases: [unknown, RegExp][] = [
      ["", /missing request body/],
      ["{oops", /invalid character '\{'|invalid character/],
      [{ messages: [] }, /model is required/],
      [chat({ keep_alive: "30" }), /missing unit in duration "30"/],
      [chat({ keep_alive: "soon" }), /invalid duration "soon"/],
    ];
    for (const [body, pattern] of cases) {
      const res = await post(fake, "/api/chat", body);
      assert.equal(res.status, 400, String(body));
      assert.match(String((await json(res)).error), pattern);
    }
  });
});

Deno.test("fake ollama loads, reloads and unloads models by num_ctx and keep_alive", async () => {
  await withFake(async (fake) => {
    const ps = async () =>
      (await json(await fetch(`${fake.url}/api/ps`))).models as Record<string, unknown>[];
    assert.deepEqual(await ps(), []);
    const load = await json(await post(fake, "/api/chat", { model: MODEL, messages: [] }));
    assert.equal(load.done_reason, "load");
    assert.equal((await ps())[0].context_length, 4096);
    fake.script("a", "b", "c");
    await (await post(fake, "/api/chat", chat({ options: { num_ctx: 8192 }, keep_alive: "2h" })))
      .text();
    await (await post(fake, "/api/chat", chat({ options: { num_ctx: 8192 }, keep_alive: -1 })))
      .text();
    assert.equal(fake.loads, 2, "the same num_ctx does not reload");
    const [loaded] = await ps();
    assert.equal(loaded.context_length, 8192);
    assert.ok(Date.parse(String(loaded.expires_at)) > Date.now() + 100 * 365 * 86400_000);
    await (await post(fake, "/api/chat", chat({ options: { num_ctx: 65536 } }))).text();
    assert.equal(fake.loads, 3);
    assert.equal((await ps())[0].context_length, 32768, "capped at the model's context length");
    const unload = await json(
      await post(fake, "/api/chat", { model: MODEL, messages: [], keep_alive: 0 }),
    );
    assert.equal(unload.done_reason, "unload");
    assert.deepEqual(await ps(), []);
  });
});

Deno.test("fake ollama cuts a reply at num_predict with done_reason length", async () => {
  await withFake(async (fake) => {
    fake.script("w".repeat(100), { content: "short", doneReason: "length" });
    const cut = await json(
      await post(fake, "/api/chat", chat({ stream: false, options: { num_predict: 5 } })),
    );
    assert.equal((cut.message as { content: string }).content, "w".repeat(20));
    assert.equal(cut.done_reason, "length");
    assert.equal(cut.eval_count, 5);
    const scripted = await json(await post(fake, "/api/chat", chat({ stream: false })));
    assert.equal(scripted.done_reason, "length");
  });
});

Deno.test("fake ollama truncates an over-long prompt the way Ollama does", async () => {
  await withFake(async (fake) => {
    fake.script("ok", "ok");
    const long = { role: "user", content: "x".repeat(40_000) };
    const cut = await json(
      await post(
        fake,
        "/api/chat",
        chat({ stream: false, messages: [long], options: { num_ctx: 4096 } }),
      ),
    );
    assert.equal(cut.prompt_eval_count, 4096 - Math.floor((4096 - 5) / 2));
    const whole = await json(
      await post(
        fake,
        "/api/chat",
        chat({ stream: false, messages: [long], options: { num_ctx: 16384 } }),
      ),
    );
    assert.equal(whole.prompt_eval_count, 10_000 + 4 + 3);
  });
});

Deno.test("fake ollama records every request with its parsed body", async () => {
  await withFake(async (fake) => {
    fake.script("hi");
    const waiting = fake.waitForChats(1);
    await (await fetch(`${fake.url}/api/tags`)).text();
    await (await post(fake, "/api/chat", chat({ options: { temperature: 0.2 } }))).text();
    await waiting;
    assert.deepEqual(fake.requests.map((r) => `${r.method} ${r.path}`), [
      "GET /api/tags",
      "POST /api/chat",
    ]);
    assert.equal(fake.chats.length, 1);
    assert.deepEqual(fake.chats[0].options, { temperature: 0.2 });
    assert.ok(fake.requests.every((r) => r.doneMs !== undefined && r.doneMs >= r.receivedMs));
  });
});

Deno.test("fake ollama failure modes answer 500, HTML, broken JSON and no final chunk", async () => {
  await withFake(async (fake) => {
    fake.mode = "error";
    const error = await fetch(`${fake.url}/api/tags`);
    assert.equal(error.status, 500);
    assert.deepEqual(await error.json(), { error: fake.errorText });
    fake.mode = "html";
    const html = await fetch(`${fake.url}/api/version`);
    assert.equal(html.headers.get("content-type"), "text/html");
    assert.match(await html.text(), /^<!DOCTYPE html>/);
    fake.mode = "broken_json";
    const broken = await (await fetch(`${fake.url}/api/version`)).text();
    assert.throws(() => JSON.parse(broken));
    fake.mode = "normal";
    fake.chatMode = "no_done";
    const text = await (await post(fake, "/api/chat", chat())).text();
    assert.ok(text.length > 0 && !text.includes('"done":true'));
    assert.equal(fake.pending, 0, "chatMode leaves the script alone");
  });
});

Deno.test("fake ollama stalls after headers until it is closed", async () => {
  const fake = await startFakeOllama();
  fake.chatMode = "stall_after_first";
  const res = await post(fake, "/api/chat", chat());
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const first = await reader.read();
  assert.match(new TextDecoder().decode(first.value), /"done":false/);
  let settled = false;
  const rest = reader.read().then((r) => (settled = true, r));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(settled, false, "nothing more arrives while it stalls");
  await fake.close();
  assert.equal((await rest).done, true);
});

Deno.test("fake ollama refuses connections once told to", async () => {
  const fake = await startFakeOllama();
  await (await fetch(`${fake.url}/api/version`)).text();
  await fake.refuse();
  await assert.rejects(fetch(`${fake.url}/api/version`), TypeError);
  await fake.close();
  await assert.rejects(fetch(`${closedUrl()}/api/version`), TypeError);
});

Deno.test("fake ollama closes cleanly in the middle of a slow reply", async () => {
  const fake = await startFakeOllama({ chunkDelayMs: 5_000 });
  fake.script("a slow reply in many chunks");
  const res = await post(fake, "/api/chat", chat());
  const reader = res.body!.getReader();
  assert.match(new TextDecoder().decode((await reader.read()).value), /"done":false/);
  await fake.close();
  while (!(await reader.read()).done) {
    // drain what was sent before the close
  }
  assert.ok(fake.requests[0].doneMs !== undefined);
});

Deno.test("fake ollama: a fixed model time per chat, and the most chats served at once", async () => {
  await withFake(async (fake) => {
    fake.modelMs = 200;
    fake.script("one", "two");
    const [a, b] = await Promise.all([
      post(fake, "/api/chat", chat()),
      post(fake, "/api/chat", chat()),
    ]);
    await a.text();
    await b.text();
    assert.deepEqual(fake.busy, { now: 0, most: 2 });
    for (const r of fake.requests.filter((r) => r.path === "/api/chat")) {
      assert.ok(
        r.doneMs! - r.receivedMs >= 200,
        `answered after the model time: ${JSON.stringify(r)}`,
      );
    }
    // A load (no messages) takes no model time and is not a chat served.
    await (await post(fake, "/api/chat", { model: MODEL, messages: [] })).text();
    assert.deepEqual(fake.busy, { now: 0, most: 2 });
  });
});
