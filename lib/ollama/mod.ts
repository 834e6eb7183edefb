/**
 * Ollama as a model provider (docs/PROVIDERS.md): the client localexec uses (`client.ts`:
 * streaming chat with timeouts and cancellation, and the model listings, all through
 * `npm:ollama`), Ollama as a `ModelHost` (`host.ts`), and its record of the provider table
 * (`provider.ts`).
 *
 * Every failure is an {@linkcode OllamaError} whose `kind` says what happened and whose message
 * says what to do ("start `ollama serve`", "run `ollama pull x`", …).
 */
export { type CallOptions, createOllama, type OllamaClient, type OllamaOptions } from "./client.ts";
export type {
  ChatMessage,
  ChatModelOptions,
  ChatProgress,
  ChatRequest,
  ChatResult,
} from "./chat.ts";
export { OllamaError, type OllamaErrorKind } from "./errors.ts";
export { ollamaHost } from "./host.ts";
export {
  findModel,
  type InstalledModel,
  type LoadedModel,
  type ModelInfo,
  sameModel,
} from "./models.ts";
export { DEFAULT_OLLAMA_HOST, normalizeHost, ollama } from "./provider.ts";
