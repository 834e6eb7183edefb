/**
 * `first_token_timeout_s` from `.localexec.json` to the chat: a pool built from a loaded config
 * the way the engine builds it waits that long for a model's first chunk, on either backend, over
 * real (scripted) servers whose model answers only after a cold start.
 */
import { PROVIDERS } from "../../lib/providers/mod.ts";
import assert from "node:assert/strict";
import { parseConfig } from "../../lib/config.ts";
import { modelPool } from "../../lib/implement/hosts.ts";
import { ModelError, readLadder } from "../../lib/model/mod.ts";
import { startFakeOllama } from "../helpers/fake_ollama.ts";
import { startFakeOpenAI } from "../helpers/fake_openai.ts";

const MODEL = "qwen2.5-coder:7b";
/** When the scripted model sends its first chunk: between the two timeouts tried (1 s and 2 s). */
const COLD_MS = 1500;

type Backend = "ollama" | "openai";

/**
 * Asks the model of a config with `first_token_timeout_s: firstTokenS` on a scripted `backend`
 * server; the pool gets the config's timeouts as `lib/implement/run.ts` gives them.
 */
async function ask(
  backend: Backend,
  firstTokenS: number,
): Promise<{ reply: string; secs: number }> {
  const ollama = backend === "ollama" ? await startFakeOllama({ modelMs: COLD_MS }) : undefined;
  const openai = backend === "openai"
    ? await startFakeOpenAI({ models: [{ id: MODEL, contextLength: 8192 }], modelMs: COLD_MS })
    : undefined;
  try {
    const server = ollama
      ? { ollama_host: ollama.url }
      : { provider: "openai", base_url: openai!.baseUrl };
    const config = parseConfig(
      { model: MODEL, ...server, first_token_timeout_s: firstTokenS },
      "cfg",
      PROVIDERS,
    );
    const [rung] = readLadder(config, PROVIDERS);
    const pool = modelPool(rung, {
      firstChunkTimeoutS: config.first_token_timeout_s,
      requestTimeoutS: config.request_timeout_s,
    });
    await pool.prepare(MODEL);
    (ollama ?? openai)!.script("def add(a, b):\n    return a + b\n");
    const t0 = performance.now();
    const result = await pool.chat({
      model: MODEL,
      messages: [{ role: "user", content: "Write add(a, b)." }],
      contextLength: 8192,
      maxTokens: 512,
      temperature: 0.1,
    }).catch((err) => {
      if (!(err instanceof ModelError)) throw err;
      return err;
    });
    const secs = (performance.now() - t0) / 1000;
    if (result instanceof ModelError) {
      assert.equal(result.kind, "timeout", result.message);
      return { reply: result.message, secs };
    }
    return { reply: result.content, secs };
  } finally {
    await Promise.all([ollama?.close(), openai?.close()]);
  }
}

Deno.test("first_token_timeout_s: a first chunk later than it fails the chat, on both backends", async () => {
  for (const { reply, secs } of await Promise.all([ask("ollama", 1), ask("openai", 1)])) {
    assert.match(reply, /^the model sent nothing for 1 s .*raise first_token_timeout_s/);
    assert.ok(secs < COLD_MS / 1000, `failed after ${secs} s, not at the 1 s timeout`);
  }
});

Deno.test("first_token_timeout_s: a first chunk within it passes, on both backends", async () => {
  for (const { reply } of await Promise.all([ask("ollama", 2), ask("openai", 2)])) {
    assert.equal(reply, "def add(a, b):\n    return a + b\n");
  }
});
