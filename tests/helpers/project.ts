/**
 * Test helpers: real temporary project folders, and a tool context to call handlers directly.
 */
import { dirname, join } from "../../lib/deps.ts";
import { callTool } from "../../lib/mcp/boundary.ts";
import { entryOf } from "../../lib/mcp/schema.ts";
import { createState, type ServerState } from "../../lib/mcp/state.ts";
import type { AnyTool, ToolContext } from "../../lib/mcp/tool.ts";
import { loadTools } from "../../tools/mod.ts";

/** Every registered tool, loaded. */
const TOOLS = await loadTools();

/** Creates a temporary folder holding `files` (path → content) and returns its real path. */
export async function tempProject(
  files: Record<string, string | Uint8Array> = {},
): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-test-" }));
  await writeFiles(root, files);
  return root;
}

/** Writes `files` (path → content) under `root`, creating folders. */
export async function writeFiles(
  root: string,
  files: Record<string, string | Uint8Array>,
): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    await Deno.mkdir(dirname(path), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
}

/** A server state for `root` with every tool on. */
export function testState(root: string, configPath = join(root, ".localexec.json")): ServerState {
  return createState(root, configPath, { on: TOOLS.map(entryOf), off: [] });
}

/** Options for {@linkcode testContext}. */
export interface TestContextOptions {
  state?: ServerState;
  signal?: AbortSignal;
  /** Collects progress messages. */
  progress?: string[];
}

/** A handler context for `root`. */
export function testContext(root: string, options: TestContextOptions = {}): ToolContext {
  return {
    root,
    signal: options.signal ?? new AbortController().signal,
    state: options.state ?? testState(root),
    progress(message) {
      options.progress?.push(message);
    },
  };
}

/** Calls `tool` through the boundary, as the server does, and returns the parsed JSON result. */
export async function callJson(
  tool: AnyTool,
  args: unknown,
  ctx: ToolContext,
): Promise<Record<string, unknown>> {
  const result = await callTool(tool, args, ctx);
  const first = result.content[0];
  if (first.type !== "text") throw new Error("first content block is not text");
  return JSON.parse(first.text);
}

/** Runs `git ARGS` in `root` with a test identity; throws with git's stderr when it fails. */
export async function git(root: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd: root,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}
