/**
 * The messages of an OpenAI-compatible server's failures, as {@linkcode ModelError}s: one
 * sentence with the base URL in it and the fix after a colon.
 *
 * Error bodies differ by server: `{"error":{"message",…}}` (OpenAI, llama-server, LM Studio,
 * LiteLLM, newer vLLM), `{"object":"error","message",…}` (older vLLM), `{"error":"…"}` (vLLM's
 * 401, Ollama). {@linkcode errorText} reads all of them.
 */
import { hostPort } from "../config.ts";
import { ModelError, snippet } from "../model/mod.ts";

/** Where the fix for a key lives: the variable named by `api_key_env`, if any. */
export interface KeyInfo {
  /** The name of the variable (`api_key_env`), when configured. */
  env?: string;
}

/** The message inside an error body, or undefined when `text` is not one. */
export function errorText(text: string): string | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  return bodyMessage(data);
}

/** The message of a parsed error object (also an `{"error": …}` event inside a stream). */
export function bodyMessage(data: unknown): string | undefined {
  if (!data || typeof data !== "object") return undefined;
  const d = data as Record<string, unknown>;
  const e = d.error;
  if (typeof e === "string") return e;
  if (e && typeof e === "object") {
    const m = (e as Record<string, unknown>).message;
    if (typeof m === "string") return m;
    if (m !== undefined) return JSON.stringify(m);
  }
  if (d.object === "error" && typeof d.message === "string") return d.message;
  if (typeof d.detail === "string") return d.detail;
  return undefined;
}

/** Nothing listens at `base`. */
export function unreachableError(base: string, cause?: unknown): ModelError {
  return new ModelError(
    "unreachable",
    `the model server is not reachable at ${base}: start it (llama-server, LM Studio, vLLM…), or fix base_url in .localexec.json`,
    { cause },
  );
}

/** Deno may not connect to `base`. */
export function notPermittedError(base: string, cause?: unknown): ModelError {
  let host = base;
  try {
    host = hostPort(base);
  } catch {
    // keep the URL as it is
  }
  return new ModelError(
    "unreachable",
    `localexec may not connect to the model server at ${base}: restart it with --allow-net=${host}`,
    { cause, hostDown: false },
  );
}

/** The variable `api_key_env` names is not set. */
export function keyUnsetError(env: string): ModelError {
  return new ModelError(
    "auth",
    `api_key_env names ${env}, which is not set for localexec: set it in the environment the MCP client starts localexec with`,
    { hostDown: false },
  );
}

/** The model is not among those the server serves. */
export function notServedError(base: string, model: string, served: readonly string[]): ModelError {
  const list = served.length
    ? `it serves ${served.slice(0, 8).map((m) => JSON.stringify(m)).join(", ")}${
      served.length > 8 ? ` and ${served.length - 8} more` : ""
    }: set "model" in .localexec.json to one of them`
    : "it serves no model yet: load one, or check base_url";
  return new ModelError("model_missing", `model "${model}" is not served at ${base}: ${list}`, {
    status: 404,
    hostDown: false,
  });
}

/** An answer that is not this API; `head` is the start of what came back. */
export function badResponseError(base: string, head: string, why = ""): ModelError {
  const shown = snippet(head, 80);
  return new ModelError(
    "bad_response",
    `the model server at ${base} answered with something that is not an OpenAI-compatible API${
      why ? ` (${why})` : ""
    }${shown ? `: ${JSON.stringify(shown)}` : ""}; check base_url (it usually ends in /v1)`,
    { hostDown: false },
  );
}

/** A stream that ended without `[DONE]` or a finish reason. */
export function cutShortError(base: string): ModelError {
  return new ModelError(
    "bad_response",
    `the model server at ${base} ended the answer before it was complete: it may have crashed or restarted (see its log)`,
    { hostDown: true },
  );
}

/** The connection broke after the answer began. */
export function brokeError(base: string, cause?: unknown): ModelError {
  return new ModelError(
    "unreachable",
    `the connection to the model server at ${base} broke during the answer: check that it is still running`,
    { cause },
  );
}

/** A non-2xx answer with body `text` to a request for `path` (e.g. `/chat/completions`). */
export function statusError(
  base: string,
  o: { status: number; text: string; path: string; model?: string; key: KeyInfo },
): ModelError {
  const { status } = o;
  const said = errorText(o.text);
  const detail = said === undefined ? "" : `: ${snippet(said, 200)}`;
  if (status === 401 || status === 403) {
    return new ModelError(
      "auth",
      o.key.env
        ? `the model server at ${base} refused the API key in ${o.key.env} (HTTP ${status}${detail}): check the key`
        : `the model server at ${base} wants an API key (HTTP ${status}${detail}): set api_key_env in .localexec.json to the name of the variable that holds it`,
      { status, hostDown: false },
    );
  }
  if (said === undefined) {
    if (status === 404) {
      return new ModelError(
        "bad_response",
        `${base} has no ${o.path} (HTTP 404): check base_url (it usually ends in /v1)`,
        { status, hostDown: false },
      );
    }
    if (status >= 500) {
      return new ModelError(
        "http",
        `the model server at ${base} failed (HTTP ${status}): ${
          snippet(o.text, 120) || "no details"
        }`,
        { status },
      );
    }
    return badResponseError(base, o.text, `HTTP ${status}`);
  }
  if (status === 404 && o.model && /model|not found|does not exist/i.test(said)) {
    return new ModelError(
      "model_missing",
      `model "${o.model}" is not served at ${base} (HTTP 404${detail}): see its /v1/models, and set "model" in .localexec.json to one of them`,
      { status, hostDown: false },
    );
  }
  if (status === 503 && /loading/i.test(said)) {
    return new ModelError(
      "http",
      `the model server at ${base} is still loading the model (HTTP 503): wait until it is ready, then retry`,
      { status },
    );
  }
  if (status === 400 && /context|too long|maximum.*length/i.test(said)) {
    return new ModelError(
      "http",
      `the prompt is too long for the context of the model server at ${base} (HTTP 400${detail}): split the task, or start the server with a larger context`,
      { status, hostDown: false },
    );
  }
  return new ModelError("http", `the model server at ${base} failed (HTTP ${status}${detail})`, {
    status,
  });
}

/** An error thrown by `fetch` itself (no response). */
export function fetchError(base: string, err: unknown): ModelError {
  if (err instanceof ModelError) return err;
  if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
    return notPermittedError(base, err);
  }
  return unreachableError(base, err);
}
