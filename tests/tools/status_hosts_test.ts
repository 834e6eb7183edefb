/**
 * status on other model servers: an OpenAI-compatible server, and several Ollama hosts.
 */
import assert from "node:assert/strict";
import statusTool from "../../tools/status.ts";
import { closedUrl, startFakeOllama } from "../helpers/fake_ollama.ts";
import { startFakeOpenAI } from "../helpers/fake_openai.ts";
import { callJson, tempProject, testContext } from "../helpers/project.ts";

async function status(config: Record<string, unknown>): Promise<Record<string, unknown>> {
  const root = await tempProject({ ".localexec.json": JSON.stringify(config) });
  try {
    const out = await callJson(statusTool, {}, testContext(root));
    const size = JSON.stringify(out).length;
    assert.ok(size <= 1000, `status is ${size} characters: ${JSON.stringify(out)}`);
    return out;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("status reports an OpenAI-compatible server: kind, model served, its window", async () => {
  const fake = await startFakeOpenAI({
    flavor: "vllm",
    models: [{ id: "Qwen/Qwen2.5-Coder-7B-Instruct", contextLength: 32768 }],
  });
  try {
    const base = { provider: "openai", base_url: fake.baseUrl };
    const out = await status({ ...base, model: "Qwen/Qwen2.5-Coder-7B-Instruct" });
    assert.equal(out.status, "ok");
    assert.equal(out.provider, "openai");
    assert.equal(out.base_url, fake.baseUrl);
    assert.equal(out.ollama_host, undefined);
    assert.equal(out.server, "vLLM");
    assert.equal(out.model_installed, true);
    assert.equal(out.model_loaded, true);
    assert.equal(out.context, 32768);
    const missing = await status({ ...base, model: "qwen2.5-coder:7b" });
    assert.equal(missing.model_installed, false);
    assert.match(
      String(missing.hint),
      /is not served at .*it serves "Qwen\/Qwen2\.5-Coder-7B-Instruct"/,
    );
  } finally {
    await fake.close();
  }
  const down = await status({ provider: "openai", base_url: closedUrl(), model: "m" });
  assert.equal(down.status, "error");
  assert.match(String(down.error), /model server is not reachable/);
  assert.match(String(down.hint), /start the model server/);
});

Deno.test("status reports each Ollama host and the one implement_task would use", async () => {
  const b = await startFakeOllama();
  try {
    const down = closedUrl();
    const out = await status({ model: "qwen2.5-coder:7b", ollama_host: [down, b.url] });
    assert.equal(out.status, "ok");
    assert.deepEqual(out.ollama_host, [down, b.url]);
    assert.equal(out.host, b.url);
    assert.equal(out.model_installed, true);
    const hosts = out.hosts as Record<string, unknown>[];
    assert.equal(hosts.length, 2);
    assert.equal(hosts[0].url, down);
    assert.equal(hosts[0].reachable, false);
    assert.match(String(hosts[0].error), /not reachable/);
    assert.deepEqual(hosts[1], {
      url: b.url,
      reachable: true,
      model_installed: true,
      model_loaded: false,
    });
    const none = await status({ model: "m", ollama_host: [closedUrl(), closedUrl()] });
    assert.equal(none.status, "error");
    assert.equal((none.hosts as unknown[]).length, 2);
  } finally {
    await b.close();
  }
});
