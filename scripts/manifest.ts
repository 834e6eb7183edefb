/**
 * Writes `tools/manifest.json` from the registry (`tools/mod.ts`): what a server knows of each tool
 * before its module loads, namely its needs (the permission check) and its `tools/list` entry
 * exactly as `describeTool` makes it. A server answers `tools/list` from this file;
 * tests/tools/manifest_test.ts fails when it differs from what the tools themselves produce. It is
 * also the snapshot of every tool's schemas: a change to a tool's arguments or result fields shows
 * as a diff of this file, to review with the change.
 *
 *   deno task manifest            rewrite it
 *   deno task manifest --check    exit 1 when it is out of date
 */
import { describeTool } from "../lib/mcp/mod.ts";
import { loadTools } from "../tools/mod.ts";

/** Where the manifest lives. */
export const MANIFEST = new URL("../tools/manifest.json", import.meta.url);

/** The manifest's text, as the tools define themselves now. */
export async function manifestText(): Promise<string> {
  const tools = (await loadTools()).map((tool) => ({
    needs: tool.needs,
    listing: describeTool(tool),
  }));
  const generated = "by `deno task manifest` from tools/mod.ts; do not edit";
  return JSON.stringify({ generated, tools }, null, 2) + "\n";
}

if (import.meta.main) {
  const text = await manifestText();
  const now = await Deno.readTextFile(MANIFEST).catch(() => "");
  if (Deno.args.includes("--check")) {
    if (now !== text) {
      console.error("tools/manifest.json is out of date: run `deno task manifest`");
      Deno.exit(1);
    }
  } else if (now !== text) {
    await Deno.writeTextFile(MANIFEST, text);
    console.error("tools/manifest.json rewritten");
  } else {
    console.error("tools/manifest.json is up to date");
  }
}
