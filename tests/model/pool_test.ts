/**
 * The model pool over several real (scripted) hosts: which host it picks, and how an attempt
 * moves to the next host when the current one drops.
 */
import assert from "node:assert/strict";
import { HostSlots, ModelError, ModelPool, type Slot, type SlotHost } from "../../lib/model/mod.ts";
import { createOllama, ollamaHost } from "../../lib/ollama/mod.ts";
import { createOpenAIHost } from "../../lib/openai/mod.ts";
import { closedUrl, startFakeOllama } from "../helpers/fake_ollama.ts";
import { startFakeOpenAI } from "../helpers/fake_openai.ts";

const MODEL = "qwen2.5-coder:7b";

function request() {
  return {
    model: MODEL,
    messages: [{ role: "user" as const, content: "hi" }],
    contextLength: 8192,
    maxTokens: 512,
    temperature: 0.1,
  };
}

function pool(...urls: string[]): ModelPool {
  return new ModelPool(urls.map((u) => ollamaHost(createOllama(u, { connectTimeoutS: 2 }))));
}

Deno.test("model pool skips a host that refuses connections and says so", async () => {
  const b = await startFakeOllama();
  try {
    const down = closedUrl();
    const p = pool(down, b.url);
    const notices: string[] = [];
    const facts = await p.prepare(MODEL, { notice: (m) => notices.push(m) });
    assert.equal(facts.contextLength, 32768);
    assert.equal(p.current.url, b.url);
    assert.ok(notices.some((n) => n.includes(down) && /not reachable/.test(n)), notices.join("|"));
    assert.ok(notices.some((n) => n === `using model host ${b.url}`), notices.join("|"));
    b.script("reply");
    assert.equal((await p.chat(request())).host, b.url);
  } finally {
    await b.close();
  }
});

Deno.test("model pool prefers the host that has the model loaded, then one that has it", async () => {
  const a = await startFakeOllama({ models: [{ name: "other:1b" }] });
  const b = await startFakeOllama();
  const c = await startFakeOllama();
  try {
    // c has the model in memory: an empty chat loads it, as `ollama run` does.
    await fetch(`${c.url}/api/chat`, {
      method: "POST",
      body: JSON.stringify({ model: MODEL, messages: [] }),
    }).then((r) => r.body?.cancel());
    const p = pool(a.url, b.url, c.url);
    const notices: string[] = [];
    await p.prepare(MODEL, { notice: (m) => notices.push(m) });
    assert.equal(p.current.url, c.url);
    assert.ok(notices.includes(`using model host ${c.url} (the model is loaded there)`));
    const none = pool(a.url);
    await assert.rejects(none.prepare(MODEL), /ollama pull qwen2.5-coder:7b/);
    const reports = await p.report(MODEL);
    assert.deepEqual(
      reports.map((r) => [r.reachable, r.model_installed, r.model_loaded]),
      [[true, false, false], [true, true, false], [true, true, true]],
    );
  } finally {
    await Promise.all([a.close(), b.close(), c.close()]);
  }
});

Deno.test("model pool with no host reachable reports the first host's error", async () => {
  const p = pool(closedUrl(), closedUrl());
  await assert.rejects(p.prepare(MODEL), (err) => {
    assert.ok(err instanceof ModelError);
    assert.match(err.message, /Ollama is not reachable at .*ollama serve/);
    return true;
  });
});

Deno.test("model pool retries an attempt once on the next host when the first dies mid-stream", async () => {
  const a = await startFakeOllama({ chunkDelayMs: 50 });
  const b = await startFakeOllama();
  try {
    const p = pool(a.url, b.url);
    await p.prepare(MODEL);
    a.script("x".repeat(400));
    b.script("the whole reply");
    const notices: string[] = [];
    const chat = p.chat(request(), { notice: (m) => notices.push(m) });
    await a.waitForChats(1);
    await new Promise((r) => setTimeout(r, 120));
    await a.close();
    const result = await chat;
    assert.equal(result.content, "the whole reply");
    assert.equal(result.host, b.url);
    assert.equal(p.current.url, b.url);
    assert.equal(notices.length, 1);
    assert.match(
      notices[0],
      new RegExp(`${a.url} dropped during the attempt .*retrying it on ${b.url}`),
    );
    // Once per chat: the second host's 500 moves it back to the first, which is gone for good.
    b.chatMode = "error";
    await assert.rejects(p.chat(request()), /Ollama is not reachable at/);
    assert.equal(b.chats.length, 2);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

Deno.test("model pool does not move an attempt for a model error or a cancel", async () => {
  const a = await startFakeOpenAI({ flavor: "vllm", models: [{ id: MODEL }], chunkDelayMs: 50 });
  const b = await startFakeOpenAI({ flavor: "vllm", models: [{ id: MODEL }] });
  try {
    const p = new ModelPool([createOpenAIHost(a.baseUrl), createOpenAIHost(b.baseUrl)]);
    await p.prepare(MODEL);
    a.script({ content: "", fail: "stream_error" });
    await assert.rejects(p.chat(request()), /llama_decode failed/);
    const ctl = new AbortController();
    a.script("x".repeat(200));
    const chat = p.chat({ ...request(), signal: ctl.signal, onChunk: () => ctl.abort() });
    await assert.rejects(chat, /cancelled/);
    assert.equal(b.chats.length, 0);
    // A server that dies mid-stream moves it.
    a.script("y".repeat(400));
    b.script("from b");
    const moved = p.chat(request());
    await a.waitForChats(3);
    await new Promise((r) => setTimeout(r, 120));
    await a.kill();
    assert.equal((await moved).content, "from b");
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

/** Shared slots that count every release a pool makes, and how many chats each host holds. */
class CountedSlots extends HostSlots {
  takes = 0;
  releases = 0;
  override async take(
    hosts: readonly SlotHost[],
    signal?: AbortSignal,
    onWait?: () => void,
  ): Promise<Slot> {
    const slot = await super.take(hosts, signal, onWait);
    this.takes++;
    return {
      url: slot.url,
      release: () => {
        this.releases++;
        slot.release();
      },
    };
  }
}

Deno.test("model pool releases each slot once when a host drops during a chat", async () => {
  const a = await startFakeOllama({ chunkDelayMs: 50 });
  const b = await startFakeOllama();
  try {
    const slots = new CountedSlots();
    const p = new ModelPool(
      [a.url, b.url].map((u) => ollamaHost(createOllama(u, { connectTimeoutS: 2 }))),
      { slots },
    );
    await p.prepare(MODEL);
    a.script("x".repeat(400));
    b.script("the whole reply");
    const chat = p.chat(request());
    await a.waitForChats(1);
    await new Promise((r) => setTimeout(r, 120));
    await a.close();
    assert.equal((await chat).host, b.url);
    // Two slots taken (a's, then b's for the retry), each released once.
    assert.deepEqual([slots.takes, slots.releases], [2, 2]);
    assert.equal(slots.busy(a.url) + slots.busy(b.url), 0);
    // A chat that fails on both hosts releases each of its slots once too.
    b.chatMode = "error";
    await assert.rejects(p.chat(request()));
    assert.deepEqual([slots.takes, slots.releases], [4, 4]);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

Deno.test("model pool gives each host its own parallel: 1 on the first, 2 on the second", async () => {
  const a = await startFakeOllama({ chunkDelayMs: 20 });
  const b = await startFakeOllama({ chunkDelayMs: 20 });
  try {
    const p = new ModelPool(
      [a.url, b.url].map((u) => ollamaHost(createOllama(u, { connectTimeoutS: 2 }))),
      { parallel: [1, 2] },
    );
    await p.prepare(MODEL);
    a.script("from a ".repeat(20));
    b.script("from b ".repeat(20), "from b ".repeat(20));
    const notices: string[] = [];
    const results = await Promise.all(
      [1, 2, 3].map(() => p.chat(request(), { notice: (m) => notices.push(m) })),
    );
    // Three chats at once fit without waiting: one on a, two on b.
    assert.deepEqual(notices, []);
    assert.deepEqual(results.map((r) => r.host).sort(), [a.url, b.url, b.url].sort());
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
