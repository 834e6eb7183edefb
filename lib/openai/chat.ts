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
  type ModelChatRequest,
  type ModelChatResult,
  ModelError,
  notifyChunk,
  snippet,
  startProgress,
  tokenCount,
} from "../model/mod.ts";
import { badResponseError, bodyMessage, cutShortError, type KeyInfo } from "./errors.ts";
import { createSseReader } from "./sse.ts";
import { type CallSpec, openCall, readJson } from "./transport.ts";

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
      headers:
        `the model sent nothing for ${t.firstChunkS} s (loading it and reading the prompt): check the model server's log, raise first_token_timeout_s in .localexec.json for a model that loads slowly, or try a smaller task`,
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
  call: Awaited<ReturnType<typeof openCall>>,
  req: ModelChatRequest,
  t: ChatTimeouts,
  started: number,
): Promise<ModelChatResult> {
  const progress = startProgress();
  let content = "";
  let thinking = "";
  let doneReason = "";
  let usage: { prompt: number; reply: number } | undefined;
  let sawDone = false;
  let head = "";
  let events = 0;
  const onData = (data: string, kind: "data" | "error") => {
    events++;
    if (kind === "error") {
      let said: string | undefined;
      try {
        said = bodyMessage({ error: JSON.parse(data) }) ?? bodyMessage(JSON.parse(data));
      } catch {
        said = data;
      }
      throw new ModelError(
        "http",
        `the model server at ${base} failed while answering: ${snippet(said ?? data, 300)}`,
        { hostDown: false },
      );
    }
    if (data.trim() === "[DONE]") {
      sawDone = true;
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw badResponseError(base, head, "broken JSON in the stream");
    }
    const message = bodyMessage(json);
    if (message !== undefined) {
      throw new ModelError(
        "http",
        `the model server at ${base} failed while answering: ${snippet(message, 300)}`,
        { hostDown: false },
      );
    }
    usage = _usage(json) ?? usage;
    const choice = _choice(json);
    if (!choice) return;
    progress.chunks++;
    const delta = _obj(choice.delta);
    const piece = _str(delta.content);
    const thought = _str(delta.reasoning_content) || _str(delta.reasoning);
    if (typeof choice.finish_reason === "string" && choice.finish_reason) {
      doneReason = choice.finish_reason;
    }
    if (!piece && !thought) return;
    content += piece;
    thinking += thought;
    if (content.length + thinking.length > MAX_REPLY_CHARS) {
      throw badResponseError(base, head, "answer too large");
    }
    // An open `<think>` at the start of the content is thinking until it closes.
    const lead = content.trimStart().slice(0, 7).toLowerCase();
    const inTags = !!lead && "<think>".startsWith(lead) && !/<\/think>/i.test(content);
    progress.chars = content.length;
    progress.thinkingChars = thinking.length;
    progress.delta = piece || thought;
    progress.thinking = !piece || inTags;
    notifyChunk(req.onChunk, progress);
  };
  const sse = createSseReader(onData);
  const decoder = new TextDecoder();
  let started_ = false;
  for (;;) {
    // Until the first text arrives the model may still be reading the prompt.
    const idle = progress.chars || progress.thinkingChars
      ? t.idleS
      : Math.min(t.firstChunkS, t.requestS);
    const piece = await call.read(
      idle * 1000,
      progress.chars || progress.thinkingChars
        ? `the model server stopped sending for ${t.idleS} s in the middle of the reply: check its log`
        : `the model sent nothing for ${t.firstChunkS} s (loading it and reading the prompt): check the model server's log, raise first_token_timeout_s in .localexec.json for a model that loads slowly, or try a smaller task`,
    );
    if (piece === undefined) break;
    const text = decoder.decode(piece, { stream: true });
    if (head.length < 200) head += text.slice(0, 200 - head.length);
    if (!started_ && head.trimStart()) {
      started_ = true;
      if (!/^(data|:|event|id|retry)/.test(head.trimStart())) throw badResponseError(base, head);
    }
    sse.push(text);
    if (sse.pendingChars > MAX_REPLY_CHARS) throw badResponseError(base, head, "answer too large");
    if (sawDone) break;
  }
  sse.push(decoder.decode());
  sse.end();
  if (!events) throw badResponseError(base, head, "empty answer");
  if (!sawDone && !doneReason) throw cutShortError(base);
  return {
    content,
    thinking,
    doneReason,
    promptEvalCount: usage?.prompt ?? 0,
    evalCount: usage?.reply ?? 0,
    estimated: !usage,
    wallSecs: (performance.now() - started) / 1000,
    chunks: progress.chunks,
    host: base,
  };
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
