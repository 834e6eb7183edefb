/**
 * The MCP layer: the server and its stdio transport, the one boundary that turns every tool result
 * and failure into a JSON result, the tool definition and context types, the permission check that
 * decides which tools are on, and the per-server state. Tools and `main.ts` import from here.
 *
 * The SDK (the server, its transport, MCP roots) is loaded by {@linkcode serveStdio} only: a tool
 * run by `localexec call` goes through the same boundary without it.
 */
import type { ServeOptions } from "./server.ts";
import type { ServerState } from "./tool.ts";

export {
  type CallResult,
  callTool,
  errorResult,
  MAX_RESULT_BYTES,
  thrownJson,
} from "./boundary.ts";
export { availableTools, type NarrowOptions, type NeedQuery } from "./permissions.ts";
export { EVERY_TOOL_FLAGS, grants, type PresetName, PRESETS, scopedFlags } from "./presets.ts";
export { type CallEnv, dispatch } from "./dispatch.ts";
export { describeTool, entryOf } from "./schema.ts";
export type { ServeOptions } from "./server.ts";
export type { RootsOptions } from "./roots.ts";
export { fingerprint, ReadMarks } from "./read_marks.ts";
export { createState, rebaseState } from "./state.ts";
export {
  clientWaitS,
  RUNNING_OUTPUT,
  RunningTasks,
  type RunningView,
  type TaskResult,
  WAIT_TASKS_S,
  type WaitAnswer,
} from "./running.ts";
export {
  ANNOTATIONS,
  type AnyTool,
  type ContentBlock,
  defineTool,
  type Need,
  prose,
  RichResult,
  type ServerState,
  type ToolAvailability,
  type ToolContext,
  type ToolDef,
  type ToolEntry,
  type ToolOutput,
} from "./tool.ts";

/**
 * Serves `state` over stdio until stdin closes (see `server.ts`, loaded here and not before).
 */
export async function serveStdio(state: ServerState, options: ServeOptions = {}): Promise<void> {
  const server = await import("./server.ts");
  await server.serveStdio(state, options);
}
