/**
 * {@linkcode OllamaError}: every way a call to Ollama can fail, as a `kind` plus a short message
 * that says what to do about it.
 *
 * The messages are written for the person (or model) reading a tool result: one sentence, the
 * host in it, the fix after a colon, no stack trace and no final period.
 */
import { isPermissionError } from "../errors.ts";
import { hostPort } from "../config.ts";
import { ModelError, type ModelErrorKind, snippet } from "../model/mod.ts";

/** What went wrong, coarsely enough for a caller to decide what to do next (no `auth`). */
export type OllamaErrorKind = Exclude<ModelErrorKind, "auth">;

/** A failed call to Ollama; `message` is short and names the fix. */
export class OllamaError extends ModelError {
  declare readonly kind: OllamaErrorKind;

  constructor(
    kind: OllamaErrorKind,
    message: string,
    options: { status?: number; cause?: unknown; hostDown?: boolean } = {},
  ) {
    super(kind, message, options);
    this.name = "OllamaError";
  }
}

export { snippet };

/** The error for a host where nothing answers. */
function unreachableError(baseUrl: string, cause?: unknown): OllamaError {
  return new OllamaError(
    "unreachable",
    `Ollama is not reachable at ${baseUrl}: start \`ollama serve\`, or set ollama_host in .localexec.json`,
    { cause },
  );
}

/** The error for a host Deno's permissions do not let this process reach. */
function notPermittedError(baseUrl: string, cause?: unknown): OllamaError {
  const host = _safeHostPort(baseUrl);
  return new OllamaError(
    "unreachable",
    `localexec may not connect to Ollama at ${baseUrl}: restart it with --allow-net=${host}`,
    { cause, hostDown: false },
  );
}

/** The error for a model Ollama does not have. */
function modelMissingError(model: string): OllamaError {
  return new OllamaError(
    "model_missing",
    `model "${model}" is not installed: run \`ollama pull ${model}\` (see \`ollama list\`)`,
    { status: 404 },
  );
}

/** The error for an answer that is not Ollama's API; `head` is the start of what came back. */
export function badResponseError(baseUrl: string, head: string, why = ""): OllamaError {
  const shown = snippet(head, 80);
  return new OllamaError(
    "bad_response",
    `Ollama at ${baseUrl} answered with something that is not Ollama's API${
      why ? ` (${why})` : ""
    }${shown ? `: ${JSON.stringify(shown)}` : ""}; check ollama_host`,
  );
}

/**
 * The error for a non-2xx answer with body `text`. Ollama's `{"error": "..."}` bodies keep their
 * wording; a 404 that says "not found" for `model` becomes `model_missing`; anything that is not
 * Ollama's JSON is `bad_response`.
 */
export function statusError(
  baseUrl: string,
  status: number,
  text: string,
  model?: string,
): OllamaError {
  let message: string | undefined;
  try {
    const data = JSON.parse(text);
    if (data && typeof data === "object" && typeof data.error === "string") message = data.error;
  } catch {
    // not JSON: handled below
  }
  if (message === undefined) {
    return badResponseError(baseUrl, text, `HTTP ${status}`);
  }
  if (status === 404 && /not found/i.test(message)) {
    if (model) return modelMissingError(model);
  }
  return new OllamaError("http", `Ollama failed (HTTP ${status}): ${snippet(message, 300)}`, {
    status,
  });
}

/** Maps an error thrown by `fetch` itself (no response) to an {@linkcode OllamaError}. */
export function fetchError(baseUrl: string, err: unknown): OllamaError {
  if (err instanceof OllamaError) return err;
  if (isPermissionError(err)) {
    return notPermittedError(baseUrl, err);
  }
  return unreachableError(baseUrl, err);
}

/** Maps an error thrown while reading the body (after headers) to an {@linkcode OllamaError}. */
export function bodyError(baseUrl: string, err: unknown): OllamaError {
  if (err instanceof OllamaError) return err;
  return new OllamaError(
    "unreachable",
    `the connection to Ollama at ${baseUrl} broke during the answer: check that \`ollama serve\` is still running`,
    { cause: err },
  );
}

function _safeHostPort(baseUrl: string): string {
  try {
    return hostPort(baseUrl);
  } catch {
    return baseUrl;
  }
}
