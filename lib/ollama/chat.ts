/**
 * One streamed `/api/chat` call through `npm:ollama`, guarded by {@linkcode guardCall}.
 *
 * The reply is collected as it streams; `onChunk` lets the caller send progress. The final chunk's
 * statistics (token counts, durations in nanoseconds) come back in seconds. `done_reason: "length"`
 * is returned, not thrown: the caller decides how to report a reply that was cut off.
 */
import type { Ollama } from "ollama";
import {
  type ChatMessage,
  type ChatProgress,
  type ChatTimeouts,
  notifyChunk,
  startProgress,
  tokenCount,
} from "../model/mod.ts";
import { OllamaError } from "./errors.ts";
import { guardCall } from "./transport.ts";

export type { ChatMessage, ChatProgress };

/** Model options sent with the request (Ollama's Modelfile parameters). */
export interface ChatModelOptions {
  /** Context window to run the model with; keep it stable between calls to avoid a reload. */
  num_ctx?: number;
  temperature?: number;
  /** Most tokens to generate; bounds a model that loops. Reaching it gives `doneReason: "length"`. */
  num_predict?: number;
  [key: string]: unknown;
}

/** A chat request. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  options?: ChatModelOptions;
  /** How long Ollama keeps the model loaded afterwards: seconds, or a duration like `"30m"`. */
  keep_alive?: string | number;
  /** For thinking models: whether to think first (Ollama's default is to think). */
  think?: boolean;
  /** Cancels the call; it then fails with kind `cancelled` at once. */
  signal?: AbortSignal;
  /** Called for each streamed chunk that carries text; exceptions from it are ignored. */
  onChunk?: (progress: ChatProgress) => void;
}

/** The collected reply and Ollama's statistics for it. */
export interface ChatResult {
  content: string;
  /** What a thinking model thought before answering (empty otherwise). */
  thinking: string;
  /**
   * Why generation stopped: `"stop"` (finished), `"length"` (hit `num_predict` or the context:
   * the reply was cut off), `"load"`/`"unload"` (no messages), or `""` when Ollama did not say.
   */
  doneReason: string;
  /** Prompt tokens Ollama read; 0 when it did not say (older versions omit it for cached prompts). */
  promptEvalCount: number;
  /** Reply tokens generated. */
  evalCount: number;
  /** Ollama's own timings, in seconds. */
  totalSecs: number;
  loadSecs: number;
  promptEvalSecs: number;
  evalSecs: number;
  /** Seconds this call took as measured here. */
  wallSecs: number;
  chunks: number;
}

/**
 * `npm:ollama`'s client class, loaded on the first call to an Ollama server rather than on import:
 * the provider table, which every command that reads the configuration loads, imports this folder.
 */
export async function loadOllama(): Promise<typeof Ollama> {
  return (await import("ollama")).Ollama;
}

/** Streams one chat from Ollama at `baseUrl`; throws {@linkcode OllamaError} on failure. */
export async function streamChat(
  baseUrl: string,
  req: ChatRequest,
  t: ChatTimeouts,
): Promise<ChatResult> {
  const started = performance.now();
  const guard = guardCall({
    baseUrl,
    signal: req.signal,
    headersMs: Math.min(t.firstChunkS, t.requestS) * 1000,
    idleMs: t.idleS * 1000,
    totalMs: t.requestS * 1000,
    model: req.model,
    shape: "ndjson",
    timeoutMessages: {
      headers:
        `the model sent nothing for ${t.firstChunkS} s (loading it and reading the prompt): check \`ollama ps\`, raise first_token_timeout_s in .localexec.json for a model that loads slowly, or try a smaller task`,
      idle:
        `Ollama stopped sending for ${t.idleS} s in the middle of the reply: check \`ollama ps\` and Ollama's log`,
      total:
        `the model did not finish within ${t.requestS} s: raise request_timeout_s in .localexec.json, or try a smaller task`,
    },
  });
  const progress = startProgress();
  let content = "";
  let thinking = "";
  try {
    const ollama = new (await loadOllama())({ host: baseUrl, fetch: guard.fetch });
    const stream = await ollama.chat({
      model: req.model,
      messages: req.messages,
      options: req.options as Record<string, never>,
      keep_alive: req.keep_alive,
      think: req.think,
      stream: true,
    });
    for await (const part of stream) {
      progress.chunks++;
      const piece = part.message?.content ?? "";
      const thought = part.message?.thinking ?? "";
      content += piece;
      thinking += thought;
      if (piece || thought) {
        progress.chars = content.length;
        progress.thinkingChars = thinking.length;
        progress.delta = piece || thought;
        progress.thinking = !piece;
        notifyChunk(req.onChunk, progress);
      }
      if (part.done) {
        return {
          content,
          thinking,
          doneReason: typeof part.done_reason === "string" ? part.done_reason : "",
          promptEvalCount: tokenCount(part.prompt_eval_count),
          evalCount: tokenCount(part.eval_count),
          totalSecs: _secs(part.total_duration),
          loadSecs: _secs(part.load_duration),
          promptEvalSecs: _secs(part.prompt_eval_duration),
          evalSecs: _secs(part.eval_duration),
          wallSecs: (performance.now() - started) / 1000,
          chunks: progress.chunks,
        };
      }
    }
    throw new OllamaError(
      "bad_response",
      `Ollama at ${baseUrl} ended the reply without a final chunk`,
    );
  } catch (err) {
    throw guard.explain(err);
  } finally {
    guard.dispose();
  }
}

function _secs(ns: unknown): number {
  return typeof ns === "number" && Number.isFinite(ns) && ns > 0 ? ns / 1e9 : 0;
}
