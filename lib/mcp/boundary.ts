/**
 * The one boundary between tools and the outside world.
 *
 * Every tool call passes through {@linkcode callTool}: arguments are normalised (`arguments.ts`:
 * null, numeric strings, the `path` alias) and validated against the tool's schema, any thrown
 * error becomes short JSON, and the result is shaped as MCP content with `structuredContent`. No stack trace ever leaves this module.
 */
import { z } from "zod";
import { utf8Length } from "../output.ts";
import { clip, firstLine, isPermissionError, PathError, quote, ToolError } from "../errors.ts";
import { normalizeArguments } from "./arguments.ts";
import { jsonPieces } from "./json_pieces.ts";
import { type AnyTool, type ContentBlock, RichResult, type ToolContext } from "./tool.ts";

/**
 * Where a result, and its text content, keep the JSON text of its `structuredContent` in pieces
 * (`json_pieces.ts`), made once: the transport writes them in place of serializing the object a
 * second time, and in place of the text content (`transport.ts`); the text content's `text` is
 * them joined, made only when something reads it.
 */
export const JSON_PIECES: unique symbol = Symbol("structuredContent's JSON text in pieces");

/** The MCP `tools/call` result this server sends. */
export interface CallResult {
  [key: string]: unknown;
  content: ({ type: "text"; text: string } | ContentBlock)[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [JSON_PIECES]?: readonly string[];
}

const MAX_ERROR_CHARS = 600;

/** The JSON error result, as every tool returns it. */
export function errorResult(message: string, fields: Record<string, unknown> = {}): CallResult {
  const json = {
    status: "error",
    error: clip(message, MAX_ERROR_CHARS),
    escalate: false,
    ...fields,
  };
  return {
    content: [{ type: "text", text: JSON.stringify(json) }],
    structuredContent: json,
    isError: true,
  };
}

const EXPECTED: Record<string, string> = {
  int: "an integer",
  number: "a number",
  string: "a string",
  boolean: "true or false",
  object: "an object",
  array: "an array",
};

function _got(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "an array";
  if (typeof input === "number") return String(input);
  if (typeof input === "string") return `a string (${quote(input, 20)})`;
  return typeof input === "boolean" ? String(input) : typeof input;
}

function _describeIssue(issue: z.core.$ZodIssue, tool: AnyTool): string {
  const at = issue.path.length ? issue.path.join(".") : "arguments";
  switch (issue.code) {
    case "unrecognized_keys": {
      const known = Object.keys(tool.input.shape).join(", ");
      return `unknown argument${issue.keys.length > 1 ? "s" : ""} ${
        issue.keys.map((k) => quote(k, 40)).join(", ")
      } (${tool.name} takes: ${known})`;
    }
    case "invalid_type": {
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      if (!("input" in issue) || issue.input === undefined) return `${at}: required, missing`;
      return `${at}: expected ${expected}, got ${_got(issue.input)}`;
    }
    case "too_big": {
      const unit = issue.origin === "string"
        ? " characters"
        : issue.origin === "array"
        ? " items"
        : "";
      return `${at}: too large (at most ${issue.maximum}${unit})`;
    }
    case "too_small": {
      const unit = issue.origin === "string"
        ? " characters"
        : issue.origin === "array"
        ? " items"
        : "";
      return issue.inclusive === false
        ? `${at}: must be greater than ${issue.minimum}${unit}`
        : `${at}: too small (at least ${issue.minimum}${unit})`;
    }
    default:
      return `${at}: ${issue.message}`;
  }
}

function _tighter(a: z.core.$ZodIssue, b: z.core.$ZodIssue): boolean {
  if (a.code === "too_big" && b.code === "too_big") return Number(a.maximum) < Number(b.maximum);
  if (a.code === "too_small" && b.code === "too_small") {
    return Number(a.minimum) > Number(b.minimum);
  }
  return false;
}

/** Turns a zod failure into one short sentence naming the fields and what is wrong with them. */
function describeInvalid(error: z.ZodError, tool: AnyTool): string {
  // One message per field and problem: a number over both its own maximum and the safe-integer
  // limit is told the tighter bound only.
  const byKey = new Map<string, z.core.$ZodIssue>();
  for (const issue of error.issues) {
    const key = `${issue.path.join(".")}\0${issue.code}`;
    const before = byKey.get(key);
    if (!before || _tighter(issue, before)) byKey.set(key, issue);
  }
  const issues = [...byKey.values()];
  const parts = issues.slice(0, 4).map((i) => _describeIssue(i, tool));
  const more = issues.length - 4;
  if (more > 0) parts.push(`and ${more} more problem${more > 1 ? "s" : ""}`);
  return `invalid arguments: ${parts.join("; ")}`;
}

/** Turns any thrown value into a short message for the caller. */
function describeError(err: unknown): string {
  if (err instanceof ToolError || err instanceof PathError) return err.message;
  if (err instanceof Deno.errors.NotFound) return `not found: ${firstLine(err.message)}`;
  if (isPermissionError(err)) {
    return `permission denied: ${firstLine(err.message)}`;
  }
  if (err instanceof Error) {
    if (err.name === "AbortError") return "cancelled";
    return firstLine(err.message) || err.name;
  }
  return String(err);
}

/**
 * `message` with the absolute paths an OS error names (`lstat '/root/a/b'`) made relative to
 * `root`; paths outside the root are not shown at all.
 */
export function scrubPaths(message: string, root: string): string {
  return message.replace(/(['"])(\/[^'"]*)\1/g, (_, _q: string, abs: string) => {
    if (abs === root) return '"."';
    if (abs.startsWith(root + "/")) return JSON.stringify(abs.slice(root.length + 1));
    return "(a path outside the project)";
  });
}

/**
 * Largest result sent, in bytes of JSON. The SDK's stdio client drops the whole connection on a
 * message over 10 MiB; a result that would be larger is refused instead.
 */
export const MAX_RESULT_BYTES = 9.5 * 1024 * 1024;

/** A text content block whose text is `pieces` joined, made when first read. */
function _lazyText(pieces: readonly string[]): { type: "text"; text: string } {
  let text: string | undefined;
  return {
    type: "text",
    get text(): string {
      return text ??= pieces.join("");
    },
    [JSON_PIECES]: pieces,
  } as { type: "text"; text: string };
}

function _ok(json: Record<string, unknown>, blocks: ContentBlock[] = []): CallResult {
  const pieces = jsonPieces(json);
  const result: CallResult = {
    content: [_lazyText(pieces), ...blocks],
    structuredContent: json,
    [JSON_PIECES]: pieces,
  };
  const jsonLength = pieces.reduce((n, piece) => n + piece.length, 0);
  // The message holds the JSON twice (as `structuredContent`, and as the text, where escaping at
  // most doubles it) and the blocks; at most 3 UTF-8 bytes per UTF-16 unit. Most results are far
  // under the limit by that bound and are not serialized a second time only to be measured (a
  // 1,913-line outline spent milliseconds of the main thread on it).
  const blockUnits = blocks.length ? JSON.stringify(blocks).length : 0;
  if ((3 * jsonLength + blockUnits + 128) * 3 <= MAX_RESULT_BYTES) return result;
  const size = utf8Length(JSON.stringify(result));
  if (size <= MAX_RESULT_BYTES) return result;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return errorResult(
    `the result would be ${mb(size)}, over the ${mb(MAX_RESULT_BYTES)} one MCP message may ` +
      "carry; ask for less (a smaller range, max_chars or file)",
  );
}

/**
 * Runs `tool` on raw, untrusted `args` and always returns an MCP result; never throws.
 */
export async function callTool(
  tool: AnyTool,
  args: unknown,
  ctx: ToolContext,
): Promise<CallResult> {
  const fail = (message: string, fields: Record<string, unknown> = {}) =>
    errorResult(message, { ...tool.errorFields?.(message), ...fields });
  const raw = args ?? {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return fail(
      `invalid arguments: expected a JSON object, got ${Array.isArray(raw) ? "array" : typeof raw}`,
    );
  }
  const normal = normalizeArguments(tool, raw as Record<string, unknown>);
  if ("error" in normal) return fail(normal.error);
  const parsed = tool.input.strict().safeParse(normal.args, { reportInput: true });
  if (!parsed.success) return fail(describeInvalid(parsed.error, tool));
  const warned: string[] = [];
  const own: ToolContext = { ...ctx, warn: (text) => void warned.push(text) };
  try {
    const out = _warned(await tool.run(parsed.data, own), warned);
    if (out instanceof RichResult) return _ok(out.json, out.blocks);
    const result = _ok(out);
    return out.status === "error" ? { ...result, isError: true } : result;
  } catch (err) {
    const json = _warned(thrownJson(tool, err, ctx), warned);
    return {
      content: [{ type: "text", text: JSON.stringify(json) }],
      structuredContent: json,
      isError: true,
    };
  }
}

/** `out` with the call's warnings first in its `warnings` (once each), when there are any. */
function _warned<T extends Record<string, unknown> | RichResult>(out: T, warned: string[]): T {
  if (!warned.length) return out;
  if (out instanceof RichResult) {
    return new RichResult(_warned(out.json, warned), out.blocks) as T;
  }
  const before = Array.isArray(out.warnings) ? out.warnings : [];
  return { ...out, warnings: [...new Set([...warned, ...before])] };
}

/**
 * The JSON error result `callTool` answers when `tool`'s handler throws `err`: what a task run
 * in the background (`running.ts`) keeps, so that its result is the synchronous call's.
 */
export function thrownJson(
  tool: AnyTool,
  err: unknown,
  ctx: { root: string; signal: AbortSignal },
): Record<string, unknown> {
  const fail = (message: string, fields: Record<string, unknown> = {}) =>
    errorResult(message, { ...tool.errorFields?.(message), ...fields }).structuredContent!;
  if (ctx.signal.aborted) return fail("cancelled");
  const known = err instanceof ToolError || err instanceof PathError;
  const message = known ? describeError(err) : scrubPaths(describeError(err), ctx.root);
  return fail(message, err instanceof ToolError ? err.fields : {});
}
