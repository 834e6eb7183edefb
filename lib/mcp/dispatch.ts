/**
 * One tool call by name, as `tools/call` and `localexec call` make it: the tool if it is on,
 * otherwise the JSON error saying why; the context the tool gets; the progress heartbeat. No SDK
 * here: `localexec call` runs a tool without loading the MCP server.
 */
import { errorLine } from "../errors.ts";
import { type CallResult, callTool, errorResult } from "./boundary.ts";
import type { AnyTool, ServerState, ToolContext, ToolEntry } from "./tool.ts";

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
  const entry = state.tools.on.find((t) => t.name === name);
  if (typeof name !== "string" || !name) {
    return Promise.resolve(errorResult(
      `tools/call needs a tool name (params.name); tools on: ${
        state.tools.on.map((t) => t.name).join(", ")
      }`,
    ));
  }
  if (!entry) {
    const off = state.tools.off.find((t) => t.name === name);
    if (off) return _off(off.entry, `tool "${off.name}" is off: ${off.why}`);
    return Promise.resolve(errorResult(
      `unknown tool ${JSON.stringify(String(name).slice(0, 60))}; tools on: ${
        state.tools.on.map((t) => t.name).join(", ")
      }`,
    ));
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
  return _load(entry).then((tool) =>
    typeof tool === "string" ? errorResult(tool) : callTool(tool, args, ctx)
  ).finally(() => clearInterval(heartbeat));
}

/** The tool of `entry`, or why its module would not load. */
function _load(entry: ToolEntry): Promise<AnyTool | string> {
  return entry.load().catch((err) => `cannot load tool "${entry.name}": ${errorLine(err)}`);
}

/** The answer to a call of a tool that is off: the reason, with the tool's own error fields. */
async function _off(entry: ToolEntry, message: string): Promise<CallResult> {
  const tool = await _load(entry);
  return errorResult(message, typeof tool === "string" ? {} : tool.errorFields?.(message));
}
