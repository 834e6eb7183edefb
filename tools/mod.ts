/**
 * The registry: the one place a tool is listed. Each line names a tool and loads its module,
 * `tools/<name>.ts`, only when asked for: `localexec call TOOL` and a server's first call of a
 * tool load that one tool (not the grammars, the model clients and the other tools). The imports
 * are literal, so `deno compile` sees every module.
 *
 * Everything else that knows the set is made from this list: `tools/manifest.json` (each tool's
 * needs and `tools/list` entry, written by `deno task manifest`), from which a server lists and
 * gates the tools before any tool module loads; and the tests, which compare against the registry
 * or the manifest. `deno task structure` fails on a `tools/*.ts` module that has no line here.
 * Which tools are on is decided at start-up from Deno's permissions (`lib/mcp/permissions.ts`).
 */
import type { AnyTool, Need, ToolEntry } from "../lib/mcp/mod.ts";

type Loader = () => Promise<{ default: AnyTool }>;

/** Every tool, host tools first, then delegation, then navigation: `name: () => import(file)`. */
const REGISTRY: Record<string, Loader> = {
  list_files: () => import("./list_files.ts"),
  read_file: () => import("./read_file.ts"),
  write_file: () => import("./write_file.ts"),
  patch_file: () => import("./patch_file.ts"),
  shell: () => import("./shell.ts"),
  run_python: () => import("./run_python.ts"),
  implement_task: () => import("./implement_task.ts"),
  wait_tasks: () => import("./wait_tasks.ts"),
  run_checks: () => import("./run_checks.ts"),
  revert_task: () => import("./revert_task.ts"),
  list_tasks: () => import("./list_tasks.ts"),
  show_patch: () => import("./show_patch.ts"),
  status: () => import("./status.ts"),
  outline: () => import("./outline.ts"),
  find: () => import("./find.ts"),
};

/** Every tool's name, in the registry's order. */
export const TOOL_NAMES: readonly string[] = Object.keys(REGISTRY);

/** The tool named `name`, loaded with what it imports; undefined for an unknown name. */
export async function loadTool(name: string): Promise<AnyTool | undefined> {
  return Object.hasOwn(REGISTRY, name) ? (await REGISTRY[name]()).default : undefined;
}

/** Every tool, loaded, in the registry's order (the manifest's generator, tests, smoke test). */
export function loadTools(): Promise<AnyTool[]> {
  return Promise.all(TOOL_NAMES.map(async (name) => (await REGISTRY[name]()).default));
}

/** One tool in `manifest.json`: its needs and its `tools/list` entry. */
export interface ManifestTool {
  needs: Need[];
  listing: { name: string; annotations: { readOnlyHint: boolean } } & Record<string, unknown>;
}

/** Every tool's entry, in the registry's order, from `manifest.json`: no tool module is loaded. */
export async function toolEntries(): Promise<ToolEntry[]> {
  const manifest = await import("./manifest.json", { with: { type: "json" } });
  return (manifest.default.tools as ManifestTool[]).map(({ needs, listing }) => ({
    name: listing.name,
    needs,
    readOnly: listing.annotations.readOnlyHint,
    describe: () => listing,
    load: async () => (await REGISTRY[listing.name]()).default,
  }));
}
