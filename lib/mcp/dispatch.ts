/**
 * One tool call by name, as `tools/call` and `localexec call` make it: the tool if it is on,
 * otherwise the JSON error saying why; the context the tool gets; the progress heartbeat. No SDK
 * here: `localexec call` runs a tool without loading the MCP server.
 */
import { errorLine } from "../errors.ts";
import { type CallResult, callTool, errorResult } from "./boundary.ts";
import type { AnyTool, ServerState, ToolContext, ToolEntry } from "./tool.ts";

/** How often a long call reports that it is still alive, when the client asked for progress. */
export const HEARTBEAT_MS = 8_000;

/** What a heartbeat adds to the last progress value: a thousand beats fit before the next step. */
const BEAT = 0.001;

/**
 * The progress values of one call, strictly increasing as the MCP specification requires: a step
 * the tool reports without a value is the next whole number, a value it gives is used when it is
 * above the last one sent, and a heartbeat adds {@linkcode BEAT} to the last.
 */
export class ProgressValues {
  #last = 0;

  /** The value for the tool's next step (`wanted` when it names one above the last). */
  step(wanted?: number): number {
    const next = wanted !== undefined && wanted > this.#last
      ? wanted
      : wanted === undefined
      ? Math.floor(this.#last) + 1
      : this.beat();
    return (this.#last = next);
  }

  /** The value for a heartbeat: a little above the last. */
  beat(): number {
    return (this.#last = Math.round((this.#last + BEAT) * 1e6) / 1e6);
  }
}

/** Everything a call needs besides the tool and its arguments. */
export interface CallEnv {
  state: ServerState;
  signal?: AbortSignal;
  /** How often the heartbeat repeats the last message; default {@linkcode HEARTBEAT_MS}. */
  heartbeatMs?: number;
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
  const values = new ProgressValues();
  let lastMessage = "";
  const ctx: ToolContext = {
    root: state.root,
    signal: env.signal ?? new AbortController().signal,
    state,
    progress(message, progress, total) {
      lastMessage = message;
      env.notify?.(message, values.step(progress), total);
    },
  };
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  if (env.notify) {
    heartbeat = setInterval(
      () => env.notify!(lastMessage || "working", values.beat()),
      env.heartbeatMs ?? HEARTBEAT_MS,
    );
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
