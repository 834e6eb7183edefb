/**
 * End-to-end helpers: start the real server as a subprocess over stdio and talk to it with the
 * SDK's `Client`.
 */
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { fileURLToPath } from "node:url";
import { PRESETS } from "../../lib/presets.ts";

/** Absolute path of `main.ts`. */
export const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

/** The permission flags of the full preset (what `deno task start` uses). */
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
export async function callJson(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  return JSON.parse(content[0].text!);
}
