/**
 * docs/reference agrees with what the tools list: result-fields.txt is generated from the output
 * schemas (`deno task manifest`), the tool reference counts and names every tool, every parameter
 * the references name (the seeded interface) is in its tool's input schema, every result type the
 * host tools' reference names is one result-fields.txt describes, and every JSON example in the
 * references holds strictly to its tool's output schema.
 */
import assert from "node:assert/strict";
import { describeTool } from "../../lib/mcp/mod.ts";
import { resultsText } from "../../scripts/manifest.ts";
import { RESULT_FIELDS, resultTypeName } from "../../scripts/result_fields.ts";
import { loadTools, TOOL_NAMES } from "../../tools/mod.ts";
import { strictProblems } from "../helpers/strict_schema.ts";

type Json = Record<string, unknown>;

const DIR = new URL("../../docs/reference/", import.meta.url);
const LOCAL = await Deno.readTextFile(new URL("localexec-tool-reference.txt", DIR));
const HOST = await Deno.readTextFile(new URL("host-tools-reference.txt", DIR));
const LISTED = new Map(
  (await loadTools()).map((t) => [t.name, describeTool(t) as Json & { inputSchema: Json }]),
);

/** The properties of tool `name`'s input or output schema. */
function props(name: string, which: "inputSchema" | "outputSchema"): string[] {
  const schema = LISTED.get(name)?.[which] as Json | undefined;
  assert.ok(schema, `no tool ${name}`);
  return Object.keys((schema.properties ?? {}) as Json);
}

/** The reference's lines, each with the tool whose section it is in (a line naming a tool alone). */
function sections(text: string): { tool: string; line: string }[] {
  let tool = "";
  return text.split("\n").map((line) => {
    if (TOOL_NAMES.includes(line.trim())) tool = line.trim();
    // `find(pattern, …) returns` and `implement_task takes two more parameters:` start one too.
    const call = line.match(/^([a-z_]+)(\(| takes )/);
    if (call && TOOL_NAMES.includes(call[1])) tool = call[1];
    return { tool, line };
  });
}

/** The top-level parameter names of a Python-like signature `a: T = x, b=1`. */
function paramNames(signature: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let part = "";
  for (const c of signature + ",") {
    if ("[(".includes(c)) depth++;
    if ("])".includes(c)) depth--;
    if (c === "," && depth === 0) {
      const name = part.trim().match(/^[a-z_]+/)?.[0];
      if (name) names.push(name);
      part = "";
    } else part += c;
  }
  return names;
}

Deno.test("result-fields.txt is what the output schemas produce now (else run `deno task manifest`)", async () => {
  const stored = await Deno.readTextFile(RESULT_FIELDS);
  assert.ok(
    stored === await resultsText(),
    "result-fields.txt is out of date: run `deno task manifest`",
  );
  for (const name of TOOL_NAMES) {
    assert.match(stored, new RegExp(`^${name} -> ${resultTypeName(name)}$`, "m"));
  }
});

Deno.test("the tool reference counts and names every tool", () => {
  const count = Number(LOCAL.match(/localexec exposes (\d+) tools/)?.[1]);
  assert.equal(count, TOOL_NAMES.length);
  for (const name of TOOL_NAMES) {
    const named = sections(LOCAL).some((s) => s.tool === name) ||
      HOST.includes(`axio_tools_local.${name}.${name}(`);
    assert.ok(named, `${name} has no section in docs/reference`);
  }
});

Deno.test("every parameter the references name is in its tool's input schema", () => {
  const seen: string[] = [];
  for (const { tool, line } of sections(LOCAL)) {
    const row = line.match(/^([a-z_]+) \| .* \|/);
    const call = line.match(/^([a-z_]+)\((.*?)\) [a-z]+ /);
    const names = row && !line.startsWith("|") ? [row[1]] : call ? paramNames(call[2]) : [];
    for (const name of names) {
      assert.ok(props(tool, "inputSchema").includes(name), `${tool}: ${name}`);
      seen.push(`${tool}.${name}`);
    }
  }
  for (const m of HOST.matchAll(/axio_tools_local\.([a-z_]+)\.[a-z_]+\((.*)\) → (\w+)/g)) {
    const [, tool, signature] = m;
    for (const name of paramNames(signature)) {
      assert.ok(props(tool, "inputSchema").includes(name), `${tool}: ${name}`);
      seen.push(`${tool}.${name}`);
    }
  }
  // The parse found the tables and signatures (a test that reads nothing passes nothing).
  for (
    const p of [
      "implement_task.files_to_edit",
      "find.ignore_case",
      "shell.stdin",
      "read_file.line_numbers",
    ]
  ) {
    assert.ok(seen.includes(p), p);
  }
});

Deno.test("the host tools' reference names each tool's result type, never str", () => {
  const types = [...HOST.matchAll(/axio_tools_local\.([a-z_]+)\.[a-z_]+\(.*\) → (\w+)/g)];
  assert.equal(types.length, 6);
  for (const [, tool, type] of types) assert.equal(type, resultTypeName(tool), tool);
});

Deno.test("every JSON example in the references holds to its tool's output schema", () => {
  let checked = 0;
  for (const { tool, line } of sections(LOCAL)) {
    for (const m of line.matchAll(/\{"status":.*?\}(?=[A-Z ]|$)/g)) {
      let example: Json;
      try {
        example = JSON.parse(m[0]);
      } catch {
        continue; // a sketch, not JSON
      }
      const schema = LISTED.get(tool)!.outputSchema as Json;
      assert.deepEqual(strictProblems(schema, example), [], `${tool}: ${m[0]}`);
      checked++;
    }
  }
  assert.ok(checked >= 4, `${checked} examples`);
});

Deno.test("strictProblems names an undeclared field, nested ones included", () => {
  const schema = {
    type: "object",
    properties: {
      status: { type: "string" },
      list: { type: "array", items: { type: "object", properties: { a: { type: "number" } } } },
      map: { type: "object", additionalProperties: { type: "number" } },
    },
    required: ["status"],
    additionalProperties: {},
  };
  assert.deepEqual(strictProblems(schema, { status: "ok", list: [{ a: 1 }], map: { x: 1 } }), []);
  assert.deepEqual(strictProblems(schema, { status: "ok", more: 1, list: [{ a: 1, b: 2 }] }), [
    "$.more: not declared",
    "$.list[0].b: not declared",
  ]);
  assert.deepEqual(strictProblems(schema, { status: 1, map: { x: "y" } }), [
    "$.status: integer, declared string",
    "$.map.x: string, declared number",
  ]);
});
