/**
 * Every tool's input schema keeps to the JSON Schema that Gemini and OpenAI function calling read:
 *
 * - Gemini: function `parameters` are "a select subset of an OpenAPI 3.0 schema object": one
 *   `type` (string, number, integer, boolean, array, object), format, title, description,
 *   nullable, enum (strings), items, min/maxItems, properties, required, min/maximum,
 *   min/maxLength, pattern, default; no type arrays, `$ref`, oneOf, allOf, not, const
 *   (cloud.google.com/vertex-ai/docs/reference/rest/v1/Schema; ai.google.dev function calling).
 *   Older Gemini CLIs skip a tool whose property has `anyOf` and no `type`.
 * - OpenAI: `parameters` is a JSON Schema object with an object root (never `anyOf` at the root);
 *   Structured Outputs' subset names string pattern/format, number minimum/maximum/multipleOf,
 *   array minItems/maxItems; allOf, not, if/then/else, dependent* are unsupported
 *   (platform.openai.com/docs/guides/structured-outputs#supported-schemas); at most 5 levels of
 *   nesting and 100 properties in strict mode.
 *
 * The intersection is checked here, plus the names both accept. `additionalProperties: false` is
 * kept (the boundary refuses unknown arguments and the schema says so): OpenAI's strict mode
 * requires it, and Gemini reads it in `parametersJsonSchema` (what gemini-cli sends) and in newer
 * API versions' Schema.
 */
import assert from "node:assert/strict";
import { describeTool } from "../../lib/mcp/mod.ts";
import { loadTools } from "../../tools/mod.ts";

const TYPES = new Set(["string", "number", "integer", "boolean", "array", "object"]);
const KEYWORDS = new Set([
  "type",
  "description",
  "title",
  "default",
  "enum",
  "format",
  "items",
  "properties",
  "required",
  "additionalProperties",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "pattern",
]);
/** Names Gemini accepts for functions and parameters (OpenAI's are a superset). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Every way `schema` (at `at`) leaves the common subset. */
export function subsetProblems(schema: unknown, at = "", depth = 0): string[] {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) {
    return [`${at || "root"}: not a schema object`];
  }
  const node = schema as Record<string, unknown>;
  const out: string[] = [];
  const where = at || "root";
  for (const key of Object.keys(node)) {
    if (!KEYWORDS.has(key)) out.push(`${where}: keyword "${key}" is outside the subset`);
  }
  if (typeof node.type !== "string" || !TYPES.has(node.type)) {
    out.push(`${where}: needs exactly one type, has ${JSON.stringify(node.type)}`);
  }
  if (node.enum !== undefined && !(node.enum as unknown[]).every((v) => typeof v === "string")) {
    out.push(`${where}: enum values must be strings`);
  }
  if (node.additionalProperties !== undefined && typeof node.additionalProperties !== "boolean") {
    out.push(`${where}: additionalProperties must be true or false`);
  }
  if (node.type === "array") {
    if (!node.items) out.push(`${where}: an array needs items`);
    else out.push(...subsetProblems(node.items, `${where}[]`, depth + 1));
  }
  if (node.type === "object") {
    if (depth >= 5) out.push(`${where}: nested deeper than 5 levels`);
    const props = (node.properties ?? {}) as Record<string, unknown>;
    for (const [name, sub] of Object.entries(props)) {
      if (!NAME.test(name)) out.push(`${where}: property name ${JSON.stringify(name)}`);
      out.push(...subsetProblems(sub, at ? `${at}.${name}` : name, depth + 1));
    }
    for (const name of (node.required ?? []) as string[]) {
      if (!(name in props)) out.push(`${where}: required "${name}" is not a property`);
    }
  }
  return out;
}

Deno.test("every input schema keeps to the Gemini and OpenAI function-calling subset", async () => {
  const problems: string[] = [];
  for (const tool of await loadTools()) {
    const listed = describeTool(tool);
    if (!NAME.test(tool.name)) problems.push(`${tool.name}: tool name`);
    const schema = listed.inputSchema as Record<string, unknown>;
    if (schema.type !== "object") problems.push(`${tool.name}: the root is not an object`);
    problems.push(...subsetProblems(schema).map((p) => `${tool.name}: ${p}`));
    if (Object.keys(schema.properties as object).length > 100) {
      problems.push(`${tool.name}: over 100 properties`);
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("the subset check catches what Gemini and OpenAI refuse", () => {
  const bad = {
    type: "object",
    properties: {
      a: { anyOf: [{ type: "integer" }, { type: "null" }] },
      b: { type: ["string", "null"] },
      c: { type: "number", exclusiveMinimum: 0 },
      d: { type: "array" },
    },
  };
  const found = subsetProblems(bad).join("\n");
  assert.match(found, /a: keyword "anyOf"/);
  assert.match(found, /a: needs exactly one type/);
  assert.match(found, /b: needs exactly one type/);
  assert.match(found, /c: keyword "exclusiveMinimum"/);
  assert.match(found, /d: an array needs items/);
});
