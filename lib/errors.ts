/**
 * The errors localexec's own code throws, and the small helpers every module uses to describe a
 * failure. Domain code imports its errors from here, never from the MCP layer: `lib/mcp/boundary.ts`
 * is the one place that turns them (and anything else thrown) into a JSON result.
 */

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

/** Why {@linkcode PathError} refused a path; tests and callers branch on this, not on text. */
export const PATH_REASONS = {
  /** The path, or the real path behind a link, lies outside the project root. */
  OUTSIDE_ROOT: "outside_root",
  /** Writing tools may not touch it (`.git/`, `.localexec/`). */
  PROTECTED: "protected",
  /** It changed between its check and its use (a folder or file swapped for a link, say). */
  CHANGED: "changed",
  /** Anything else: a NUL byte, a name too long, too many links, not a folder. */
  INVALID: "invalid",
} as const;

/** One of {@linkcode PATH_REASONS}. */
export type PathReason = typeof PATH_REASONS[keyof typeof PATH_REASONS];

/** A path refused by `lib/paths.ts`; its message is safe to show the caller. */
export class PathError extends Error {
  constructor(message: string, readonly reason: PathReason = PATH_REASONS.INVALID) {
    super(message);
    this.name = "PathError";
  }
}

/** A {@linkcode PathError} whose reason is `outside_root`. */
export class PathOutsideRootError extends PathError {
  constructor(message: string) {
    super(message, PATH_REASONS.OUTSIDE_ROOT);
    this.name = "PathOutsideRootError";
  }
}

/** A {@linkcode PathError} whose reason is `protected`. */
export class ProtectedPathError extends PathError {
  constructor(message: string) {
    super(message, PATH_REASONS.PROTECTED);
    this.name = "ProtectedPathError";
  }
}

/** The first line of `text`, trimmed. */
export function firstLine(text: string): string {
  return text.split("\n", 1)[0].trim();
}

/** The first line of a thrown value's message. */
export function errorLine(err: unknown): string {
  return firstLine(err instanceof Error ? err.message : String(err));
}

/** True for the errors Deno throws when a permission (or the OS) refuses an operation. */
export function isPermissionError(err: unknown): err is Error {
  return err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied;
}

/**
 * Shortens `text` to about `max` characters, marking the cut with how much was left out, or with
 * `note` when given (for example "(the log has the rest)").
 */
export function clip(text: string, max: number, note?: string): string {
  if (text.length <= max) return text;
  if (note !== undefined) return `${text.slice(0, max - note.length - 8).trimEnd()}… ${note}`;
  return `${text.slice(0, max - 15)}… (${text.length - max + 15} more)`;
}

/** Shows a user-supplied value in a message without ever echoing a huge or multi-line string. */
export function quote(value: unknown, max = 80): string {
  const s = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);
}
