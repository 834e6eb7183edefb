import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  createOllama,
  findModel,
  OllamaError,
  type OllamaErrorKind,
} from "../../lib/ollama/mod.ts";
import {
  checkTruncation,
  chooseNumCtx,
  estimateChatTokens,
  estimateTokens,
} from "../../lib/implement/context_size.ts";
import { closedUrl, type FakeOllama, startFakeOllama } from "../helpers/fake_ollama.ts";

const MODEL = "qwen2.5-coder:7b";
const ASK = [{ role: "user" as const, content: "Write add(a, b)." }];

async function withFake(
  fn: (fake: FakeOllama) => Promise<void>,
  opts: Parameters<typeof startFakeOllama>[0] = {},
): Promise<void> {
  const fake = await startFakeOllama(opts);
  try {
    await fn(fake);
  } finally {
    await fake.close();
  }
}

/** Runs `call`, expects an OllamaError of `kind`, and returns it with the seconds it took. */
async function failure(
  kind: OllamaErrorKind,
  call: () => Promise<unknown>,
): Promise<{ err: OllamaError; secs: number }> {
  const t0 = performance.now();
  try {
    await call();
  } catch (err) {
    const secs = (performance.now() - t0) / 1000;
    assert.ok(err instanceof OllamaError, `expected OllamaError, got ${err}`);
    assert.equal(err.kind, kind, err.message);
    assert.ok(!err.message.includes("\n"), "one-line message");
    return { err, secs };
  }
  assert.fail(`expected a ${kind} error`);
}

Deno.test("ollama chat streams the reply with token counts and timings", async () => {
  await withFake(async (fake) => {
    const reply = "def add(a, b):\n    return a + b\n";
    fake.script(reply);
    const seen: number[] = [];
    const ollama = createOllama(fake.url);
    const result = await ollama.chat({
      model: MODEL,
      messages: [{ role: "system", content: "You edit code." }, ...ASK],
      options: { num_ctx: 8192, temperature: 0.1, num_predict: 2048 },
      keep_alive: "30m",
      onChunk: (p) => seen.push(p.chars),
    });
    assert.equal(result.content, reply);
    assert.equal(result.doneReason, "stop");
    assert.equal(result.evalCount, Math.ceil(reply.length / 4));
    assert.equal(result.promptEvalCount, Math.ceil(14 / 4) + 4 + Math.ceil(16 / 4) + 4 + 3);
    assert.ok(result.totalSecs > result.loadSecs && result.loadSecs > 0);
    assert.ok(result.chunks > 3, "several chunks");
    assert.ok(seen.length > 3 && seen.at(-1) === reply.length, "progress per chunk");
    const sent = fake.chats[0];
    assert.equal(sent.stream, true);
    assert.equal(sent.keep_alive, "30m");
    assert.deepEqual(sent.options, { num_ctx: 8192, temperature: 0.1, num_predict: 2048 });
  });
});

Deno.test("ollama chat returns done_reason length instead of throwing", async () => {
  await withFake(async (fake) => {
    fake.script("x".repeat(400));
    const result = await createOllama(fake.url).chat({
      model: MODEL,
      messages: ASK,
      options: { num_predict: 10 },
    });
    assert.equal(result.doneReason, "length");
    assert.equal(result.content.length, 40);
  });
});

Deno.test("ollama chat keeps a thinking model's thoughts apart from the reply", async () => {
  await withFake(async (fake) => {
    fake.script({ thinking: "The user wants a sum.", content: "return a + b" });
    const kinds: boolean[] = [];
    const result = await createOllama(fake.url).chat({
      model: MODEL,
      messages: ASK,
      onChunk: (p) => kinds.push(p.thinking),
    });
    assert.equal(result.thinking, "The user wants a sum.");
    assert.equal(result.content, "return a + b");
    assert.ok(kinds[0] && !kinds.at(-1), "thinking chunks come first");
  });
});

Deno.test("ollama maps a missing model to model_missing with the pull command", async () => {
  await withFake(async (fake) => {
    const ollama = createOllama(fake.url);
    const chat = await failure(
      "model_missing",
      () => ollama.chat({ model: "llama3:70b", messages: ASK }),
    );
    assert.match(chat.err.message, /"llama3:70b" is not installed: run `ollama pull llama3:70b`/);
    const show = await failure("model_missing", () => ollama.show("llama3:70b"));
    assert.equal(show.err.status, 404);
  });
});

Deno.test("ollama maps HTTP 500 to an http error carrying Ollama's words", async () => {
  await withFake(async (fake) => {
    fake.chatMode = "error";
    fake.errorText = "llama runner process has terminated: signal: killed";
    const { err } = await failure(
      "http",
      () => createOllama(fake.url).chat({ model: MODEL, messages: ASK }),
    );
    assert.equal(err.status, 500);
    assert.equal(
      err.message,
      "Ollama failed (HTTP 500): llama runner process has terminated: signal: killed",
    );
  });
});

Deno.test("ollama reports a host where nothing listens as unreachable, quickly", async () => {
  const url = closedUrl();
  const ollama = createOllama(url);
  const tags = await failure("unreachable", () => ollama.tags());
  assert.equal(
    tags.err.message,
    `Ollama is not reachable at ${url}: start \`ollama serve\`, or set ollama_host in .localexec.json`,
  );
  assert.ok(tags.secs < 2, `took ${tags.secs} s`);
  await failure("unreachable", () => ollama.chat({ model: MODEL, messages: ASK }));
});

Deno.test("ollama chat times out on a stalled stream within the idle timeout", async () => {
  await withFake(async (fake) => {
    const ollama = createOllama(fake.url, { idleTimeoutS: 0.3 });
    for (const mode of ["stall", "stall_after_first"] as const) {
      fake.chatMode = mode;
      const { err, secs } = await failure(
        "timeout",
        () => ollama.chat({ model: MODEL, messages: ASK }),
      );
      assert.match(err.message, /stopped sending for 0\.3 s/);
      assert.ok(secs < 3, `${mode} took ${secs} s`);
    }
  });
});

Deno.test("ollama chat times out when no answer starts within the first-chunk timeout", async () => {
  await withFake(async (fake) => {
    fake.chatMode = "hang";
    const ollama = createOllama(fake.url, { firstChunkTimeoutS: 0.3 });
    const { err, secs } = await failure(
      "timeout",
      () => ollama.chat({ model: MODEL, messages: ASK }),
    );
    assert.match(err.message, /sent nothing for 0\.3 s/);
    assert.ok(secs < 3, `took ${secs} s`);
  });
});

Deno.test("ollama quick calls time out within the connect timeout", async () => {
  await withFake(async (fake) => {
    fake.mode = "hang";
    const { err, secs } = await failure(
      "timeout",
      () => createOllama(fake.url, { connectTimeoutS: 0.3 }).version(),
    );
    assert.match(err.message, /did not answer within 0\.3 s/);
    assert.ok(secs < 3, `took ${secs} s`);
  });
});

Deno.test("ollama chat enforces the overall request timeout on a slow reply", async () => {
  await withFake(async (fake) => {
    fake.script({ content: "y".repeat(400), chunkDelayMs: 50 });
    const ollama = createOllama(fake.url, { requestTimeoutS: 0.4, idleTimeoutS: 5 });
    const { err, secs } = await failure(
      "timeout",
      () => ollama.chat({ model: MODEL, messages: ASK }),
    );
    assert.match(err.message, /did not finish within 0\.4 s: raise request_timeout_s/);
    assert.ok(secs < 3, `took ${secs} s`);
  });
});

Deno.test("ollama reports answers that are not Ollama's API as bad_response", async () => {
  await withFake(async (fake) => {
    const ollama = createOllama(fake.url);
    for (const mode of ["html", "broken_json", "no_done"] as const) {
      fake.chatMode = mode;
      const { err } = await failure(
        "bad_response",
        () => ollama.chat({ model: MODEL, messages: ASK }),
      );
      assert.match(err.message, new RegExp(fake.url.replaceAll(".", "\\.")));
    }
    fake.mode = "html";
    const { err } = await failure("bad_response", () => ollama.tags());
    assert.match(err.message, /not Ollama's API: "<!DOCTYPE html>/);
    fake.mode = "broken_json";
    await failure("bad_response", () => ollama.ps());
  });
});

Deno.test("ollama chat reports a connection dropped mid-reply", async () => {
  await withFake(async (fake) => {
    fake.chatMode = "drop";
    const { err } = await failure(
      "unreachable",
      () => createOllama(fake.url).chat({ model: MODEL, messages: ASK }),
    );
    assert.match(err.message, /broke during the answer/);
  });
});

Deno.test("ollama chat cancels before the response starts, within a second", async () => {
  await withFake(async (fake) => {
    fake.chatMode = "hang";
    const ctl = new AbortController();
    const call = failure(
      "cancelled",
      () => createOllama(fake.url).chat({ model: MODEL, messages: ASK, signal: ctl.signal }),
    );
    await fake.waitForChats(1);
    const t0 = performance.now();
    ctl.abort();
    const { err } = await call;
    const secs = (performance.now() - t0) / 1000;
    assert.equal(err.message, "the request to Ollama was cancelled");
    assert.ok(secs < 1, `took ${secs} s after abort`);
  });
});

Deno.test("ollama chat cancels mid-stream, within a second", async () => {
  await withFake(async (fake) => {
    fake.script({ content: "z".repeat(2000), chunkDelayMs: 100 });
    const ctl = new AbortController();
    let abortedAt = 0;
    const { err } = await failure("cancelled", () =>
      createOllama(fake.url).chat({
        model: MODEL,
        messages: ASK,
        signal: ctl.signal,
        onChunk: (p) => {
          if (p.chunks === 2) {
            abortedAt = performance.now();
            ctl.abort();
          }
        },
      }));
    const secs = (performance.now() - abortedAt) / 1000;
    assert.ok(abortedAt > 0 && secs < 1, `took ${secs} s after abort`);
    assert.ok(err instanceof OllamaError);
  });
});

Deno.test("ollama chat with an already aborted signal sends nothing", async () => {
  await withFake(async (fake) => {
    const ctl = new AbortController();
    ctl.abort();
    await failure(
      "cancelled",
      () => createOllama(fake.url).chat({ model: MODEL, messages: ASK, signal: ctl.signal }),
    );
    assert.equal(fake.requests.length, 0);
  });
});

Deno.test("ollama show reads context length, family, quantization and num_ctx", async () => {
  await withFake(async (fake) => {
    const ollama = createOllama(fake.url);
    const qwen = await ollama.show(MODEL);
    assert.deepEqual(qwen, {
      contextLength: 32768,
      family: "qwen2",
      parameterSize: "7.6B",
      quantization: "Q4_K_M",
      numCtx: undefined,
      capabilities: ["completion", "tools", "insert"],
    });
    const tuned = await ollama.show("tuned");
    assert.equal(tuned.contextLength, undefined);
    assert.equal(tuned.numCtx, 16384);
    assert.equal(tuned.family, "llama");
  }, {
    models: [
      { name: MODEL, contextLength: 32768 },
      { name: "tuned:latest", family: "llama", numCtx: 16384 },
    ],
  });
});

Deno.test("ollama ps lists loaded models with the context they were loaded with", async () => {
  await withFake(async (fake) => {
    const ollama = createOllama(fake.url);
    assert.deepEqual(await ollama.ps(), []);
    fake.script("ok");
    await ollama.chat({
      model: MODEL,
      messages: ASK,
      options: { num_ctx: 8192 },
      keep_alive: "1h",
    });
    const [loaded] = await ollama.ps();
    assert.equal(loaded.name, MODEL);
    assert.equal(loaded.contextLength, 8192);
    const left = Date.parse(loaded.expiresAt!) - Date.now();
    assert.ok(left > 50 * 60_000 && left <= 3600_000, `expires in ${left} ms`);
    fake.script("ok");
    await ollama.chat({ model: MODEL, messages: ASK, keep_alive: 0 });
    assert.deepEqual(await ollama.ps(), []);
  });
});

Deno.test("ollama tags lists installed models and findModel matches :latest", async () => {
  await withFake(async (fake) => {
    const models = await createOllama(fake.url).tags();
    assert.deepEqual(models.map((m) => m.name), [MODEL, "llama3:latest"]);
    assert.equal(models[0].quantization, "Q4_K_M");
    assert.ok(models[0].size > 0 && models[0].digest.length === 64);
    assert.equal(findModel(models, "llama3")?.name, "llama3:latest");
    assert.equal(findModel(models, "Qwen2.5-Coder:7b")?.name, MODEL);
    assert.equal(findModel(models, "qwen2.5-coder"), undefined);
    assert.equal(await createOllama(fake.url).version(), "0.12.6");
  }, { models: [{ name: MODEL }, { name: "llama3:latest" }] });
});

Deno.test("ollama names the --allow-net flag when Deno may not connect", async () => {
  await withFake(async (fake) => {
    const script = await Deno.makeTempFile({ suffix: ".ts" });
    try {
      const lib = new URL("../../lib/ollama/mod.ts", import.meta.url).href;
      await Deno.writeTextFile(
        script,
        `import { createOllama } from "${lib}";\n` +
          `try { await createOllama("${fake.url}").tags(); } catch (e) {\n` +
          `  console.log(JSON.stringify({ kind: e.kind, message: e.message })); }\n`,
      );
      const config = fileURLToPath(new URL("../../deno.json", import.meta.url));
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", "--allow-read", "--allow-env", "--config", config, script],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(out.stdout).trim();
      const result = JSON.parse(stdout);
      assert.equal(result.kind, "unreachable");
      assert.match(result.message, new RegExp(`--allow-net=127\\.0\\.0\\.1:${fake.port}`));
      assert.equal(fake.requests.length, 0);
    } finally {
      await Deno.remove(script);
    }
  });
});

// Token counts of these samples under the Qwen2.5/Qwen3 tokenizer, measured once offline.
const SAMPLES: [string, string, number][] = [
  [
    "python",
    'def parse_config(path: str) -> dict[str, int]:\n    """Read KEY=VALUE lines, skipping comments."""\n    result: dict[str, int] = {}\n    with open(path, encoding="utf-8") as fh:\n        for line in fh:\n            line = line.strip()\n            if not line or line.startswith("#"):\n                continue\n            key, _, value = line.partition("=")\n            result[key.strip()] = int(value)\n    return result\n',
    95,
  ],
  [
    "typescript",
    "export async function retry<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {\n  let last: unknown;\n  for (let i = 0; i < attempts; i++) {\n    try {\n      return await fn();\n    } catch (err) {\n      last = err;\n      await new Promise((r) => setTimeout(r, 2 ** i * 100));\n    }\n  }\n  throw last;\n}\n",
    94,
  ],
  [
    "json",
    '[{"id": 1842, "tags": ["alpha", "beta"], "price": 19.99, "ok": true},\n {"id": 9051, "tags": ["gamma"], "price": 250.5, "ok": false},\n {"id": 77, "tags": [], "price": 0.01, "ok": true}]\n',
    89,
  ],
  [
    "prose",
    "The quick brown fox jumps over the lazy dog. Local models are slower than hosted ones, so the prompt should carry only what the task needs: the spec, the function to change, and the tests that must pass.\n",
    44,
  ],
  ["chinese", "这是一个测试。我们需要确保估计的令牌数量不会低于实际数量。\n", 14],
  ["numbers", "3.14159 2.71828 1.41421 1.73205 0.57721 4.66920 2.50290 1234567890\n", 67],
];

Deno.test("estimateTokens never undercounts code, data or prose", () => {
  for (const [name, text, real] of SAMPLES) {
    const est = estimateTokens(text);
    assert.ok(est >= real, `${name}: estimate ${est} < real ${real}`);
    assert.ok(est <= real * 3, `${name}: estimate ${est} is over 3x real ${real}`);
  }
  assert.ok(estimateTokens("1234567890") > estimateTokens("abcdefghij"), "digits cost more");
  assert.ok(estimateTokens("") < 8);
  const chat = estimateChatTokens([{ content: "a" }, { content: "b" }]);
  assert.ok(chat > estimateTokens("a") + estimateTokens("b"), "messages add template overhead");
});

Deno.test("chooseNumCtx picks the smallest fixed size that fits", () => {
  assert.deepEqual(chooseNumCtx(3000, 1000), { numCtx: 4096, reason: "fixed size" });
  assert.deepEqual(chooseNumCtx(3500, 1000), { numCtx: 8192, reason: "fixed size" });
  assert.deepEqual(chooseNumCtx(60000, 4000, { modelMax: 131072 }), {
    numCtx: 65536,
    reason: "fixed size",
  });
});

Deno.test("chooseNumCtx keeps the size the model is loaded with when it fits", () => {
  assert.deepEqual(chooseNumCtx(4000, 1000, { loaded: 16384, modelMax: 32768 }), {
    numCtx: 16384,
    reason: "loaded",
  });
  assert.deepEqual(chooseNumCtx(4000, 1000, { loaded: 4096 }), {
    numCtx: 8192,
    reason: "fixed size",
  });
  // loaded with more than the model's maximum (an old setting): not reused
  assert.deepEqual(chooseNumCtx(4000, 1000, { loaded: 65536, modelMax: 32768 }), {
    numCtx: 8192,
    reason: "fixed size",
  });
});

Deno.test("chooseNumCtx stops at the model's window and says when a task cannot fit", () => {
  assert.deepEqual(chooseNumCtx(9000, 1000, { modelMax: 12000 }), {
    numCtx: 12000,
    reason: "model maximum",
  });
  const tooBig = chooseNumCtx(36000, 4000, { modelMax: 32768 });
  assert.ok("error" in tooBig);
  assert.equal(tooBig.error, "task needs ~40000 tokens; the model's window is 32768");
  const huge = chooseNumCtx(200000, 1000);
  assert.ok("error" in huge && huge.limit === 131072);
});

Deno.test("chooseNumCtx uses the configured num_ctx as it is", () => {
  assert.deepEqual(chooseNumCtx(3000, 1000, { configured: 6000, loaded: 32768 }), {
    numCtx: 6000,
    reason: "configured",
  });
  const over = chooseNumCtx(5000, 2000, { configured: 6000 });
  assert.ok("error" in over);
  assert.equal(over.error, "task needs ~7000 tokens; num_ctx in .localexec.json is 6000");
  const capped = chooseNumCtx(5000, 2000, { configured: 65536, modelMax: 4096 });
  assert.ok("error" in capped && /the model's window is 4096/.test(capped.error));
});

Deno.test("checkTruncation warns only when Ollama evidently cut the prompt", () => {
  assert.equal(checkTruncation(3000, 2100, 8192), undefined, "a normal prompt");
  assert.equal(checkTruncation(3000, 0, 8192), undefined, "no count reported");
  assert.match(checkTruncation(7000, 8191, 8192)!, /filled the context window/);
  assert.match(checkTruncation(9000, 4099, 8192)!, /kept only part of it/);
  assert.match(checkTruncation(9000, 1200, 16384)!, /did not reach the model/);
  assert.equal(checkTruncation(3000, 4099, 8192), undefined, "a legit prompt near half the window");
});

Deno.test("a num_ctx chosen from the estimate keeps the prompt whole; a small one is flagged", async () => {
  await withFake(async (fake) => {
    const ollama = createOllama(fake.url);
    const body = SAMPLES[1][1].repeat(60);
    const messages = [{ role: "user" as const, content: body }];
    const estimate = estimateChatTokens(messages);
    const { contextLength } = await ollama.show(MODEL);
    const choice = chooseNumCtx(estimate, 1024, { modelMax: contextLength });
    assert.ok("numCtx" in choice);
    fake.script("ok", "ok");
    const fits = await ollama.chat({ model: MODEL, messages, options: { num_ctx: choice.numCtx } });
    assert.equal(fake.chats[0].options?.num_ctx, choice.numCtx);
    assert.equal(checkTruncation(estimate, fits.promptEvalCount, choice.numCtx), undefined);
    const cut = await ollama.chat({ model: MODEL, messages, options: { num_ctx: 2048 } });
    assert.match(checkTruncation(estimate, cut.promptEvalCount, 2048) ?? "", /kept only part/);
  });
});
