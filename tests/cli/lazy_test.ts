/**
 * What a command loads before it runs: `--version` no tool and no schema library, `call find` the
 * find tool and the boundary but not the MCP SDK, the other tools, the grammars or the model
 * clients. Read from Deno's own module graph (`deno info --json`), following static imports only:
 * a dynamic import is loaded when the code that makes it runs.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const HERE = new URL("../../", import.meta.url);

interface Dep {
  specifier: string;
  code?: { specifier: string };
  isDynamic?: boolean;
}

/** Everything `entry` loads through static imports, as specifiers (`file:`, `npm:`, `node:`). */
async function _static(entry: string | URL): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "info",
      "--json",
      "--config",
      fileURLToPath(new URL("deno.json", HERE)),
      fileURLToPath(new URL(entry, HERE)),
    ],
    stdout: "piped",
    stderr: "null",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  const deps = new Map<string, Dep[]>();
  for (const m of info.modules) deps.set(m.specifier, m.dependencies ?? []);
  const seen = new Set<string>();
  const visit = (spec: string) => {
    if (seen.has(spec)) return;
    seen.add(spec);
    for (const d of deps.get(spec) ?? []) {
      if (!d.isDynamic && d.code) visit(info.redirects?.[d.code.specifier] ?? d.code.specifier);
    }
  };
  visit(new URL(entry, HERE).href);
  return seen;
}

const HEAVY = /modelcontextprotocol|tree-sitter|npm:\/?ollama|npm:\/?diff@|worker_threads/;

Deno.test("main.ts loads no tool, schema library or SDK before it knows the command", async () => {
  const loaded = [...await _static("main.ts")];
  assert.deepEqual(loaded.filter((s) => HEAVY.test(s) || /zod/.test(s)), []);
  assert.deepEqual(loaded.filter((s) => /\/tools\/(?!mod\.ts)/.test(s)), []);
});

Deno.test("`call find` loads find and the boundary, not the SDK or the other tools", async () => {
  const loaded = new Set([
    ...await _static("main.ts"),
    ...await _static("lib/mcp/mod.ts"),
    ...await _static("lib/config.ts"),
    ...await _static("tools/find.ts"),
  ]);
  const names = [...loaded];
  assert.ok(names.some((s) => s.endsWith("/lib/mcp/boundary.ts")));
  assert.deepEqual(names.filter((s) => HEAVY.test(s)), []);
  assert.deepEqual(names.filter((s) => /\/tools\/(?!mod\.ts|find\.(ts|md))/.test(s)), []);
});

Deno.test("the registry loads each tool from tools/<name>.ts under its own name, and no other", async () => {
  const { loadTool, loadTools, TOOL_NAMES } = await import("../../tools/mod.ts");
  const tools = await loadTools();
  assert.deepEqual(tools.map((t) => t.name), TOOL_NAMES);
  for (const tool of tools) {
    assert.equal(await loadTool(tool.name), tool);
    const own = await import(`../../tools/${tool.name}.ts`);
    assert.equal(own.default, tool, `tools/${tool.name}.ts`);
  }
  assert.equal(await loadTool("toString"), undefined);
});

Deno.test("a server's tools load no outline rules or diff library before a call needs them", async () => {
  const { TOOL_NAMES } = await import("../../tools/mod.ts");
  // One module that imports every registered tool statically, as a server's calls would.
  const all = await Deno.makeTempFile({ suffix: ".ts" });
  const lines = TOOL_NAMES.map((t) => `import "${new URL(`tools/${t}.ts`, HERE).href}";\n`);
  await Deno.writeTextFile(all, lines.join(""));
  try {
    const names = [...await _static(new URL(`file://${all}`))];
    assert.ok(names.some((s) => s.endsWith("/tools/outline.ts")));
    assert.deepEqual(names.filter((s) => /\/lib\/outline\/|npm:\/?diff@/.test(s)), []);
  } finally {
    await Deno.remove(all);
  }
});

Deno.test("serving loads no tool module before a call: tools/list comes from the manifest", async () => {
  const names = [
    ...await _static("main.ts"),
    ...await _static("lib/mcp/mod.ts"),
    ...await _static("lib/mcp/server.ts"),
  ];
  assert.deepEqual(names.filter((s) => /\/tools\/(?!mod\.ts)/.test(s)), []);
  // The SDK's protocol, not its Server, whose module loads Ajv (lib/mcp/lean_server.ts).
  assert.ok(names.some((s) => s.includes("/shared/protocol.js")));
  assert.deepEqual(names.filter((s) => /ajv|\/server\/index\.js/.test(s)), []);
});
