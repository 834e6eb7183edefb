/**
 * The MCP server: lists the tools that are on and routes `tools/call` through the boundary.
 *
 * `tools/call` is handled by the SDK's fallback handler rather than `setRequestHandler`, because
 * the SDK would otherwise answer malformed arguments with a protocol error before our boundary
 * sees them; here every call, however malformed, gets the project's JSON result.
 */
import { Server } from "@modelcontextprotocol/sdk/server";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { type CallResult, callTool, errorResult } from "./boundary.ts";
import type { ServerState } from "./state.ts";
import { ClientRoots, type RootsOptions } from "./roots.ts";
import { inputSchema, outputSchema } from "./schema.ts";
import { LineTransport } from "./transport.ts";
import type { AnyTool, ToolContext } from "./tool.ts";
import { VERSION } from "../version.ts";
import { errorLine } from "../errors.ts";

/** How often a long call reports that it is still alive, when the client asked for progress. */
const HEARTBEAT_MS = 8_000;

/** The `tools/list` entry of one tool. */
export function describeTool(tool: AnyTool): Record<string, unknown> {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    // Unknown arguments are refused (see lib/boundary.ts), and the schema says so.
    inputSchema: inputSchema(tool.input),
    outputSchema: outputSchema(tool.output),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/** Everything a call needs besides the tool and its arguments. */
export interface CallEnv {
  state: ServerState;
  signal?: AbortSignal;
  /** Sends one progress notification; absent when the client gave no progress token. */
  notify?: (message: string, progress: number, total?: number) => void;
}

/** Calls the tool named `name` if it is on; otherwise answers with the JSON error saying why. */
export function dispatch(name: unknown, args: unknown, env: CallEnv): Promise<CallResult> {
  const { state } = env;
  const tool = state.tools.on.find((t) => t.name === name);
  if (typeof name !== "string" || !name) {
    return Promise.resolve(errorResult(
      `tools/call needs a tool name (params.name); tools on: ${
        state.tools.on.map((t) => t.name).join(", ")
      }`,
    ));
  }
  if (!tool) {
    const off = state.tools.off.find((t) => t.name === name);
    const msg = off
      ? `tool "${off.name}" is off: ${off.why}`
      : `unknown tool ${JSON.stringify(String(name).slice(0, 60))}; tools on: ${
        state.tools.on.map((t) => t.name).join(", ")
      }`;
    return Promise.resolve(errorResult(msg, off?.tool.errorFields?.(msg)));
  }
  let step = 0;
  let lastMessage = "";
  const ctx: ToolContext = {
    root: state.root,
    signal: env.signal ?? new AbortController().signal,
    state,
    progress(message, progress, total) {
      lastMessage = message;
      step = progress ?? step + 1;
      env.notify?.(message, step, total);
    },
  };
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  if (env.notify) {
    heartbeat = setInterval(() => env.notify!(lastMessage || "working", step), HEARTBEAT_MS);
  }
  return callTool(tool, args, ctx).finally(() => clearInterval(heartbeat));
}

/** Calls still running, each with the controller that cancels it. */
export type InFlight = Set<AbortController>;

/** Options for {@linkcode createServer} and {@linkcode serveStdio}. */
export interface ServeOptions {
  /** Follow the client's MCP roots (given when no `--root` was). */
  roots?: RootsOptions;
}

/** Builds the MCP server for `state`; `inflight` tracks running calls for a clean shutdown. */
export function createServer(
  state: ServerState,
  inflight: InFlight = new Set(),
  options: ServeOptions = {},
): Server {
  const server = new Server(
    { name: "localexec", version: VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        "localexec: host tools scoped to one project root, code navigation (outline, find), and " +
        "delegation of small coding steps to a local model (implement_task). Paths are relative to " +
        'the project root. Every result is short JSON; errors are {"status":"error",...}.',
    },
  );
  const roots = options.roots ? new ClientRoots(server, state, options.roots) : undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await roots?.ready;
    return { tools: state.tools.on.map(describeTool) };
  });
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== "tools/call") {
      // A plain error with a code: McpError would put "MCP error -32601: " in the message, and the
      // client's SDK adds that prefix again.
      throw Object.assign(new Error(`Method not found: ${request.method}`), {
        code: ErrorCode.MethodNotFound,
      });
    }
    const params = (request.params ?? {}) as Record<string, unknown>;
    const token = extra._meta?.progressToken;
    const notify = token === undefined
      ? undefined
      : (message: string, progress: number, total?: number) => {
        extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress, total, message },
        }).catch(() => {});
      };
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    extra.signal.addEventListener("abort", onAbort, { once: true });
    inflight.add(controller);
    try {
      await roots?.ready;
      return await dispatch(params.name, params.arguments, {
        state,
        signal: controller.signal,
        notify,
      });
    } finally {
      inflight.delete(controller);
      extra.signal.removeEventListener("abort", onAbort);
    }
  };
  return server;
}

/** Largest JSON-RPC line accepted on stdin (a `write_file` of a few megabytes must fit). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** How long calls still running when stdin closes may take to finish before they are cancelled. */
const DRAIN_MS = 10_000;

async function _drain(inflight: InFlight): Promise<void> {
  const deadline = Date.now() + DRAIN_MS;
  while (inflight.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  for (const c of inflight) c.abort();
  while (inflight.size) await new Promise((r) => setTimeout(r, 20));
}

/**
 * Serves `state` over stdio until stdin closes. Calls still running then get a few seconds to
 * answer; the rest are cancelled (a task stays revertable).
 */
export async function serveStdio(state: ServerState, options: ServeOptions = {}): Promise<void> {
  const inflight: InFlight = new Set();
  const server = createServer(state, inflight, options);
  const transport = new LineTransport(MAX_MESSAGE_BYTES);
  // A malformed line is answered (when it has an id), reported here and skipped.
  server.onerror = (err) => console.error(`localexec: ${errorLine(err)}`);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  transport.ended.then(() => _drain(inflight)).then(() => server.close());
  await server.connect(transport);
  await closed;
}
