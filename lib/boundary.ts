/**
 * The one boundary between tools and the outside world.
 *
 * Every tool call passes through {@linkcode callTool}: arguments are validated against the tool's
 * schema, any thrown error becomes short JSON, and the result is shaped as MCP content with
 * `structuredContent`. No stack trace ever leaves this module.
 */
import { z } from "zod";
import { PathError } from "./paths.ts";
import { type AnyTool, type ContentBlock, RichResult, type ToolContext } from "./tool.ts";

/** The MCP `tools/call` result this server sends. */
export interface CallResult {
  [key: string]: unknown;
  content: ({ type: "text"; text: string } | ContentBlock)[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A failure the caller should see as `{"status":"error",...}`, optionally with extra fields. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly fields: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ToolError";
  }
}

const MAX_ERROR_CHARS = 600;

/** Shortens `text` to `max` characters, marking the cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 15)}… (${text.length - max + 15} more)`;
}

/** Shows a user-supplied value in a message without ever echoing a huge or multi-line string. */
export function quote(value: unknown, max = 80): string {
  const s = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);
}

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
      const input = (issue as { input?: unknown }).input;
      if (input === undefined) return `${at}: required ${issue.expected} is missing`;
      const got = input === null ? "null" : Array.isArray(input) ? "array" : typeof input;
      return `${at}: expected ${issue.expected}, got ${got}`;
    }
    case "too_big":
      return `${at}: too large (at most ${issue.maximum}${
        issue.origin === "string" ? " characters" : issue.origin === "array" ? " items" : ""
      })`;
    case "too_small":
      return `${at}: too small (at least ${issue.minimum}${
        issue.origin === "string" ? " characters" : issue.origin === "array" ? " items" : ""
      })`;
    default:
      return `${at}: ${issue.message}`;
  }
}

/** Turns a zod failure into one short sentence naming the fields and what is wrong with them. */
export function describeInvalid(error: z.ZodError, tool: AnyTool): string {
  const parts = error.issues.slice(0, 4).map((i) => _describeIssue(i, tool));
  if (error.issues.length > 4) parts.push(`and ${error.issues.length - 4} more problems`);
  return `invalid arguments: ${parts.join("; ")}`;
}

/** Turns any thrown value into a short message for the caller. */
export function describeError(err: unknown): string {
  if (err instanceof ToolError || err instanceof PathError) return err.message;
  if (err instanceof Deno.errors.NotFound) return `not found: ${_firstLine(err.message)}`;
  if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
    return `permission denied: ${_firstLine(err.message)}`;
  }
  if (err instanceof Error) {
    if (err.name === "AbortError") return "cancelled";
    return _firstLine(err.message) || err.name;
  }
  return String(err);
}

function _firstLine(text: string): string {
  return text.split("\n", 1)[0].trim();
}

function _ok(json: Record<string, unknown>, blocks: ContentBlock[] = []): CallResult {
  return {
    content: [{ type: "text", text: JSON.stringify(json) }, ...blocks],
    structuredContent: json,
  };
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
  const parsed = tool.input.strict().safeParse(raw);
  if (!parsed.success) return fail(describeInvalid(parsed.error, tool));
  try {
    const out = await tool.run(parsed.data, ctx);
    if (out instanceof RichResult) return _ok(out.json, out.blocks);
    if (out.status === "error") {
      return { ..._ok(out), isError: true };
    }
    return _ok(out);
  } catch (err) {
    if (ctx.signal.aborted) return fail("cancelled");
    return fail(describeError(err), err instanceof ToolError ? err.fields : {});
  }
}
