/**
 * tools/manifest.json is what a server lists before any tool module loads: it must be exactly what
 * the tools themselves produce (`deno task manifest` rewrites it), and a server must answer
 * `tools/list` from it without loading a tool, then load each tool on its first call.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { availableTools, createState, describeTool, entryOf } from "../../lib/mcp/mod.ts";
import { createServer } from "../../lib/mcp/server.ts";
import type { ToolEntry } from "../../lib/mcp/tool.ts";
import { MANIFEST, manifestText } from "../../scripts/manifest.ts";
import { loadTools, TOOL_NAMES, toolEntries } from "../../tools/mod.ts";
import { tempProject } from "../helpers/project.ts";

const TOOLS = await loadTools();

Deno.test("tools/manifest.json is what the tools produce now (else run `deno task manifest`)", async () => {
  const stored = await Deno.readTextFile(MANIFEST);
  assert.ok(
    stored === await manifestText(),
    "tools/manifest.json is out of date: run `deno task manifest`",
  );
});

Deno.test("the manifest's entries describe, gate and load each tool as the tool itself does", async () => {
  const entries = await toolEntries();
  assert.deepEqual(entries.map((e) => e.name), TOOL_NAMES);
  for (const [i, entry] of entries.entries()) {
    const tool = TOOLS[i];
    assert.deepEqual(entry.describe(), describeTool(tool), tool.name);
    assert.deepEqual(entry.needs, tool.needs, tool.name);
    assert.equal(entry.readOnly, tool.annotations.readOnlyHint, tool.name);
    assert.equal(await entry.load(), tool);
  }
});

/** `entries` with every load counted by name. */
function _counted(entries: ToolEntry[], loads: string[]): ToolEntry[] {
  return entries.map((e) => ({ ...e, load: () => (loads.push(e.name), e.load()) }));
}

async function _serve(entries: ToolEntry[], root: string, readOnly = false) {
  const q = { root, modelHosts: ["127.0.0.1:11434"] };
  const state = createState(
    root,
    `${root}/.localexec.json`,
    availableTools(entries, q, { readOnly }),
  );
  const server = createServer(state);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "manifest-test", version: "0" });
  await client.connect(clientSide);
  return { client, close: () => client.close() };
}

Deno.test("a server lists from the manifest, loads no tool for it, and loads a tool on its first call", async () => {
  const root = await tempProject({ "a.txt": "hi\n" });
  const loads: string[] = [];
  const lazy = await _serve(_counted(await toolEntries(), loads), root, true);
  const loaded = await _serve(TOOLS.map(entryOf), root, true);
  try {
    const listed = await lazy.client.listTools();
    assert.deepEqual(loads, []);
    assert.equal(JSON.stringify(listed), JSON.stringify(await loaded.client.listTools()));
    const read = await lazy.client.callTool({ name: "read_file", arguments: { path: "a.txt" } });
    assert.equal(read.isError, undefined);
    // Validated by the tool's own schema, through the same boundary.
    const bad = await lazy.client.callTool({ name: "read_file", arguments: { path: 3 } });
    assert.equal(bad.isError, true);
    assert.match(
      JSON.stringify(bad.structuredContent),
      /invalid arguments: filename: expected a string/,
    );
    // Off (--read-only): the reason, with the tool's own error fields (implement_task's).
    const off = await lazy.client.callTool({ name: "implement_task", arguments: {} });
    const json = off.structuredContent as Record<string, unknown>;
    assert.match(String(json.error), /is off: --read-only/);
    assert.ok("attempts" in json);
    assert.deepEqual(loads, ["read_file", "read_file", "implement_task"]);
  } finally {
    await lazy.close();
    await loaded.close();
    await Deno.remove(root, { recursive: true });
  }
});
