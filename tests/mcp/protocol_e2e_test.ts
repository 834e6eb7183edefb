import assert from "node:assert/strict";
import { FULL, INIT, MAIN, rawLines as _raw } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { LineTransport } from "../../lib/mcp/transport.ts";

const call = (id: number, name: unknown, args: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

Deno.test("protocol malformed JSON-RPC lines do not stop the server", async () => {
  const root = await tempProject({ "a.txt": "x" });
  const answers = await _raw(root, [
    INIT,
    "this is not json",
    '{"jsonrpc":"2.0","id":',
    "[1,2,3]",
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
  ]);
  assert.ok(answers.get(1)?.result);
  const tools = (answers.get(2)?.result as { tools: unknown[] }).tools;
  assert.ok(tools.length > 0);
});

Deno.test("protocol tools/call with non-object arguments answers the project's JSON error", async () => {
  const root = await tempProject();
  const answers = await _raw(root, [
    INIT,
    call(2, "list_files", "x"),
    call(3, "list_files", [1]),
    call(4, 42, {}),
    call(5, "nope", {}),
  ]);
  for (const id of [2, 3, 4, 5]) {
    const result = answers.get(id)?.result as { content: { text: string }[]; isError: boolean };
    assert.ok(result, `answer ${id}`);
    assert.equal(result.isError, true);
    const json = JSON.parse(result.content[0].text);
    assert.equal(json.status, "error");
    assert.equal(json.escalate, false);
  }
});

Deno.test("protocol a bad request with an id is answered with a JSON-RPC error", async () => {
  const root = await tempProject();
  const answers = await _raw(root, [
    INIT,
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":null}',
    '{"jsonrpc":"2.0","id":3,"method":"ping"',
    '{"jsonrpc":"2.0","id":4,"method":"ping"}',
  ]);
  assert.equal((answers.get(2)?.error as { code: number }).code, -32600);
  assert.equal((answers.get(3)?.error as { code: number }).code, -32700);
  assert.ok(answers.get(4)?.result);
});

Deno.test("protocol a line over the size limit is refused and the server keeps serving", async () => {
  const root = await tempProject();
  const huge = JSON.stringify({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "list_files", arguments: { directory: "x".repeat(65 * 1024 * 1024) } },
  });
  const answers = await _raw(root, [INIT, huge, '{"jsonrpc":"2.0","id":3,"method":"ping"}']);
  assert.match(String((answers.get(2)?.error as { message: string }).message), /over \d+ bytes/);
  assert.ok(answers.get(3)?.result, "the server still answers after the long line");
});

Deno.test("protocol unknown methods get a JSON-RPC error, not a crash", async () => {
  const root = await tempProject();
  const answers = await _raw(root, [
    INIT,
    '{"jsonrpc":"2.0","id":2,"method":"no/such"}',
    '{"jsonrpc":"2.0","id":3,"method":"tools/list"}',
  ]);
  assert.ok(answers.get(2)?.error);
  assert.ok(answers.get(3)?.result);
});

Deno.test("protocol calls in flight when stdin closes still answer", async () => {
  const root = await tempProject({ "a.txt": "x" });
  const answers = await _raw(root, [INIT, call(2, "list_files", { directory: "." })]);
  const result = answers.get(2)?.result as { content: { text: string }[] };
  assert.equal(JSON.parse(result.content[0].text).status, "ok");
});

Deno.test("cli --version and --help print to stdout and exit 0", async () => {
  for (
    const [flag, pattern] of [["--version", /^localexec \d+\.\d+\.\d+/], [
      "--help",
      /Usage:/,
    ]] as const
  ) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", MAIN, flag],
    }).output();
    assert.equal(out.code, 0);
    assert.match(new TextDecoder().decode(out.stdout), pattern);
  }
});

Deno.test("cli call prints the tool's JSON and exits 2 on error", async () => {
  const root = await tempProject({ "a.txt": "x" });
  const run = (args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", ...FULL, MAIN, "--root", root, ...args],
    }).output();
  const ok = await run(["call", "list_files", '{"directory":"."}']);
  assert.equal(ok.code, 0);
  assert.equal(JSON.parse(new TextDecoder().decode(ok.stdout)).status, "ok");
  const bad = await run(["call", "list_files", '{"directory":"../.."}']);
  assert.equal(bad.code, 2);
  assert.equal(JSON.parse(new TextDecoder().decode(bad.stdout)).status, "error");
  const usage = await run(["bogus"]);
  assert.equal(usage.code, 2);
});

Deno.test("stdio transport splits lines across chunks and skips an oversized one", async () => {
  const chunks = [
    '{"jsonrpc":"2.0","id":1,"me',
    'thod":"ping"}\r\n{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"',
    "y".repeat(300),
    '"}}\n\n{"jsonrpc":"2.0","id":3,"method":"ping"}',
  ].map((c) => new TextEncoder().encode(c));
  const written: string[] = [];
  const transport = new LineTransport(200, {
    input: ReadableStream.from(chunks),
    output: {
      write(bytes: Uint8Array) {
        written.push(new TextDecoder().decode(bytes));
        return Promise.resolve(bytes.length);
      },
    },
  });
  const got: unknown[] = [];
  transport.onmessage = (m) => got.push((m as { id: number }).id);
  transport.onerror = () => {};
  await transport.start();
  await transport.ended;
  await transport.send({ jsonrpc: "2.0", id: 9, result: {} });
  assert.deepEqual(got, [1, 3]);
  const errors = written.map((w) => JSON.parse(w));
  assert.equal(errors[0].id, 2);
  assert.equal(errors[0].error.code, -32600);
  assert.equal(errors[1].id, 9);
  await transport.close();
});
