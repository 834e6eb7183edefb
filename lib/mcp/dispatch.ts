/**
 * One tool call by name, as `tools/call` and `localexec call` make it: the tool if it is on,
 * otherwise the JSON error saying why; the context the tool gets; the progress heartbeat. No SDK
 * here: `localexec call` runs a tool without loading the MCP server.
 */
import { type CallResult, callTool, errorResult } from "./boundary.ts";
import type { ServerState, ToolContext } from "./tool.ts";

/** How often a long call reports that it is still alive, when the client asked for progress. */
const HEARTBEAT_MS = 8_000;

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
