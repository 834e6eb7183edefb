/**
 * lib/mcp/lean_server.ts answers the protocol as the SDK's `Server` did (the server localexec used
 * before): the same bytes for the same messages, the handshake with every protocol version, ping,
 * errors; and it keeps the client's capabilities and asks for its roots.
 */
import assert from "node:assert/strict";
import { Server } from "@modelcontextprotocol/sdk/server";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LeanServer } from "../../lib/mcp/lean_server.ts";

const INFO = { name: "localexec", version: "9.9.9" };
const OPTIONS = { capabilities: { tools: {} }, instructions: "use it well" };

function _init(id: number, protocolVersion: string, capabilities = {}): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities, clientInfo: { name: "t", version: "0" } },
  };
}

const MESSAGES: JSONRPCMessage[] = [
  _init(1, "2025-06-18"),
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "ping" },
  _init(3, "1999-01-01"),
  _init(4, "2024-11-05"),
  { jsonrpc: "2.0", id: 5, method: "resources/list" },
  { jsonrpc: "2.0", id: 6, method: "initialize", params: { protocolVersion: 7 } },
  { jsonrpc: "2.0", id: 7, method: "logging/setLevel", params: { level: "debug" } },
];

/** What `server` answers to {@linkcode MESSAGES}, in order, as JSON text. */
async function _answers(server: Server | LeanServer): Promise<string[]> {
  const [client, side] = InMemoryTransport.createLinkedPair();
  const got: string[] = [];
  client.onmessage = (m) => void got.push(JSON.stringify(m));
  await server.connect(side);
  await client.start();
  for (const m of MESSAGES) await client.send(m);
  for (let i = 0; i < 100 && got.length < MESSAGES.length - 1; i++) {
    await new Promise((r) => setTimeout(r, 5));
  }
  await server.close();
  return got;
}

Deno.test("the lean server answers every message as the SDK's Server did", async () => {
  const lean = await _answers(new LeanServer(INFO, OPTIONS));
  const sdk = await _answers(new Server(INFO, OPTIONS));
  assert.equal(lean.length, MESSAGES.length - 1);
  assert.deepEqual(lean, sdk);
  assert.match(lean[0], /"protocolVersion":"2025-06-18".*"instructions":"use it well"/);
});

Deno.test("the lean server keeps the client's capabilities and asks for its roots", async () => {
  const server = new LeanServer(INFO, OPTIONS);
  const [client, side] = InMemoryTransport.createLinkedPair();
  const asked: string[] = [];
  client.onmessage = (m) => {
    if ("method" in m && "id" in m) {
      asked.push(m.method);
      void client.send({ jsonrpc: "2.0", id: m.id, result: { roots: [{ uri: "file:///x" }] } });
    }
  };
  await server.connect(side);
  await client.start();
  assert.equal(server.getClientCapabilities(), undefined);
  await client.send(_init(1, "2025-06-18", { roots: {} }));
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(server.getClientCapabilities(), { roots: {} });
  assert.deepEqual((await server.listRoots()).roots, [{ uri: "file:///x" }]);
  assert.deepEqual(asked, ["roots/list"]);
  await server.close();
});
