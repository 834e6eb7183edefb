/**
 * status: the health check, against the scripted Ollama, through the handler and over stdio.
 */
import assert from "node:assert/strict";
import { basename, join } from "../../lib/deps.ts";
import { beginTask, updateTask } from "../../lib/tasks/mod.ts";
import statusTool from "../../tools/status.ts";
import { toolEntries } from "../../tools/mod.ts";
import { closedUrl, type FakeOllama, startFakeOllama } from "../helpers/fake_ollama.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { callJson, tempProject, testContext } from "../helpers/project.ts";

const MODEL = "qwen2.5-coder:7b";

async function withFake(fn: (fake: FakeOllama) => Promise<void>): Promise<void> {
  const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
  try {
    await fn(fake);
  } finally {
    await fake.close();
  }
}

function config(fake: FakeOllama | string, extra: Record<string, unknown> = {}): string {
  const host = typeof fake === "string" ? fake : fake.url;
  return JSON.stringify({
    model: MODEL,
    ollama_host: host,
    checks: { lint: { command: "true" }, tests: { command: ["true"] } },
    ...extra,
  });
}

function short(out: Record<string, unknown>): void {
  const size = JSON.stringify(out).length;
  assert.ok(size <= 1000, `status is ${size} characters: ${JSON.stringify(out)}`);
}

Deno.test("status reports the project, model loaded with its context, checks and tasks", async () => {
  await withFake(async (fake) => {
    const root = await tempProject({ ".localexec.json": config(fake), "a.py": "x = 1\n" });
    try {
      // an earlier task, with its accounting
      await beginTask(root, { id: "T1", spec: "s", files: ["a.py"] });
      await updateTask(root, "T1", {
        status: "passed",
        prompt_tokens: 1200,
        reply_tokens: 300,
        model_secs: 4.2,
        check_secs: 1.1,
      });
      // load the model with an 8k window, as implement_task would
      await fetch(`${fake.url}/api/chat`, {
        method: "POST",
        body: JSON.stringify({ model: MODEL, messages: [], options: { num_ctx: 8192 } }),
      }).then((r) => r.body?.cancel());
      const out = await callJson(statusTool, {}, testContext(root));
      short(out);
      assert.equal(out.status, "ok");
      assert.equal(out.project, basename(root));
      assert.equal(out.model, MODEL);
      assert.deepEqual(out.checks, ["lint", "tests"]);
      assert.equal(out.model_installed, true);
      assert.equal(out.model_loaded, true);
      assert.equal(out.loaded_context, 8192);
      assert.equal(out.tasks, 1);
      assert.deepEqual(out.totals, {
        prompt_tokens: 1200,
        reply_tokens: 300,
        model_secs: 4.2,
        check_secs: 1.1,
      });
      assert.equal(out.ollama_version, "0.12.6");
      assert.deepEqual(out.tools_off, []);
      assert.equal(out.hint, undefined);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
});

Deno.test("status says when the model is installed but not loaded", async () => {
  await withFake(async (fake) => {
    const root = await tempProject({ ".localexec.json": config(fake, { model: "qwen2.5-coder" }) });
    try {
      fake.models.push({ name: "qwen2.5-coder:latest" });
      const out = await callJson(statusTool, {}, testContext(root));
      assert.equal(out.status, "ok");
      assert.equal(out.model_installed, true);
      assert.equal(out.model_loaded, false);
      assert.equal(out.loaded_context, undefined);
      assert.equal(out.tasks, 0);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
});

Deno.test("status hints at ollama list when the model is missing", async () => {
  await withFake(async (fake) => {
    const root = await tempProject({ ".localexec.json": config(fake, { model: "llama9:70b" }) });
    try {
      const out = await callJson(statusTool, {}, testContext(root));
      short(out);
      assert.equal(out.model_installed, false);
      assert.equal(out.model_loaded, false);
      assert.match(String(out.hint), /`ollama list`/);
      assert.match(String(out.hint), /ollama pull llama9:70b/);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
});

Deno.test("status is error with the reason when Ollama is unreachable", async () => {
  const root = await tempProject({ ".localexec.json": config(closedUrl()) });
  try {
    const started = performance.now();
    const out = await callJson(statusTool, {}, testContext(root));
    short(out);
    assert.ok(performance.now() - started < 5000, "answers quickly");
    assert.equal(out.status, "error");
    assert.match(String(out.error), /Ollama is not reachable at http:\/\/127\.0\.0\.1:\d+/);
    assert.match(String(out.hint), /ollama serve/);
    assert.match(String(out.hint), /ollama list/);
    // what status knows without Ollama is still there
    assert.equal(out.model, MODEL);
    assert.deepEqual(out.checks, ["lint", "tests"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("status is error naming the key when the config is invalid", async () => {
  const root = await tempProject({
    ".localexec.json": '{"model": "m", "checks": {"lint": {"command": 5}}}',
  });
  try {
    const out = await callJson(statusTool, {}, testContext(root));
    short(out);
    assert.equal(out.status, "error");
    assert.match(String(out.error), /invalid configuration: .*checks\.lint\.command: expected/);
    await Deno.writeTextFile(join(root, ".localexec.json"), '{"model": ');
    const broken = await callJson(statusTool, {}, testContext(root));
    assert.equal(broken.status, "error");
    assert.match(String(broken.error), /not valid JSON/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("status without a config hints at localexec init, whether Ollama answers or not", async () => {
  const root = await tempProject({ "a.py": "" });
  try {
    const out = await callJson(statusTool, {}, testContext(root));
    short(out);
    assert.equal(out.model, null);
    assert.deepEqual(out.checks, []);
    assert.match(String(out.hint), /localexec init/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  await withFake(async (fake) => {
    const noModel = await tempProject({
      ".localexec.json": JSON.stringify({ ollama_host: fake.url }),
    });
    try {
      const out = await callJson(statusTool, {}, testContext(noModel));
      assert.equal(out.status, "ok");
      assert.match(String(out.hint), /add "model" to \.localexec\.json/);
    } finally {
      await Deno.remove(noModel, { recursive: true });
    }
  });
});

Deno.test("status over stdio lists the tools that are off under --allow-read", async () => {
  await withFake(async (fake) => {
    const root = await tempProject({ ".localexec.json": config(fake) });
    const conn = await connect(root, { permissions: [`--allow-read=${root}`] });
    try {
      const out = await callMcp(conn.client, "status");
      short(out);
      const off = out.tools_off as string[];
      assert.ok(off.includes("implement_task: needs write permission (--allow-write)"), off.join());
      assert.ok(off.includes("write_file: needs write permission (--allow-write)"), off.join());
      assert.ok(off.some((t) => t.startsWith("shell: ")), off.join());
      // Off: every tool that needs more than read permission, as the registry's manifest says.
      const needMore = (await toolEntries()).filter((e) => !e.needs.every((n) => n === "read"));
      assert.deepEqual(off.map((t) => t.split(":")[0]).sort(), needMore.map((e) => e.name).sort());
      // without net the model cannot be asked about: the reason says how to allow it
      assert.equal(out.status, "error");
      assert.match(String(out.error), /--allow-net=127\.0\.0\.1:\d+/);
      assert.equal(out.model, MODEL);
    } finally {
      await conn.close();
      await Deno.remove(root, { recursive: true });
    }
  });
});
