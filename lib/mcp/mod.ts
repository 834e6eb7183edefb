/**
 * The MCP layer: the server and its stdio transport, the one boundary that turns every tool result
 * and failure into a JSON result, the tool definition and context types, the permission check that
 * decides which tools are on, and the per-server state. Tools and `main.ts` import from here.
 */
export { type CallResult, callTool, errorResult, MAX_RESULT_BYTES } from "./boundary.ts";
export { availableTools, type NarrowOptions, type NeedQuery } from "./permissions.ts";
export { type PresetName, PRESETS } from "./presets.ts";
export {
  type CallEnv,
  createServer,
  describeTool,
  dispatch,
  type ServeOptions,
  serveStdio,
} from "./server.ts";
export { ROOTS_TIMEOUT_MS, type RootsOptions } from "./roots.ts";
export { fingerprint, ReadMarks } from "./read_marks.ts";
export { createState, rebaseState } from "./state.ts";
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
  type ToolOutput,
} from "./tool.ts";
