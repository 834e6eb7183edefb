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
 * above the last one sent, and a heartbeat adds {@linkcode BEAT} to the last. Once a step named a
 * `total`, no value passes it: a heartbeat after a step at the total (or just below) halves the
 * distance left instead (a client showed run_checks at 1.001 of 1, past 100 %).
 */
export class ProgressValues {
  #last = 0;
  /** The total the last step named, if any. */
  total: number | undefined;

  /** The value for the tool's next step (`wanted` when it names one above the last). */
  step(wanted?: number, total?: number): number {
    if (total !== undefined) this.total = total;
    const next = wanted !== undefined && wanted > this.#last
      ? Math.min(wanted, this.total ?? Infinity)
      : wanted === undefined && Math.floor(this.#last) + 1 < (this.total ?? Infinity)
      ? Math.floor(this.#last) + 1
      : undefined;
    return next === undefined || next <= this.#last ? this.beat() : (this.#last = next);
  }

  /** The value for a heartbeat: a little above the last, and below the total. */
  beat(): number {
    let next = Math.round((this.#last + BEAT) * 1e6) / 1e6;
    if (this.total !== undefined && next >= this.total) {
      next = this.#last + (this.total - this.#last) / 2;
    }
    return (this.#last = next);
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
      const value = values.step(progress, total);
      env.notify?.(message, value, values.total);
    },
  };
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  if (env.notify) {
    heartbeat = setInterval(
      () => env.notify!(lastMessage || "working", values.beat(), values.total),
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
