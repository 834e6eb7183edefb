/**
 * One streamed `POST /chat/completions`: SSE chunks collected into the reply, reasoning kept
 * apart, the finish reason and the token usage read, and a stream cut short reported as such.
 *
 * Reasoning arrives as `delta.reasoning_content` (llama-server, LM Studio, older vLLM), as
 * `delta.reasoning` (vLLM 0.11+, Ollama's `/v1`), or inside the content as a leading
 * `<think>…</think>` (no reasoning parser); the first two are kept out of `content`, the third is
 * left for the reply parser and only counted as thinking in the progress. Usage comes with
 * `stream_options.include_usage` on a last chunk with `choices: []`, or on the finish chunk
 * (llama-server); a server that sends none gets `estimated: true` and zero counts.
 */
import {
  type ChatTimeouts,
  firstChunkMessage,
  type ModelChatRequest,
  type ModelChatResult,
  ModelError,
  notifyChunk,
  pumpSse,
  snippet,
  startProgress,
  tokenCount,
} from "../model/mod.ts";
import { badResponseError, bodyMessage, cutShortError, type KeyInfo } from "./errors.ts";
import { type CallSpec, type OpenCall, openCall, readJson } from "./transport.ts";

/** Key and timeouts for one chat. */
export interface ChatOptions {
  /**
   * Ask the server to keep the prompt's cache for the next request (`cache_prompt`, llama-server
   * only: another server may refuse a field it does not know).
   */
  cachePrompt?: boolean;
  apiKey?: string;
  key: KeyInfo;
  timeouts: ChatTimeouts;
}

const MAX_REPLY_CHARS = 8 * 1024 * 1024;

/** Streams one chat from the server at `base` (ending in `/v1`); throws ModelError on failure. */
export async function streamChat(
  base: string,
  req: ModelChatRequest,
  o: ChatOptions,
): Promise<ModelChatResult> {
  const started = performance.now();
  const t = o.timeouts;
  const spec: CallSpec = {
    base,
    path: "/chat/completions",
    body: {
      model: req.model,
      messages: req.messages,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: req.maxTokens,
      temperature: req.temperature,
      ...(o.cachePrompt ? { cache_prompt: true } : {}),
    },
    apiKey: o.apiKey,
    key: o.key,
    model: req.model,
    signal: req.signal,
    headersMs: Math.min(t.firstChunkS, t.requestS) * 1000,
    totalMs: t.requestS * 1000,
    messages: {
      headers: firstChunkMessage(t),
      total:
        `the model server did not finish the reply within ${t.requestS} s: raise request_timeout_s in .localexec.json, or try a smaller task`,
    },
  };
  const call = await openCall(spec);
  try {
    const type = call.response.headers.get("content-type") ?? "";
    if (/application\/json/i.test(type)) {
      const { text, data } = await readJson(call, spec);
      return _whole(base, data, text, started);
    }
    return await _stream(base, call, req, t, started);
  } finally {
    call.dispose();
  }
}

/** A server that ignored `stream: true` and sent one `chat.completion`. */
function _whole(base: string, data: unknown, text: string, started: number): ModelChatResult {
  const message = bodyMessage(data);
  if (message !== undefined) {
    throw new ModelError("http", `the model server at ${base} failed: ${snippet(message, 300)}`);
  }
  const choice = _choice(data);
  if (!choice) throw badResponseError(base, text, "no choices");
  const m = _obj(choice.message);
  const usage = _usage(data);
  return {
    content: _str(m.content),
    thinking: _str(m.reasoning_content) || _str(m.reasoning),
    doneReason: _str(choice.finish_reason),
    promptEvalCount: usage?.prompt ?? 0,
    evalCount: usage?.reply ?? 0,
    estimated: !usage,
    wallSecs: (performance.now() - started) / 1000,
    chunks: 1,
    host: base,
  };
}

async function _stream(
  base: string,
  call: OpenCall,
  req: ModelChatRequest,
  t: ChatTimeouts,
  started: number,
): Promise<ModelChatResult> {
  const reply = new _Reply(base, req);
  const { head, events } = await pumpSse(call, {
    timeouts: t,
    onData: (data, kind, head) => reply.event(data, kind, head),
    hasText: () => !!(reply.progress.chars || reply.progress.thinkingChars),
    done: () => reply.sawDone,
    bad: (head, why) => badResponseError(base, head, why),
  });
  if (!events) throw badResponseError(base, head, "empty answer");
  if (!reply.sawDone && !reply.doneReason) throw cutShortError(base);
  return {
    content: reply.content,
    thinking: reply.thinking,
    doneReason: reply.doneReason,
    promptEvalCount: reply.usage?.prompt ?? 0,
    evalCount: reply.usage?.reply ?? 0,
    estimated: !reply.usage,
    wallSecs: (performance.now() - started) / 1000,
    chunks: reply.progress.chunks,
    host: base,
  };
}

/** A reply collected from its `chat.completion.chunk` events. */
class _Reply {
  readonly progress = startProgress();
  content = "";
  thinking = "";
  doneReason = "";
  usage: { prompt: number; reply: number } | undefined;
  sawDone = false;

  constructor(readonly base: string, readonly req: ModelChatRequest) {}

  /** One event's data (`head`: the body's start, for messages); throws what ends the chat. */
  event(data: string, kind: "data" | "error", head: string): void {
    if (kind === "error") throw this.#failed(_errorLine(data));
    if (data.trim() === "[DONE]") {
      this.sawDone = true;
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw badResponseError(this.base, head, "broken JSON in the stream");
    }
    const message = bodyMessage(json);
    if (message !== undefined) throw this.#failed(message);
    this.usage = _usage(json) ?? this.usage;
    const choice = _choice(json);
    if (choice) this.#chunk(choice, head);
  }

  #chunk(choice: Record<string, unknown>, head: string): void {
    this.progress.chunks++;
    const delta = _obj(choice.delta);
    const piece = _str(delta.content);
    const thought = _str(delta.reasoning_content) || _str(delta.reasoning);
    if (typeof choice.finish_reason === "string" && choice.finish_reason) {
      this.doneReason = choice.finish_reason;
    }
    if (!piece && !thought) return;
    this.content += piece;
    this.thinking += thought;
    if (this.content.length + this.thinking.length > MAX_REPLY_CHARS) {
      throw badResponseError(this.base, head, "answer too large");
    }
    // An open `<think>` at the start of the content is thinking until it closes.
    const lead = this.content.trimStart().slice(0, 7).toLowerCase();
    const inTags = !!lead && "<think>".startsWith(lead) && !/<\/think>/i.test(this.content);
    const p = this.progress;
    p.chars = this.content.length;
    p.thinkingChars = this.thinking.length;
    p.delta = piece || thought;
    p.thinking = !piece || inTags;
    notifyChunk(this.req.onChunk, p);
  }

  #failed(said: string): ModelError {
    return new ModelError(
      "http",
      `the model server at ${this.base} failed while answering: ${snippet(said, 300)}`,
      { hostDown: false },
    );
  }
}

/** What an `error:` line says: its JSON's message, else the line itself. */
function _errorLine(data: string): string {
  try {
    return bodyMessage({ error: JSON.parse(data) }) ?? bodyMessage(JSON.parse(data)) ?? data;
  } catch {
    return data;
  }
}

function _choice(data: unknown): Record<string, unknown> | undefined {
  const choices = _obj(data).choices;
  if (!Array.isArray(choices) || !choices.length) return undefined;
  return _obj(choices[0]);
}

function _usage(data: unknown): { prompt: number; reply: number } | undefined {
  const u = _obj(data).usage;
  if (!u || typeof u !== "object") return undefined;
  const prompt = (u as Record<string, unknown>).prompt_tokens;
  const reply = (u as Record<string, unknown>).completion_tokens;
  if (typeof prompt !== "number" && typeof reply !== "number") return undefined;
  return { prompt: tokenCount(prompt), reply: tokenCount(reply) };
}

function _obj(v: unknown): Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v)
    ? v as Record<string, unknown>
    : {};
}

function _str(v: unknown): string {
  return typeof v === "string" ? v : "";
}
