/**
 * OpenAI-compatible model servers (llama.cpp's llama-server, LM Studio, vLLM, a LiteLLM proxy) as
 * a model provider (docs/PROVIDERS.md): the host (`host.ts`: chat streamed over SSE, the served
 * models and window) and its record of the provider table (`provider.ts`).
 *
 * Requires `--allow-net` for the host, and `--allow-env` for the key's variable when one is named.
 */
export { createOpenAIHost, type OpenAIHostOptions } from "./host.ts";
export { LOCAL_SERVERS, normalizeBaseUrl, openai } from "./provider.ts";
