/**
 * Tests written for the survivors of `deno task mutate --changed d9b33cd` in lib/mcp (the
 * machine-made mutants; docs/MUTATION.md, "Mutants made by machine"): each fails with its mutant
 * planted and passes on the code.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CONFIG_NAME } from "../../lib/config.ts";
import { availableTools, createState } from "../../lib/mcp/mod.ts";
import { createServer } from "../../lib/mcp/server.ts";
import { toolEntries } from "../../tools/mod.ts";

// server.ts: `options.called?.(params.name, params.arguments, result)` with the two swapped
Deno.test("the server tells `called` each answered call: name, arguments, result", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mutants_mcp_" }));
  try {
    await Deno.writeTextFile(`${root}/a.txt`, "one\n");
    const tools = availableTools(await toolEntries(), { root, modelHosts: [] }, {
      only: ["read_file"],
    });
    const seen: unknown[][] = [];
    const server = createServer(createState(root, `${root}/${CONFIG_NAME}`, tools), new Set(), {
      called: (name, args, result) => seen.push([name, args, result?.status]),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "mutants", version: "0.0.0" });
    await client.connect(clientSide);
    try {
      await client.callTool({ name: "read_file", arguments: { filename: "a.txt" } });
    } finally {
      await client.close();
      await server.close();
    }
    assert.deepEqual(seen, [["read_file", { filename: "a.txt" }, "ok"]]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
