/**
 * The JSON Schemas `tools/list` shows. Input schemas keep to what every function-calling API reads
 * (Gemini's OpenAPI 3.0 subset, OpenAI's function parameters, Codex's and the Inspector's own
 * readers): one `type` per property, never `anyOf`, no exclusive bounds. An optional argument that
 * also takes `null` is shown as its plain type; the boundary still accepts `null` (and a number
 * written as a string) at run time (`arguments.ts`). tests/mcp/schema_subset_test.ts holds every
 * input schema to that subset.
 */
import { z } from "zod";
import type { AnyTool, ToolEntry } from "./tool.ts";

type Json = Record<string, unknown>;

/**
 * `node` with `anyOf: [X, {type: "null"}]` folded into X, `type: [T, "null"]` into T, and
 * exclusive bounds made inclusive.
 */
function _plain(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(_plain);
  if (!node || typeof node !== "object") return node;
  let out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    out[key] = key === "properties"
      ? Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, _plain(v)]))
      : _plain(value);
  }
  const options = out.anyOf as Json[] | undefined;
  if (Array.isArray(options)) {
    const rest = options.filter((o) => o.type !== "null");
    if (rest.length === 1) {
      const { anyOf: _, ...own } = out;
      out = { ...rest[0], ...own };
    }
  }
  if (Array.isArray(out.type)) {
    const types = out.type.filter((t) => t !== "null");
    if (types.length === 1) out.type = types[0];
  }
  for (
    const [exclusive, inclusive] of [["exclusiveMinimum", "minimum"], [
      "exclusiveMaximum",
      "maximum",
    ]]
  ) {
    if (typeof out[exclusive] === "number") {
      // The boundary still refuses the bound itself.
      out[inclusive] ??= out[exclusive];
      delete out[exclusive];
    }
  }
  return out;
}

function _jsonSchema(schema: z.ZodObject, io: "input" | "output"): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest;
}

/** A tool's input schema as listed: strict (unknown arguments are refused) and plain. */
export function inputSchema(input: z.ZodObject): Json {
  return _plain(_jsonSchema(input.strict(), "input")) as Json;
}

/**
 * The fields the boundary may add to any tool's answer (`boundary.ts`: `errorResult`, and the
 * config's warnings a tool reported), declared in every output schema after the tool's own.
 */
const ERROR_SHAPE = {
  error: z.string().optional().describe("With status error: what went wrong, and the fix"),
  escalate: z.boolean().optional().describe(
    "With status error: false (implement_task's verdicts set it; other tools' errors keep the shape)",
  ),
  warnings: z.array(z.string()).optional().describe(
    "What the tool noticed on the way, for example a misspelt key of .localexec.json with the key it may mean",
  ),
};

/**
 * A tool's output schema as listed: every field the tool answers, the error fields included
 * (tests/tools/manifest_results_e2e_test.ts holds real answers to it); loose, so a client never
 * rejects a result for a field added later.
 */
export function outputSchema(output: z.ZodObject): Json {
  const own = output.shape as Record<string, z.ZodType>;
  const errors = Object.entries(ERROR_SHAPE).filter(([key]) => !(key in own));
  return _jsonSchema(z.looseObject({ ...own, ...Object.fromEntries(errors) }), "output");
}

/** Each tool's entry, made once: converting its schemas is most of a `tools/list`. */
const _described = new WeakMap<AnyTool, Record<string, unknown>>();

/** The `tools/list` entry of one tool (the same object on every call). */
export function describeTool(tool: AnyTool): Record<string, unknown> {
  let entry = _described.get(tool);
  if (!entry) _described.set(tool, entry = _describe(tool));
  return entry;
}

function _describe(tool: AnyTool): Record<string, unknown> {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    // Unknown arguments are refused (see lib/mcp/boundary.ts), and the schema says so.
    inputSchema: inputSchema(tool.input),
    outputSchema: outputSchema(tool.output),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/**
 * The entry of a tool already loaded (tests, and the generator of `tools/manifest.json`); a
 * server's entries come from the manifest instead (`toolEntries` in `tools/mod.ts`), without the modules.
 */
export function entryOf(tool: AnyTool): ToolEntry {
  return {
    name: tool.name,
    needs: tool.needs,
    readOnly: tool.annotations.readOnlyHint,
    describe: () => describeTool(tool),
    load: () => Promise.resolve(tool),
  };
}
