/**
 * The provider table (docs/PROVIDERS.md): a test-only provider, an Anthropic-style Messages API
 * (`tests/helpers/anthropic_provider.ts`), registered by one line, is known to the configuration
 * (its own keys, its default host), the ladder (a rung of its own, through the engine), `status`
 * and `localexec init`; and a provider the table does not have is refused, naming the known ones,
 * over the real boundary (a server over stdio, which knows only the bundled providers).
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { ConfigError, parseConfig } from "../../lib/config.ts";
import { initProject } from "../../lib/cli/mod.ts";
import { readLadder } from "../../lib/model/mod.ts";
import { PROVIDERS } from "../../lib/providers/mod.ts";
import statusTool from "../../tools/status.ts";
import { anthropic, DEFAULT_ANTHROPIC_HOST } from "../helpers/anthropic_provider.ts";
import { CALC, FIX_ADD, WRONG_ADD } from "../helpers/calc.ts";
import { startFakeAnthropic } from "../helpers/fake_anthropic.ts";
import { closedUrl, startFakeOllama } from "../helpers/fake_ollama.ts";
import { callMcp, connect, connectInProcess } from "../helpers/mcp.ts";
import { callJson, tempProject, testContext } from "../helpers/project.ts";

PROVIDERS.push(anthropic); // the one line that registers a provider

const CLAUDE = "claude-like-1";

function problem(data: Record<string, unknown>): string {
  try {
    parseConfig(data, "cfg", PROVIDERS);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message;
  }
  throw new Error(`no problem found in ${JSON.stringify(data)}`);
}

Deno.test("providers: a registered provider gets its default host and its own keys", () => {
  const bare = parseConfig({ provider: "anthropic", model: CLAUDE }, "cfg", PROVIDERS);
  assert.deepEqual([bare.provider, bare.hosts, bare.warnings], [
    "anthropic",
    [DEFAULT_ANTHROPIC_HOST],
    [],
  ]);
  const own = parseConfig(
    {
      provider: "anthropic",
      model: CLAUDE,
      base_url: "gpu:4000",
      api_key_env: "MESSAGES_KEY",
      context_length: 100_000,
      anthropic_version: "2024-01-01",
    },
    "cfg",
    PROVIDERS,
  );
  assert.deepEqual(own.hosts, ["http://gpu:4000/v1"]);
  assert.deepEqual(own.options, { anthropic_version: "2024-01-01" });
  assert.equal(own.api_key_env, "MESSAGES_KEY");
  assert.deepEqual(own.warnings, []);
  // A key of its own is another provider's mistake; a shared one names every provider taking it.
  assert.match(
    problem({ anthropic_version: "2024-01-01" }),
    /anthropic_version: only used with provider "anthropic" \(add "provider": "anthropic"\)/,
  );
  assert.match(
    problem({ base_url: "x:1/v1" }),
    /base_url: only used with provider "openai" or "anthropic"/,
  );
  assert.match(
    problem({ provider: "anthropc" }),
    /provider: unknown provider "anthropc" \(did you mean "anthropic"\?\); known: ollama, openai, anthropic/,
  );
});

Deno.test("providers: a ladder rung on a registered provider inherits only from its own kind", () => {
  const rungs = readLadder(
    parseConfig(
      {
        provider: "anthropic",
        base_url: "gpu:4000",
        anthropic_version: "2024-01-01",
        ladder: [{ model: "small", provider: "ollama" }, { model: CLAUDE }],
      },
      "cfg",
      PROVIDERS,
    ),
    PROVIDERS,
    () => undefined,
  );
  assert.deepEqual(rungs.map((r) => [r.provider, r.hosts, r.options]), [
    ["ollama", ["http://127.0.0.1:11434"], undefined],
    ["anthropic", ["http://gpu:4000/v1"], { anthropic_version: "2024-01-01" }],
  ]);
});

Deno.test("providers: the ladder climbs from Ollama to a registered provider's rung", async () => {
  const ollama = await startFakeOllama({ models: [{ name: "small-coder:1b" }] });
  const messages = startFakeAnthropic({ models: [CLAUDE] });
  const root = await tempProject({
    "calc.py": CALC,
    ".localexec.json": JSON.stringify({
      checks: {
        tests: { command: "grep -q 'return a + b' calc.py || { echo 'FAIL test_add'; exit 1; }" },
      },
      max_attempts: 1,
      ladder: [
        { model: "small-coder:1b", ollama_host: ollama.url },
        {
          model: CLAUDE,
          provider: "anthropic",
          base_url: messages.baseUrl,
          anthropic_version: "2024-01-01",
        },
      ],
    }),
  });
  const conn = await connectInProcess(root);
  try {
    ollama.script(WRONG_ADD);
    messages.script(FIX_ADD);
    const out = await callMcp(conn.client, "implement_task", {
      task_id: "P1",
      spec: "add(a, b) must return a + b",
      files_to_edit: ["calc.py"],
    });
    assert.equal(out.status, "passed", JSON.stringify(out));
    assert.equal(out.model, CLAUDE);
    assert.match(await Deno.readTextFile(join(root, "calc.py")), /return a \+ b/);
    // The Messages API's own shape: the system prompt apart, the configured version sent.
    assert.equal(messages.chats.length, 1);
    assert.ok(messages.chats[0].system, "a top-level system prompt");
    assert.ok(messages.chats[0].messages.every((m) => m.role !== "system"));
    assert.ok(messages.versions.every((v) => v === "2024-01-01"), messages.versions.join());
  } finally {
    await conn.close();
    await ollama.close();
    await messages.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("providers: status shows a registered provider, its host key and its server", async () => {
  const messages = startFakeAnthropic({ models: [CLAUDE] });
  const root = await tempProject({
    ".localexec.json": JSON.stringify({
      provider: "anthropic",
      base_url: messages.baseUrl,
      model: CLAUDE,
    }),
  });
  try {
    const out = await callJson(statusTool, {}, testContext(root));
    assert.equal(out.status, "ok", JSON.stringify(out));
    assert.equal(out.provider, "anthropic");
    assert.equal(out.base_url, messages.baseUrl);
    assert.equal(out.server, "Messages server");
    assert.equal(out.model_installed, true);
    assert.equal(out.context, 200_000);
    await Deno.writeTextFile(
      join(root, ".localexec.json"),
      JSON.stringify({ provider: "anthropic", base_url: closedUrl() + "/v1", model: CLAUDE }),
    );
    const down = await callJson(statusTool, {}, testContext(root));
    assert.equal(down.status, "error");
    assert.match(String(down.hint), /start the Messages server at base_url/);
  } finally {
    await messages.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("providers: init finds a registered provider's server and writes its keys", async () => {
  const messages = startFakeAnthropic({ models: [CLAUDE] });
  const root = await tempProject({ "deno.json": "{}" });
  try {
    const path = join(root, ".localexec.json");
    const line = await initProject(root, path, {
      probe: { ollama: [closedUrl()], anthropic: [messages.baseUrl] },
    });
    const written = JSON.parse(await Deno.readTextFile(path));
    assert.equal(written.provider, "anthropic");
    assert.equal(written.base_url, messages.baseUrl);
    assert.equal(written.model, CLAUDE);
    assert.match(
      line,
      new RegExp(`Messages server at ${messages.baseUrl}: answered \\(1 model\\)`),
    );
    assert.equal(parseConfig(written, path, PROVIDERS).provider, "anthropic");
  } finally {
    await messages.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("providers: an unknown provider is a configuration error naming the known ones", async () => {
  const root = await tempProject({
    ".localexec.json": JSON.stringify({ provider: "anthropic", model: CLAUDE }),
  });
  // A real server over stdio: its table has the bundled providers only, never a silent Ollama.
  const conn = await connect(root);
  try {
    for (const tool of ["status", "run_checks"]) {
      const out = await callMcp(conn.client, tool);
      assert.equal(out.status, "error", `${tool}: ${JSON.stringify(out)}`);
      assert.match(
        String(out.error),
        /^invalid configuration: \.localexec\.json: provider: unknown provider "anthropic"; known: ollama, openai$/,
      );
    }
  } finally {
    await conn.close();
    await Deno.remove(root, { recursive: true });
  }
});
