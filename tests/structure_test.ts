import assert from "node:assert/strict";
import {
  cycles,
  missingImports,
  staleWorker,
  violations,
  WORKER_GEN,
  workerInputs,
} from "../scripts/check_structure.ts";
import { LONG_FUNCTION_EXCEPTIONS, longFunctions } from "../scripts/function_length.ts";

Deno.test("structure check finds cycles, type-only and dynamic imports included", () => {
  const files: Record<string, string> = {
    "lib/a.ts": 'import type { B } from "./b.ts";\n',
    "lib/b.ts": 'export const b = () => import("./a.ts");\n',
    "lib/c.ts": 'import { a } from "./a.ts";\n',
  };
  const problems = violations(Object.keys(files), (f) => files[f]);
  assert.deepEqual(problems, ["import cycle: lib/a.ts -> lib/b.ts"]);
  assert.deepEqual(cycles(new Map([["x", ["x"]]])), [["x"]]);
});

Deno.test("structure check refuses boundary imports and deep imports outside the MCP layer", () => {
  const files: Record<string, string> = {
    "lib/tasks/store.ts": 'import { ToolError } from "../mcp/boundary.ts";\n',
    "tools/x.ts": 'import { walk } from "../lib/find/walk.ts";\n',
    "lib/mcp/server.ts": 'import { callTool } from "./boundary.ts";\n',
    "lib/mcp/boundary.ts": "export const callTool = 1;\n",
    "lib/find/walk.ts": "export const walk = 1;\n",
  };
  const problems = violations(Object.keys(files), (f) => files[f]);
  assert.equal(problems.length, 4, problems.join("\n"));
  assert.match(problems.join("\n"), /store\.ts imports the boundary/);
  assert.match(
    problems.join("\n"),
    /store\.ts imports lib\/mcp\/boundary\.ts: the subsystems layer/,
  );
  assert.match(problems.join("\n"), /tools\/x\.ts imports lib\/find\/walk\.ts/);
});

Deno.test("structure check counts the modules directly in lib/", () => {
  const files = Array.from({ length: 13 }, (_, i) => `lib/m${i}.ts`);
  const problems = violations(files, () => "");
  assert.equal(problems.length, 1);
  assert.match(problems[0], /13 modules directly in lib\//);
});

/** A registry with `names`, as tools/mod.ts writes it. */
function _registry(...names: string[]): string {
  const lines = names.map((n) => `  ${n}: () => import("./${n}.ts"),\n`);
  return `const REGISTRY: Record<string, Loader> = {\n${lines.join("")}};\n`;
}

/** A tool module named `name`. */
function _tool(name: string): string {
  return `export default defineTool({\n  name: "${name}",\n});\n`;
}

Deno.test("structure check fails on a tool module the registry does not list", () => {
  const files: Record<string, string> = {
    "tools/mod.ts": _registry("read_file"),
    "tools/read_file.ts": _tool("read_file"),
    "tools/echo_note.ts": _tool("echo_note"),
  };
  const problems = violations(Object.keys(files), (f) => files[f]);
  assert.equal(problems.length, 1, problems.join("\n"));
  assert.match(problems[0], /tools\/echo_note\.ts is not registered: add `echo_note: \(\) =>/);
  // One registry line more and the same files pass.
  files["tools/mod.ts"] = _registry("read_file", "echo_note");
  assert.deepEqual(violations(Object.keys(files), (f) => files[f]), []);
});

Deno.test("structure check holds the registry to file names and the manifest to the registry", () => {
  const manifest = (...names: string[]) =>
    JSON.stringify({ tools: names.map((name) => ({ needs: [], listing: { name } })) });
  const files: Record<string, string> = {
    "tools/mod.ts": _registry("a", "b") + '  c: () => import("./other.ts"),\n',
    "tools/a.ts": _tool("a"),
    "tools/b.ts": _tool("not_b"),
    "tools/manifest.json": manifest("a"),
  };
  const read = (f: string) => {
    if (!(f in files)) throw new Deno.errors.NotFound(f);
    return files[f];
  };
  const problems = violations(Object.keys(files).filter((f) => f.endsWith(".ts")), read);
  assert.deepEqual(problems, [
    'tools/mod.ts registers "c" from ./other.ts: a tool\'s file is its name',
    'tools/b.ts does not define its tool as name: "b"',
    "tools/manifest.json does not list the registry's tools in order: run `deno task manifest`",
  ]);
});

Deno.test("structure check refuses an import up the layers, type-only included", () => {
  const files: Record<string, string> = {
    // primitives <- subsystems <- engine <- mcp <- tools <- main.ts
    "lib/text.ts": 'import type { Task } from "./tasks/mod.ts";\n',
    "lib/tasks/mod.ts": 'import { join } from "../deps.ts";\n',
    "lib/find/mod.ts": 'import { run } from "../implement/mod.ts";\n',
    // A folder the subsystem list does not name yet is a subsystem all the same.
    "lib/fresh/mod.ts": 'import { serve } from "../mcp/mod.ts";\n',
    "lib/implement/mod.ts": 'import { read } from "../tasks/mod.ts";\n',
    "lib/mcp/mod.ts": 'import { t } from "../../tools/find.ts";\n',
    "tools/mod.ts": 'import type { AnyTool } from "../lib/mcp/mod.ts";\n',
    "tests/x_test.ts": 'import "../main.ts";\n',
    "main.ts": 'import { TOOL_NAMES } from "./tools/mod.ts";\n',
  };
  const problems = violations(Object.keys(files), (f) => files[f], []);
  const where = ' (docs/ARCHITECTURE.md, "Layers")';
  assert.deepEqual(problems, [
    "lib/text.ts imports lib/tasks/mod.ts: the primitives layer must not import the subsystems " +
    `layer${where}`,
    "lib/find/mod.ts imports lib/implement/mod.ts: the subsystems layer must not import the " +
    `engine layer${where}`,
    `lib/fresh/mod.ts imports lib/mcp/mod.ts: the subsystems layer must not import the mcp layer${where}`,
    `lib/mcp/mod.ts imports tools/find.ts: the mcp layer must not import the tools layer${where}`,
  ]);
});

Deno.test("structure check allows a listed wrong arrow, and reports the listing once it is gone", () => {
  const wrong: Record<string, string> = {
    "lib/implement/run.ts": 'import type { ToolContext } from "../mcp/mod.ts";\n',
    "lib/mcp/mod.ts": "export type ToolContext = unknown;\n",
  };
  const arrow = "lib/implement/run.ts -> lib/mcp/mod.ts";
  assert.equal(violations(Object.keys(wrong), (f) => wrong[f], []).length, 1);
  assert.deepEqual(violations(Object.keys(wrong), (f) => wrong[f], [arrow]), []);
  const fixed: Record<string, string> = {
    ...wrong,
    "lib/implement/run.ts": "export const r = 1;\n",
  };
  assert.deepEqual(violations(Object.keys(fixed), (f) => fixed[f], [arrow]), [
    `layer exception "${arrow}" no longer happens: remove it from the list`,
  ]);
});

Deno.test("structure check reports an import of a module that does not exist, dynamic included", () => {
  const files: Record<string, string> = {
    "lib/eval/command.ts":
      'const p = await import("../process.ts");\nimport { a } from "./a.ts";\n',
    "lib/eval/a.ts": "export const a = 1;\n",
  };
  const problems = missingImports(Object.keys(files), (f) => files[f], (f) => f in files);
  assert.deepEqual(problems, ["lib/eval/command.ts imports lib/process.ts, which does not exist"]);
});

/** A function of exactly `lines` lines, as `head` opens it. */
function fn(head: string, lines: number): string {
  return `${head} {\n${"  x++;\n".repeat(lines - 2)}}\n`;
}

Deno.test("structure check fails a function of 101 lines in lib/ or tools/, not one of 100", async () => {
  const files: Record<string, string> = {
    "lib/a.ts": `/** doc */\n${fn("export function ok()", 100)}${fn("function tooLong()", 101)}`,
    "tools/b.ts": `export class Pool {\n${fn("  async #run()", 101)}}\n`,
    "lib/c.ts": `export const arrow = () =>${fn("", 101).slice(0, -1)};\n`,
    "lib/d.ts": `const o = { key: function ${fn("()", 100)}};\n`,
    "scripts/e.ts": fn("function outOfScope()", 150),
  };
  const problems = await longFunctions(Object.keys(files), (f) => files[f], []);
  assert.deepEqual(problems, [
    "lib/a.ts:102 tooLong is 101 lines (at most 100): split it into named steps",
    "tools/b.ts:2 Pool.#run is 101 lines (at most 100): split it into named steps",
    "lib/c.ts:1 arrow is 101 lines (at most 100): split it into named steps",
  ]);
});

Deno.test("structure check allows a listed long function, and reports the listing once it is short", async () => {
  const files: Record<string, string> = { "lib/a.ts": fn("function long()", 120) };
  const read = (f: string) => files[f];
  assert.deepEqual(await longFunctions(["lib/a.ts"], read, ["lib/a.ts long"]), []);
  files["lib/a.ts"] = fn("function long()", 60);
  assert.deepEqual(await longFunctions(["lib/a.ts"], read, ["lib/a.ts long"]), [
    'long function exception "lib/a.ts long" is not over the limit: remove it from the list',
  ]);
  // every function of lib/ and tools/ is short now: the list is empty
  assert.deepEqual(LONG_FUNCTION_EXCEPTIONS, []);
});

Deno.test("structure check fails while find's generated worker is older than any of its inputs", async () => {
  const root = new URL("../", import.meta.url);
  const real = (f: string) => Deno.readTextFileSync(new URL(f, root));
  assert.equal(await staleWorker(real), undefined, "the committed worker.gen.js is up to date");
  const inputs = workerInputs(real);
  // The entry, the modules it imports and theirs (the glob's), each one counted.
  for (const f of ["lib/find/worker.ts", "lib/find/scan.ts", "lib/glob/mod.ts"]) {
    assert.ok(inputs.includes(f), f);
    const edited = (g: string) => g === f ? `${real(g)}\n// edited\n` : real(g);
    assert.match(String(await staleWorker(edited)), /worker\.gen\.js is stale/);
  }
  const missing = (g: string) => g === WORKER_GEN ? Deno.readTextFileSync("/nonexistent") : real(g);
  assert.match(String(await staleWorker(missing)), /worker\.gen\.js is missing/);
});
