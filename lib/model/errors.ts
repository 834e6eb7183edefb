/**
 * {@linkcode ModelError}: every way a call to a model server can fail, as a `kind` plus a short
 * message that says what to do about it. Each backend words its own messages (one sentence, the
 * host in it, the fix after a colon, no final period); the kinds are shared.
 */

/** What went wrong, coarsely enough for a caller to decide what to do next. */
export type ModelErrorKind =
  /** Nothing listens at the host, DNS failed, the connection broke, or Deno may not connect. */
  | "unreachable"
  /** The server does not have or serve the model. */
  | "model_missing"
  /** The server wants an API key, refused the one given, or the key's variable is not set. */
  | "auth"
  /** The server answered with an error status or an error inside the stream. */
  | "http"
  /** The answer is not the expected API: HTML, broken JSON, a stream cut short. */
  | "bad_response"
  /** No headers, no chunk for too long, or the whole call took too long. */
  | "timeout"
  /** The caller's AbortSignal fired. */
  | "cancelled";

/** A failed call to a model server; `message` is short and names the fix. */
export class ModelError extends Error {
  readonly kind: ModelErrorKind;
  /** HTTP status when the server answered with one. */
  readonly status?: number;
  /**
   * True when the host itself went away or broke (refused, reset, 5xx, a stream cut short): the
   * same request may succeed on another host.
   */
  readonly hostDown: boolean;

  constructor(
    kind: ModelErrorKind,
    message: string,
    options: { status?: number; cause?: unknown; hostDown?: boolean } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ModelError";
    this.kind = kind;
    this.status = options.status;
    this.hostDown = options.hostDown ??
      (kind === "unreachable" || (kind === "http" && (options.status ?? 0) >= 500));
  }
}

/** The first `max` characters of `text` on one line, for showing a server's words safely. */
export function snippet(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
