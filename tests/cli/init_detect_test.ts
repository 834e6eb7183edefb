/**
 * `localexec init` finds the local model server: Ollama when it answers, else a llama-server or
 * LM Studio that does (scripted servers on loopback stand in for the default ports).
 */
import { PROVIDERS } from "../../lib/providers/mod.ts";
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { initProject } from "../../lib/cli/mod.ts";
import { parseConfig } from "../../lib/config.ts";
import { closedUrl, startFakeOllama } from "../helpers/fake_ollama.ts";
import { startFakeOpenAI } from "../helpers/fake_openai.ts";
import { tempProject } from "../helpers/project.ts";

async function init(probe: { ollama: string; servers: string[] }) {
  const root = await tempProject({ "deno.json": "{}" });
  try {
    const path = join(root, ".localexec.json");
    const line = await initProject(root, path, {
      probe: { ollama: [probe.ollama], openai: probe.servers },
    });
    const written = JSON.parse(await Deno.readTextFile(path));
    parseConfig(written, path, PROVIDERS); // what init writes always loads
    return { line, written };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("init writes the llama-server or LM Studio that answers when Ollama does not", async () => {
  const llama = await startFakeOpenAI({
    flavor: "llama-server",
    models: [{ id: "qwen2.5-coder-7b-instruct-q4_k_m.gguf", contextLength: 8192 }],
  });
  const lmstudio = await startFakeOpenAI({
    flavor: "lmstudio",
    models: [{ id: "qwen2.5-coder-14b-instruct" }, { id: "llama-3.2-3b", loaded: false }],
  });
  try {
    const first = await init({ ollama: closedUrl(), servers: [llama.baseUrl, lmstudio.baseUrl] });
    assert.equal(first.written.provider, "openai");
    assert.equal(first.written.base_url, llama.baseUrl);
    assert.equal(first.written.model, "qwen2.5-coder-7b-instruct-q4_k_m.gguf");
    assert.equal(first.written.ollama_host, undefined);
    assert.match(first.line, /for the llama-server at http:\/\/127\.0\.0\.1:\d+\/v1 with model/);
    const second = await init({
      ollama: closedUrl(),
      servers: [closedUrl() + "/v1", lmstudio.baseUrl],
    });
    assert.equal(second.written.base_url, lmstudio.baseUrl);
    assert.equal(second.written.model, "qwen2.5-coder-14b-instruct");
    assert.match(second.line, /for the LM Studio at .*; it also serves llama-3\.2-3b/);
  } finally {
    await Promise.all([llama.close(), lmstudio.close()]);
  }
});

Deno.test("init keeps Ollama when it answers, or when nothing does", async () => {
  const ollama = await startFakeOllama();
  const llama = await startFakeOpenAI({ flavor: "llama-server" });
  try {
    const found = await init({ ollama: ollama.url, servers: [llama.baseUrl] });
    assert.equal(found.written.ollama_host, ollama.url);
    assert.equal(found.written.provider, undefined);
    assert.equal(found.written.model, "qwen2.5-coder:7b");
    const none = closedUrl();
    const nothing = await init({ ollama: none, servers: [closedUrl() + "/v1"] });
    assert.equal(nothing.written.ollama_host, none);
    assert.match(nothing.line, /ollama pull qwen2\.5-coder:7b/);
  } finally {
    await Promise.all([ollama.close(), llama.close()]);
  }
});

Deno.test("init proposes a ladder, cheapest first, when the server has several models for code", async () => {
  const ollama = await startFakeOllama({
    models: [
      { name: "qwen2.5-coder:32b", size: 19_851_349_856 },
      { name: "nomic-embed-text:latest", size: 274_302_450 },
      { name: "qwen2.5-coder:7b", size: 4_683_087_332 },
      { name: "llama3.2:3b", size: 2_019_393_189 },
    ],
  });
  const lmstudio = await startFakeOpenAI({
    flavor: "lmstudio",
    models: [{ id: "qwen2.5-coder-14b-instruct" }, { id: "qwen2.5-coder-3b-instruct" }],
  });
  try {
    const found = await init({ ollama: ollama.url, servers: [] });
    assert.deepEqual(found.written.ladder, [
      { model: "qwen2.5-coder:7b" },
      { model: "qwen2.5-coder:32b" },
    ]);
    assert.equal(found.written.model, undefined);
    assert.equal(found.written.ollama_host, ollama.url);
    assert.match(
      found.line,
      /a ladder of 2 models, cheapest first: qwen2\.5-coder:7b, qwen2\.5-coder:32b/,
    );
    const served = await init({ ollama: closedUrl(), servers: [lmstudio.baseUrl] });
    assert.deepEqual(served.written.ladder, [
      { model: "qwen2.5-coder-3b-instruct" },
      { model: "qwen2.5-coder-14b-instruct" },
    ]);
    assert.equal(served.written.base_url, lmstudio.baseUrl);
  } finally {
    await Promise.all([ollama.close(), lmstudio.close()]);
  }
});

Deno.test("init writes the one coder model installed, and says which servers answered", async () => {
  const ollama = await startFakeOllama({
    models: [
      { name: "llama3.2:3b", size: 2_019_393_189 },
      { name: "deepseek-coder:6.7b", size: 3_827_834_503 },
    ],
  });
  const silent = closedUrl() + "/v1";
  try {
    const found = await init({ ollama: ollama.url, servers: [silent] });
    assert.equal(found.written.model, "deepseek-coder:6.7b");
    assert.equal(found.written.ladder, undefined);
    assert.ok(found.line.includes(`Ollama at ${ollama.url}: answered (2 models)`), found.line);
    assert.ok(found.line.includes(`OpenAI-compatible server at ${silent}: did not answer`));
    assert.match(found.line, /wrote .* with model deepseek-coder:6\.7b, and checks lint, tests/);
    assert.doesNotMatch(found.line, /ollama pull/);
  } finally {
    await ollama.close();
  }
});

Deno.test("init writes an installed model even when none is made for code, and says so", async () => {
  const ollama = await startFakeOllama({
    models: [
      { name: "nomic-embed-text:latest", size: 274_302_450 },
      { name: "llama3.2:3b", size: 2_019_393_189 },
      { name: "llama3.1:8b", size: 4_920_753_328 },
    ],
  });
  const lmstudio = await startFakeOpenAI({
    flavor: "lmstudio",
    models: [{ id: "llama-3.2-3b" }, { id: "qwen2.5-coder-14b-instruct" }],
  });
  try {
    const found = await init({ ollama: ollama.url, servers: [] });
    assert.equal(found.written.model, "llama3.1:8b");
    assert.match(
      found.line,
      /llama3\.1:8b is not made for code; run `ollama pull qwen2\.5-coder:7b`/,
    );
    // An OpenAI-compatible server: its model made for code, not the first it lists.
    const served = await init({ ollama: closedUrl(), servers: [lmstudio.baseUrl] });
    assert.equal(served.written.model, "qwen2.5-coder-14b-instruct");
    assert.match(served.line, /LM Studio at .*: answered \(2 models\)/);
    assert.match(served.line, /; it also serves llama-3\.2-3b/);
  } finally {
    await Promise.all([ollama.close(), lmstudio.close()]);
  }
});

Deno.test("init with no model server answering says so plainly, with the fix", async () => {
  const none = closedUrl();
  const silent = closedUrl() + "/v1";
  const found = await init({ ollama: none, servers: [silent] });
  assert.equal(found.written.ollama_host, none);
  assert.ok(found.line.includes(`Ollama at ${none}: did not answer`), found.line);
  assert.ok(found.line.includes(`at ${silent}: did not answer`), found.line);
  assert.match(
    found.line,
    /no model server answered\. To delegate steps you need one: install Ollama/,
  );
  assert.match(found.line, /`ollama pull qwen2\.5-coder:7b`/);
  assert.match(found.line, /"provider": "openai" and "base_url"/);
});
