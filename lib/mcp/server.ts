/**
 * The MCP server: lists the tools that are on and routes `tools/call` through the boundary.
 *
 * `tools/call` is handled by the SDK's fallback handler rather than `setRequestHandler`, because
 * the SDK would otherwise answer malformed arguments with a protocol error before our boundary
 * sees them; here every call, however malformed, gets the project's JSON result.
 *
 * Only `serve` loads this module (and the SDK's protocol with it): `mod.ts` imports it when serving
 * starts, so `localexec call` and `--version` never pay for it. The server is `lean_server.ts`, not
 * the SDK's `Server`, whose module loads Ajv at import.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { dispatch } from "./dispatch.ts";
import { LeanServer } from "./lean_server.ts";
import type { ServerState } from "./state.ts";
import { ClientRoots, type RootsOptions } from "./roots.ts";
import { LineTransport } from "./transport.ts";
import { VERSION } from "../version.ts";
import { errorLine } from "../errors.ts";
import { callEnded, callStarted, whenQuiet } from "../quiet.ts";

/** Calls still running, each with the controller that cancels it. */
export type InFlight = Set<AbortController>;

/** Options for {@linkcode createServer} and {@linkcode serveStdio}. */
export interface ServeOptions {
  /** Follow the client's MCP roots (given when no `--root` was). */
  roots?: RootsOptions;
  /**
   * Work that must not delay the first answers (`serveStdio` runs it once: after the first
   * `tools/list` or tool call is answered, {@linkcode LATER_MS} after the start, or at the end,
   * whichever comes first); `createServer` calls it after every such answer.
   */
  later?: () => void;
  /** How often a long call's heartbeat repeats its last progress (tests shorten it). */
  heartbeatMs?: number;
  /**
   * Work for a quiet moment (`serveStdio` runs it once: after the first `tools/list` or tool call
   * has been answered, once no request has come for {@linkcode IDLE_MS}); see `lib/quiet.ts`.
   */
  idle?: () => void;
  /** Told of each tool call once it has been answered (`main.ts`: work ahead of the next). */
  called?: (name: unknown, args: unknown, result?: Record<string, unknown>) => void;
}

/** How long the server must have had no request before {@linkcode ServeOptions.idle} runs. */
export const IDLE_MS = 300;

/** When {@linkcode ServeOptions.later} runs if the client asks nothing. */
export const LATER_MS = 1_000;

/** `work` run once, on the first call or after `LATER_MS`, in a timer of its own. */
function _deferred(work?: () => void): () => void {
  if (!work) return () => {};
  let todo: (() => void) | undefined = work;
  const run = () => {
    clearTimeout(fallback);
    // A timer of 0 fires after the answer being sent has started its write.
    if (todo) setTimeout(todo, 0);
    todo = undefined;
  };
  const fallback = setTimeout(run, LATER_MS);
  Deno.unrefTimer(fallback); // the end of the session runs it too (serveStdio)
  return run;
}

/** Builds the MCP server for `state`; `inflight` tracks running calls for a clean shutdown. */
export function createServer(
  state: ServerState,
  inflight: InFlight = new Set(),
  options: ServeOptions = {},
): LeanServer {
  const server = new LeanServer(
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
  const answered = options.later ?? (() => {});
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    callStarted();
    try {
      await roots?.ready;
      answered();
      // From the manifest (tools/manifest.json): no tool module is loaded, no schema converted.
      return { tools: state.tools.on.map((entry) => entry.describe()) };
    } finally {
      callEnded();
    }
  });
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== "tools/call") {
      // A plain error with a code: McpError would put "MCP error -32601: " in the message, and the
      // client's SDK adds that prefix again.
      throw Object.assign(new Error(`Method not found: ${request.method}`), {
        code: ErrorCode.MethodNotFound,
      });
    }
    callStarted();
    const params = (request.params ?? {}) as Record<string, unknown>;
    state.client ??= server.getClientName();
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
    let result: Record<string, unknown> | undefined;
    try {
      await roots?.ready;
      const answer = await dispatch(params.name, params.arguments, {
        state,
        signal: controller.signal,
        notify,
        heartbeatMs: options.heartbeatMs,
      });
      result = answer.structuredContent;
      return answer;
    } finally {
      callEnded();
      answered();
      options.called?.(params.name, params.arguments, result);
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
  const deferred = _deferred(options.later);
  let idle = options.idle;
  let cancelIdle = () => {};
  const later = () => {
    deferred();
    if (idle) cancelIdle = whenQuiet(IDLE_MS, idle);
    idle = undefined;
  };
  const server = createServer(state, inflight, { ...options, later });
  const transport = new LineTransport(MAX_MESSAGE_BYTES);
  // A malformed line is answered (when it has an id), reported here and skipped.
  server.onerror = (err) => console.error(`localexec: ${errorLine(err)}`);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  // Background tasks are not waited for: the process ends with them (see `running.ts`).
  transport.ended.then(() => _drain(inflight)).then(() => server.close());
  await server.connect(transport);
  await closed;
  idle = undefined; // nothing to prepare for: the session is over
  cancelIdle();
  deferred();
}
