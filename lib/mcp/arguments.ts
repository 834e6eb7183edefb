/**
 * What the boundary does to a call's raw arguments before the strict schema check, so that the
 * ways real clients and models send them all work (docs/ARCHITECTURE.md, "Schemas"):
 *
 * - `null` for an argument that has a default or is optional means "use the default";
 * - a number sent as a numeric string (`"1"`, as some clients send every `--tool-arg`) is a number
 *   where the schema wants a number;
 * - a single string where the schema wants a list of strings (`files_to_edit: "calc/ops.py"`) is
 *   that one-element list (docs/DECISIONS.md);
 * - `path` is accepted for a tool's one path argument (`filename`, `directory`, `file_path`,
 *   `file`, `cwd`); naming a different path under both names is an error.
 */
import type { z } from "zod";
import { quote } from "../errors.ts";
import type { AnyTool } from "./tool.ts";

/** The names the tool references give a tool's one path argument. */
const PATH_NAMES = ["filename", "directory", "file_path", "file", "cwd"];

/** The alias every tool with one path argument also accepts. */
export const PATH_ALIAS = "path";

/** A decimal number written as text, as JSON would write it. */
const NUMERIC = /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** The argument `path` stands for in `tool`, if the tool takes exactly one path and no `path`. */
export function pathArgument(tool: AnyTool): string | undefined {
  const keys = Object.keys(tool.input.shape);
  if (keys.includes(PATH_ALIAS)) return undefined;
  const paths = keys.filter((k) => PATH_NAMES.includes(k));
  return paths.length === 1 ? paths[0] : undefined;
}

function _field(tool: AnyTool, key: string): z.ZodType | undefined {
  const shape = tool.input.shape as Record<string, z.ZodType>;
  return Object.hasOwn(shape, key) ? shape[key] : undefined;
}

/** `value` as a number when it is a numeric string the field refuses but would take as a number. */
function _number(field: z.ZodType, value: unknown): unknown {
  if (typeof value !== "string" || !NUMERIC.test(value) || field.safeParse(value).success) {
    return value;
  }
  const n = Number(value);
  const parsed = field.safeParse(n);
  // A number out of range (or a fraction for an integer) still becomes one, so the error says
  // "too small", not "got a string".
  const wantsNumber = parsed.success ||
    !parsed.error.issues.some((i) =>
      i.code === "invalid_type" && i.path.length === 0 && i.expected !== "number" &&
      i.expected !== "int"
    );
  return wantsNumber ? n : value;
}

/** `[value]` when `value` is a string the field refuses but would take as a one-element list. */
function _list(field: z.ZodType, value: unknown): unknown {
  if (typeof value !== "string" || field.safeParse(value).success) return value;
  return field.safeParse([value]).success ? [value] : value;
}

/**
 * `raw` made ready for the strict schema check, or the one-line error when `path` and the seed's
 * name for the same argument disagree.
 */
export function normalizeArguments(
  tool: AnyTool,
  raw: Record<string, unknown>,
): { args: Record<string, unknown> } | { error: string } {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = _field(tool, key);
    if (!field) {
      args[key] = value;
      continue;
    }
    if (value === null && !field.safeParse(null).success && field.safeParse(undefined).success) {
      continue;
    }
    args[key] = _list(field, _number(field, value));
  }
  const name = pathArgument(tool);
  if (name && Object.hasOwn(args, PATH_ALIAS)) {
    const alias = args[PATH_ALIAS];
    delete args[PATH_ALIAS];
    if (alias !== null && alias !== undefined) {
      if (Object.hasOwn(args, name) && args[name] !== alias) {
        return {
          error: `invalid arguments: "${PATH_ALIAS}" (${quote(alias)}) and "${name}" (${
            quote(args[name])
          }) name different paths; give ${name} only`,
        };
      }
      args[name] = alias;
    }
  }
  return { args };
}
