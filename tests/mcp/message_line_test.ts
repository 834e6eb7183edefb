/**
 * A tool's result is serialized once: the transport writes the JSON text the boundary made for the
 * text content in place of `structuredContent`, and the line reads back as the whole message.
 */
import assert from "node:assert/strict";
import { callTool, JSON_TEXT } from "../../lib/mcp/boundary.ts";
import { messageLine } from "../../lib/mcp/transport.ts";
import { ANNOTATIONS, defineTool } from "../../lib/mcp/mod.ts";
import { z } from "zod";

const TRICKY = [
  'a "quoted" \\ back\\slash',
  "\u0000structuredContent\u0000",
  '"\u0000structuredContent\u0000"',
  "line\nbreak\ttab \u2028 é 🙂",
];

const tool = defineTool({
  name: "echo",
  title: "Echo",
  description: "echo",
  input: z.object({ n: z.number() }),
  output: z.looseObject({ status: z.string() }),
  needs: [],
  annotations: ANNOTATIONS.READS,
  run: ({ n }) => Promise.resolve({ status: "ok", items: TRICKY, n }),
});

Deno.test("a result's line holds structuredContent from the JSON text made once, and reads back whole", async () => {
  const ctx = { root: "/tmp", signal: new AbortController().signal } as never;
  const result = await callTool(tool as never, { n: 3 }, ctx);
  assert.equal(typeof result[JSON_TEXT], "string", "the boundary keeps the JSON text it made");
  // A stand-in for structuredContent that the JSON text itself holds must not be replaced.
  const message = { jsonrpc: "2.0", id: 7, result } as never;
  const line = messageLine(message);
  assert.deepEqual(JSON.parse(line), JSON.parse(JSON.stringify(message)));
  const read = JSON.parse(line);
  assert.deepEqual(read.result.structuredContent.items, TRICKY);
  assert.deepEqual(JSON.parse(read.result.content[0].text).items, TRICKY);
  // The object is not serialized again: a structuredContent changed after the boundary made its
  // text does not reach the line (nothing changes it; this shows where the line's JSON comes from).
  (result.structuredContent as Record<string, unknown>).n = 4;
  assert.equal(JSON.parse(messageLine(message)).result.structuredContent.n, 3);
});

Deno.test("a message without the kept JSON text is serialized as it is", () => {
  const message = { jsonrpc: "2.0", id: 1, result: { content: [], structuredContent: { a: 1 } } };
  assert.equal(messageLine(message as never), JSON.stringify(message));
});
