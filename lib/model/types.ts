/**
 * The model-backend contract: what implement_task needs from a model server, whichever kind it
 * is. `lib/ollama/` (Ollama's own API) and `lib/openai/` (llama-server, LM Studio, vLLM, LiteLLM)
 * each implement {@linkcode ModelHost}; `pool.ts` spreads one task over several hosts. The
 * implement loop depends on these types only.
 */

/** One chat message. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Progress while a reply streams. */
export interface ChatProgress {
  /** Chunks received so far. */
  chunks: number;
  /** Characters of reply (content) so far. */
  chars: number;
  /** Characters of thinking so far (reasoning models). */
  thinkingChars: number;
  /** The text this chunk added (content or thinking). */
  delta: string;
  /** True when `delta` is thinking rather than reply. */
  thinking: boolean;
}

/** One chat request, in terms every backend understands. */
export interface ModelChatRequest {
  model: string;
  messages: ChatMessage[];
  /**
   * The context window to run the model with. Ollama loads the model with it (`num_ctx`); a
   * server whose window is fixed when it starts (llama-server, vLLM, LM Studio) ignores it.
   */
  contextLength: number;
  /** Most tokens the reply may take; reaching it gives `doneReason: "length"`. */
  maxTokens: number;
  temperature: number;
  /** How long Ollama keeps the model loaded afterwards; other servers ignore it. */
  keepAlive?: string | number;
  /** Cancels the call: the HTTP request is aborted and the call fails with kind `cancelled`. */
  signal?: AbortSignal;
  /** Called for each chunk that carries text; exceptions from it are ignored. */
  onChunk?: (progress: ChatProgress) => void;
}

/** A collected reply with its token counts. */
export interface ModelChatResult {
  content: string;
  /** What a reasoning model thought before answering (empty otherwise). */
  thinking: string;
  /** `"stop"`, `"length"` (cut off by the token limit or the context), or `""` if not said. */
  doneReason: string;
  /** Prompt tokens the server read (an estimate when `estimated`). */
  promptEvalCount: number;
  /** Reply tokens generated (an estimate when `estimated`). */
  evalCount: number;
  /** True when the server sent no token counts and they were estimated here. */
  estimated: boolean;
  /** Seconds this call took as measured here. */
  wallSecs: number;
  /** Seconds from sending the request to the first text (reply or thinking), when any came. */
  firstTokenSecs?: number;
  chunks: number;
  /** Base URL of the host that answered. */
  host: string;
}

/** What the attempts need to know about the model, read before the task begins. */
export interface ModelFacts {
  model: string;
  /** The longest context the model can run with, when known. */
  contextLength?: number;
  /** The context it is loaded with now, or was run with last attempt. */
  loaded?: number;
  /**
   * True when the server fixed the window when it started: the prompt and reply must fit
   * `contextLength`, and asking for another size changes nothing.
   */
  fixedContext?: boolean;
  /** True when the server silently drops the start of a prompt that does not fit (Ollama). */
  cutsLongPrompts?: boolean;
}

/** What one host says about itself and the configured model, for `status`. */
export interface HostReport {
  url: string;
  reachable: boolean;
  /** E.g. `ollama 0.12.6`, `llama-server`, `vLLM`, `LM Studio`. */
  server?: string;
  /** The server's version, when it says (Ollama). */
  version?: string;
  model_installed?: boolean;
  model_loaded?: boolean;
  /** The context the model runs with there (loaded or served), when known. */
  context?: number;
  /** Models an OpenAI-compatible server serves (the first few). */
  served?: string[];
  /** Why it is not usable: unreachable, key refused, …. */
  error?: string;
}

/** Per-call options for the quick calls. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** One model server at one base URL. */
export interface ModelHost {
  /** The base URL, as configured and normalised. */
  readonly url: string;
  /** Reads the model's facts; fails with a ModelError saying what to do when it cannot be used. */
  facts(model: string, opts?: CallOptions): Promise<ModelFacts>;
  /** Streams one chat and returns the whole reply; fails with a ModelError. */
  chat(req: ModelChatRequest): Promise<ModelChatResult>;
  /** What this host says about `model` (or itself, without one); never throws but for a cancel. */
  report(model: string | undefined, opts?: CallOptions): Promise<HostReport>;
}
