/**
 * The tools by name, each loaded only when asked for: `localexec call TOOL` and a server's first
 * call of a tool load that one tool (not the grammars, the model clients and the other tools). The
 * imports are literal, so `deno compile` sees every module. The names are `mod.ts`'s list, in its
 * order (tests/cli/lazy_test.ts holds the two together).
 *
 * What is known of a tool before its module loads (its `tools/list` entry, its needs) comes from
 * `manifest.json`, which `deno task manifest` generates from the tools themselves and
 * tests/tools/manifest_test.ts holds to them: a server answers `tools/list` without loading any
 * tool module or converting any schema.
 */
import type { AnyTool, Need, ToolEntry } from "../lib/mcp/mod.ts";

type Loader = () => Promise<{ default: AnyTool }>;

const LOADERS: Record<string, Loader> = {
  list_files: () => import("./list_files.ts"),
  read_file: () => import("./read_file.ts"),
  write_file: () => import("./write_file.ts"),
  patch_file: () => import("./patch_file.ts"),
  shell: () => import("./shell.ts"),
  run_python: () => import("./run_python.ts"),
  implement_task: () => import("./implement_task.ts"),
  run_checks: () => import("./run_checks.ts"),
  revert_task: () => import("./revert_task.ts"),
  list_tasks: () => import("./list_tasks.ts"),
  show_patch: () => import("./show_patch.ts"),
  status: () => import("./status.ts"),
  outline: () => import("./outline.ts"),
  find: () => import("./find.ts"),
};

/** Every tool's name, in the order of `mod.ts`. */
export const TOOL_NAMES: readonly string[] = Object.keys(LOADERS);

/** The tool named `name`, loaded with what it imports; undefined for an unknown name. */
export async function loadTool(name: string): Promise<AnyTool | undefined> {
  return Object.hasOwn(LOADERS, name) ? (await LOADERS[name]()).default : undefined;
}

/** One tool in `manifest.json`: its needs and its `tools/list` entry. */
export interface ManifestTool {
  needs: Need[];
  listing: { name: string; annotations: { readOnlyHint: boolean } } & Record<string, unknown>;
}

/** Every tool's entry, in the order of `mod.ts`, from `manifest.json`: no tool module is loaded. */
export async function toolEntries(): Promise<ToolEntry[]> {
  const manifest = await import("./manifest.json", { with: { type: "json" } });
  return (manifest.default.tools as ManifestTool[]).map(({ needs, listing }) => ({
    name: listing.name,
    needs,
    readOnly: listing.annotations.readOnlyHint,
    describe: () => listing,
    load: async () => (await LOADERS[listing.name]()).default,
  }));
}
