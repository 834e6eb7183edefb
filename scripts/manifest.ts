/**
 * Writes `tools/manifest.json` from the registry (`tools/mod.ts`): what a server knows of each tool
 * before its module loads, namely its needs (the permission check) and its `tools/list` entry
 * exactly as `describeTool` makes it. A server answers `tools/list` from this file;
 * tests/tools/manifest_test.ts fails when it differs from what the tools themselves produce. It is
 * also the snapshot of every tool's schemas: a change to a tool's arguments or result fields shows
 * as a diff of this file, to review with the change. From the same listings it writes the result
 * fields reference, docs/reference/result-fields.txt (`result_fields.ts`), and it bundles find's
 * search worker into lib/find/worker.gen.js (`worker_bundle.ts`; `--check` compares the recorded
 * hash of its inputs only).
 *
 *   deno task manifest            rewrite it
 *   deno task manifest --check    exit 1 when either is out of date
 */
import { describeTool } from "../lib/mcp/mod.ts";
import { loadTools } from "../tools/mod.ts";
import { RESULT_FIELDS, resultFieldsText } from "./result_fields.ts";
import { bundleWorker } from "./worker_bundle.ts";
import { staleWorker, WORKER_GEN } from "./check_structure.ts";

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

/** The result fields reference's text, from the tools' listings now. */
export async function resultsText(): Promise<string> {
  return resultFieldsText((await loadTools()).map((tool) => describeTool(tool)));
}

/** Writes (or with `check`, only compares) one generated file; false when it was out of date. */
async function _update(file: URL, text: string, check: boolean): Promise<boolean> {
  const name = file.pathname.split("/").slice(-2).join("/");
  const now = await Deno.readTextFile(file).catch(() => "");
  if (now === text) {
    if (!check) console.error(`${name} is up to date`);
    return true;
  }
  if (check) {
    console.error(`${name} is out of date: run \`deno task manifest\``);
    return false;
  }
  await Deno.mkdir(new URL(".", file), { recursive: true });
  await Deno.writeTextFile(file, text);
  console.error(`${name} rewritten`);
  return true;
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  const manifest = await _update(MANIFEST, await manifestText(), check);
  const results = await _update(RESULT_FIELDS, await resultsText(), check);
  const root = new URL("..", import.meta.url);
  const read = (f: string) => Deno.readTextFileSync(new URL(f, root));
  const stale = await staleWorker(read);
  const worker = !stale
    ? (console.error(`${WORKER_GEN} is up to date`), true)
    : check
    ? (console.error(stale), false)
    : await _update(new URL(WORKER_GEN, root), await bundleWorker(root.pathname), false);
  if (!manifest || !results || !worker) Deno.exit(1);
}
