/**
 * A tool's result is serialized once: the transport writes the JSON text the boundary made for the
 * text content in place of `structuredContent`, and the line reads back as the whole message.
 */
import assert from "node:assert/strict";
import { callTool, JSON_PIECES } from "../../lib/mcp/boundary.ts";
import { messageLine, messagePieces, SCRATCH_BYTES, writeLine } from "../../lib/mcp/transport.ts";
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
  assert.ok(Array.isArray(result[JSON_PIECES]), "the boundary keeps the JSON text it made");
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

/** An output that takes at most `most` bytes per write, and keeps everything written. */
function _output(most: number): { write(b: Uint8Array): Promise<number>; bytes(): Uint8Array } {
  const parts: Uint8Array[] = [];
  return {
    write(b: Uint8Array) {
      const n = Math.min(most, b.length);
      parts.push(b.slice(0, n)); // a copy: the scratch is written over next
      return Promise.resolve(n);
    },
    bytes: () => {
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) out.set(p, (at += p.length) - p.length);
      return out;
    },
  };
}

Deno.test("a line is written through a small buffer a piece at a time, byte for byte as encoded whole", async () => {
  // Pieces end anywhere: inside a surrogate pair's four bytes, a three-byte character, at a
  // buffer's end exactly; outputs that take all, 1 and 3 bytes per write.
  const lines = [
    "",
    "a",
    TRICKY.join("|").repeat(40),
    "🙂".repeat(3000) + "x",
    "x" + "é".repeat(5001) + "\u2028",
    "lone \ud800 and \udfff surrogates\ud83d",
    JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => `${i}|ö 🙂 "q" \\`) }),
  ];
  for (const scratchBytes of [4, 5, 7, 64, 4096, SCRATCH_BYTES]) {
    for (const most of [Infinity, 1, 3]) {
      if (most < 4 && scratchBytes > 64) continue; // slow, and said by the small ones
      for (const line of lines) {
        const out = _output(most);
        await writeLine(line, out, new Uint8Array(scratchBytes));
        assert.deepEqual(
          out.bytes(),
          new TextEncoder().encode(line + "\n"),
          `scratch ${scratchBytes}, ${most} bytes a write, line of ${line.length}`,
        );
      }
    }
  }
});

Deno.test("a large result's line is JSON.stringify of the message exactly, in pieces, whatever the id", async () => {
  const ctx = { root: "/tmp", signal: new AbortController().signal } as never;
  // Items long enough for the escaped text to be cut many times: surrogate pairs, quotes,
  // backslashes and control characters fall on every kind of cut.
  // Long runs of surrogate pairs at both parities: some cut of the escaping falls inside a pair.
  const items = ["🙂".repeat(40_000), "x" + "🙂".repeat(40_000)];
  items.push(...Array.from(
    { length: 3000 },
    (_, i) => `${i}|${"x".repeat(i % 17)}🙂"q"\\ \u0001 \u2028é${"🙂".repeat(i % 5)}`,
  ));
  const big = defineTool({ ...tool, run: () => Promise.resolve({ status: "ok", items }) } as never);
  const result = await callTool(big as never, { n: 1 }, ctx);
  for (const id of [7, "\u0000structuredContent\u0000", '"\u0000text\u0000"']) {
    for (const message of [{ jsonrpc: "2.0", id, result }, { result, jsonrpc: "2.0", id }]) {
      const pieces = messagePieces(message as never);
      assert.ok(pieces.length > 10, "the text content is escaped in pieces");
      const whole = JSON.stringify(message);
      assert.equal(pieces.join(""), whole);
      assert.ok(
        Math.max(...pieces.map((p) => p.length)) < whole.length / 2,
        "no piece is the line",
      );
      // Small buffers once (slow, and the same for every id); the server's own buffer each time.
      const first = id === 7 && Object.keys(message)[0] === "jsonrpc";
      const sizes = first ? [4, 7, SCRATCH_BYTES] : [SCRATCH_BYTES];
      for (const scratchBytes of sizes) {
        const out = _output(scratchBytes === 4 ? 3 : Infinity);
        await writeLine(pieces, out, new Uint8Array(scratchBytes));
        assert.deepEqual(out.bytes(), new TextEncoder().encode(whole + "\n"));
      }
    }
  }
});
