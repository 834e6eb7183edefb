/**
 * Ollama as a {@linkcode ModelHost} of the model-backend contract: the context window is chosen
 * per request (`num_ctx`, which reloads the model when it changes), `/api/show` gives the model's
 * longest context, `/api/ps` the one it is loaded with, and Ollama cuts a prompt that does not
 * fit without saying so.
 */
import type { HostReport, ModelFacts, ModelHost } from "../model/mod.ts";
import { ModelError } from "../model/mod.ts";
import type { ChatRequest, ChatResult } from "./chat.ts";
import { findModel, type InstalledModel, type LoadedModel, type ModelInfo } from "./models.ts";

/** What the host needs of an Ollama client (`createOllama` in `mod.ts` makes one). */
export interface OllamaCalls {
  readonly baseUrl: string;
  chat(req: ChatRequest): Promise<ChatResult>;
  tags(opts?: { signal?: AbortSignal }): Promise<InstalledModel[]>;
  ps(opts?: { signal?: AbortSignal }): Promise<LoadedModel[]>;
  show(model: string, opts?: { signal?: AbortSignal }): Promise<ModelInfo>;
  version(opts?: { signal?: AbortSignal }): Promise<string>;
}

/** The contract's view of the Ollama server `client` talks to. */
export function ollamaHost(client: OllamaCalls): ModelHost {
  const url = client.baseUrl;
  return {
    url,
    async facts(model, o = {}): Promise<ModelFacts> {
      const info = await client.show(model, o);
      const loaded = await client.ps(o).then(
        (list) => findModel(list, model)?.contextLength,
        () => undefined,
      );
      return {
        model,
        contextLength: info.contextLength,
        loaded,
        fixedContext: false,
        cutsLongPrompts: true,
      };
    },
    async chat(req) {
      const chat = await client.chat({
        model: req.model,
        messages: req.messages,
        options: {
          num_ctx: req.contextLength,
          temperature: req.temperature,
          num_predict: req.maxTokens,
        },
        keep_alive: req.keepAlive,
        signal: req.signal,
        onChunk: req.onChunk,
      });
      return {
        content: chat.content,
        thinking: chat.thinking,
        doneReason: chat.doneReason,
        promptEvalCount: chat.promptEvalCount,
        evalCount: chat.evalCount,
        estimated: false,
        wallSecs: chat.wallSecs,
        chunks: chat.chunks,
        host: url,
      };
    },
    async report(model, o = {}): Promise<HostReport> {
      let version: string;
      try {
        version = await client.version(o);
      } catch (err) {
        if (!(err instanceof ModelError) || err.kind === "cancelled") throw err;
        return { url, reachable: false, error: err.message };
      }
      const report: HostReport = { url, reachable: true, server: `ollama ${version}`, version };
      if (!model) return report;
      try {
        const installed = findModel(await client.tags(o), model);
        let loaded: LoadedModel | undefined;
        if (installed) loaded = findModel(await client.ps(o).catch(() => []), model);
        return {
          ...report,
          model_installed: !!installed,
          model_loaded: !!loaded,
          ...(loaded?.contextLength ? { context: loaded.contextLength } : {}),
        };
      } catch (err) {
        if (!(err instanceof ModelError) || err.kind === "cancelled") throw err;
        return { ...report, error: err.message };
      }
    },
  };
}
