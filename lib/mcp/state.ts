/**
 * State shared by every call that one server (or one `localexec call`) handles.
 *
 * Handlers reach it through `ctx.state`. The only module-level state in `lib/` is caches of
 * costly resources, each checked against the disk before use: loaded grammars
 * (`lib/outline/parser.ts`), outline's worker and the outlines of unchanged files
 * (`lib/outline/host.ts`, `cache.ts`), find's worker pool and the file listings that git's index
 * and the folders still vouch for (`lib/find/search.ts`, `mod.ts`); and state of the process
 * rather than of a server: whether `/proc/self/fd` may be read (`lib/fs_atomic.ts`) and the one
 * watchdog of commands (`lib/process/watchdog.ts`).
 */
import { ReadMarks } from "./read_marks.ts";
import { RunningTasks } from "./running.ts";
import { HostSlots } from "../model/mod.ts";
import { LandingRounds } from "../implement/mod.ts";
import type { ServerState, ToolAvailability } from "./tool.ts";

export type { ServerState };

/** Builds a fresh state. */
export function createState(
  root: string,
  configPath: string,
  tools: ToolAvailability,
  rootWarning?: string,
  waitS?: number,
): ServerState {
  return {
    root,
    configPath,
    tools,
    shown: new ReadMarks(),
    tasks: new RunningTasks(),
    slots: new HostSlots(),
    rounds: new LandingRounds(),
    ...(waitS !== undefined ? { waitS } : {}),
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
