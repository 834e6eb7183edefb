/**
 * State shared by every call that one server (or one `localexec call`) handles.
 *
 * Handlers reach it through `ctx.state`. The only module-level state in `lib/` is caches of
 * immutable, costly resources: loaded grammars (`lib/outline/parser.ts`) and the find worker's
 * source (`lib/find/search.ts`); whether `/proc/self/fd` may be read (`lib/fs_atomic.ts`); and the
 * process's one watchdog (`lib/process.ts`), which belongs to the process rather than a server.
 */
import { ReadMarks } from "./read_marks.ts";
import type { ServerState, ToolAvailability } from "./tool.ts";

export type { ServerState };

/** Builds a fresh state. */
export function createState(
  root: string,
  configPath: string,
  tools: ToolAvailability,
  rootWarning?: string,
): ServerState {
  return {
    root,
    configPath,
    tools,
    shown: new ReadMarks(),
    ...(rootWarning ? { rootWarning } : {}),
  };
}

/**
 * Points `state` at the root of `next` (MCP roots): root, configuration, tools and warning. Calls
 * already running keep the root they started with; the read marks stay (they hold real paths).
 */
export function rebaseState(state: ServerState, next: ServerState): void {
  const { root, configPath, tools, rootWarning } = next;
  Object.assign(state, { root, configPath, tools, rootWarning });
}
