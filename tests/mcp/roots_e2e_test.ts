/**
 * The root a server serves, end to end over stdio: MCP roots from a client that declares them,
 * `--root` beating them, and the refusal to serve `/`.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { pathToFileURL } from "node:url";
import { FULL, MAIN } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";

interface RootsClient {
  client: Client;
  /** How many times the server asked roots/list. */
  asked: () => number;
  setRoots(paths: string[]): Promise<void>;
  close(): Promise<void>;
}

/** Starts main.ts in `cwd` with `args`, connected to a client that declares roots (or not). */
async function _start(
  cwd: string,
  args: string[],
  roots: string[] | undefined,
): Promise<RootsClient> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "--no-prompt", ...FULL, MAIN, ...args],
    cwd,
    env: { ...Deno.env.toObject(), NO_COLOR: "1" },
    stderr: "pipe",
  });
  const client = new Client(
    { name: "roots-test", version: "0" },
    { capabilities: roots ? { roots: { listChanged: true } } : {} },
  );
  let current = roots ?? [];
  let asked = 0;
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, () => {
      asked++;
      return { roots: current.map((p) => ({ uri: pathToFileURL(p).href, name: "p" })) };
    });
  }
  await client.connect(transport);
  return {
    client,
    asked: () => asked,
    async setRoots(paths) {
      current = paths;
      await client.sendRootsListChanged();
    },
    close: () => client.close(),
  };
}

/** Runs `fn` with `c`, then closes it. */
async function _with(c: RootsClient, fn: (c: RootsClient) => Promise<void>): Promise<void> {
  try {
    await fn(c);
  } finally {
    await c.close();
  }
}

async function _read(client: Client, filename: string): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name: "read_file", arguments: { filename } });
  return JSON.parse((result.content as { text: string }[])[0].text);
}

Deno.test("roots: a client's first root is served when no --root is given", async () => {
  const started = await tempProject({ "package.json": "{}", "here.txt": "started\n" });
  const named = await tempProject({ "package.json": "{}", "there.txt": "named\n" });
  const other = await tempProject({ "go.mod": "module x\n", "else.txt": "other\n" });
  await _with(await _start(started, [], [named, started]), async (c) => {
    assert.equal((await _read(c.client, "there.txt")).content, "named\n");
    assert.equal((await _read(c.client, "here.txt")).status, "error");
    // The client's roots change: the next call serves the new first root.
    await c.setRoots([other]);
    assert.equal((await _read(c.client, "else.txt")).content, "other\n");
    assert.equal(c.asked(), 2);
  });
});

Deno.test("roots: --root beats the client's roots, and an empty list keeps the folder", async () => {
  const given = await tempProject({ "package.json": "{}", "given.txt": "given\n" });
  const named = await tempProject({ "package.json": "{}", "there.txt": "named\n" });
  await _with(await _start(named, ["--root", given], [named]), async (c) => {
    assert.equal((await _read(c.client, "given.txt")).content, "given\n");
    assert.equal(c.asked(), 0);
  });
  await _with(await _start(given, [], []), async (c) => {
    assert.equal((await _read(c.client, "given.txt")).content, "given\n");
    assert.equal(c.asked(), 1);
  });
});

Deno.test("roots: started in / a client's root is served; without one the server refuses", async () => {
  const named = await tempProject({ "package.json": "{}", "there.txt": "named\n" });
  await _with(await _start("/", [], [named]), async (c) => {
    assert.equal((await _read(c.client, "there.txt")).content, "named\n");
  });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...FULL, MAIN],
    cwd: "/",
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const init = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":' +
    '"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}';
  const lines = [
    init,
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    "",
  ].join("\n");
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(lines));
  const { code, stderr, stdout } = await child.output();
  await w.close().catch(() => {});
  assert.equal(code, 2);
  assert.match(new TextDecoder().decode(stderr), /refusing to serve \//);
  assert.doesNotMatch(new TextDecoder().decode(stdout), /"id":2/);
});
