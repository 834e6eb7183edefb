/**
 * End-to-end helpers: talk to the server with the SDK's `Client`, either in process through the
 * SDK's linked in-memory transports (the protocol surface: schemas, results, errors) or with the
 * real server as a subprocess over stdio (where the process matters: permissions, signals, stdio).
 */
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ProgressNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CONFIG_NAME } from "../../lib/config.ts";
import { availableTools, createState, PRESETS } from "../../lib/mcp/mod.ts";
import { createServer } from "../../lib/mcp/server.ts";
import { toolEntries } from "../../tools/mod.ts";

/** Absolute path of `main.ts`. */
export const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

/** The permission flags of the full preset (`-A`, what `deno task start` uses). */
export const FULL: string[] = [...PRESETS.full];

/** Options for {@linkcode connect}. */
export interface ConnectOptions {
  /** Deno permission flags; default {@linkcode FULL}. */
  permissions?: string[];
  /** Extra arguments after `main.ts` (for example `--read-only`). */
  args?: string[];
  env?: Record<string, string>;
}

/** A connected client and a way to close it (which ends the server). */
export interface Connection {
  client: Client;
  transport: StdioClientTransport;
  close(): Promise<void>;
}

/** A client connected to a server in this process. */
export interface InProcessConnection {
  client: Client;
  close(): Promise<void>;
}

/** Options for {@linkcode connectInProcess}: what `--read-only` and `--tools` would narrow. */
export interface InProcessOptions {
  readOnly?: boolean;
  tools?: string[];
  /** How often a long call's heartbeat repeats its progress (default 8 s). */
  heartbeatMs?: number;
}

/**
 * Builds the server for `root` as `main.ts` does (its tools from the manifest, each module loaded
 * by its first call), under this process's permissions, and connects a client to it in process:
 * no subprocess, no Deno start-up per test.
 */
export async function connectInProcess(
  root: string,
  options: InProcessOptions = {},
): Promise<InProcessConnection> {
  const real = await Deno.realPath(root);
  const tools = availableTools(
    await toolEntries(),
    { root: real, modelHosts: ["127.0.0.1:11434"] },
    {
      readOnly: options.readOnly,
      only: options.tools,
    },
  );
  const server = createServer(createState(real, `${real}/${CONFIG_NAME}`, tools), new Set(), {
    heartbeatMs: options.heartbeatMs,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "localexec-test", version: "0.0.0" });
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** Starts `main.ts` serving `root` and connects an SDK client to it. */
export async function connect(root: string, options: ConnectOptions = {}): Promise<Connection> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      "--no-prompt",
      ...(options.permissions ?? FULL),
      MAIN,
      "--root",
      root,
      ...(options.args ?? []),
    ],
    env: { ...Deno.env.toObject(), NO_COLOR: "1", ...options.env },
    stderr: "pipe",
  });
  const client = new Client({ name: "localexec-test", version: "0.0.0" });
  await client.connect(transport);
  return {
    client,
    transport,
    async close() {
      await client.close();
    },
  };
}

/** Calls `name` and returns the parsed JSON of its first text block. */
export async function callMcp(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  return JSON.parse(content[0].text!);
}

/**
 * Collects the progress messages `client` receives, per progress token. Its own handler: the
 * SDK's per-request callback can miss notifications sent just before the response.
 */
export function trackProgress(client: Client): Map<string | number, string[]> {
  const progress = new Map<string | number, string[]>();
  client.setNotificationHandler(ProgressNotificationSchema, (n) => {
    const list = progress.get(n.params.progressToken) ?? [];
    list.push(String(n.params.message ?? ""));
    progress.set(n.params.progressToken, list);
  });
  return progress;
}

/**
 * Sends raw lines to a fresh server, closes its stdin, and returns every JSON-RPC message it wrote
 * (the elements of an array answer one by one). Fails when the server does not exit cleanly.
 */
export async function rawMessages(
  root: string,
  lines: string[],
  args: string[] = [],
): Promise<Record<string, unknown>[]> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...FULL, MAIN, "--root", root, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // A server that stops reading or never exits fails the test instead of hanging it.
  const deadline = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(lines.join("\n") + "\n")).catch(() => {});
  await w.close().catch(() => {});
  const { stdout, success } = await child.output();
  clearTimeout(deadline);
  if (!success) throw new Error("the server did not exit cleanly when stdin closed");
  return new TextDecoder().decode(stdout).split("\n").filter(Boolean)
    .flatMap((line) => JSON.parse(line)); // every stdout line must be JSON-RPC
}

/** {@linkcode rawMessages} by numeric id. */
export async function rawLines(
  root: string,
  lines: string[],
  args: string[] = [],
): Promise<Map<number, Record<string, unknown>>> {
  const answers = new Map<number, Record<string, unknown>>();
  for (const msg of await rawMessages(root, lines, args)) {
    if (typeof msg.id === "number") answers.set(msg.id, msg);
  }
  return answers;
}

/** The `initialize` request as one raw JSON-RPC line (id 1). */
export const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "0" },
  },
});

/** Runs `localexec call TOOL ARGS` once in `root` (the full preset) and parses what it prints. */
export async function callOnce(
  root: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...FULL, MAIN, "call", tool, JSON.stringify(args), "--root", "."],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}
