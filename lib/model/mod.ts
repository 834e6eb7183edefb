/**
 * The model-backend contract (docs/ARCHITECTURE.md, "Delegation"): the types every model server
 * backend implements (`lib/ollama/`, `lib/openai/`), the error they all throw, and the pool that
 * spreads one task over several hosts, a provider's record (`provider.ts`, listed in
 * `lib/providers/`), and what every backend shares: the clock of one call (`transport.ts`), one
 * guarded HTTP call (`http.ts`) and an event stream (`sse.ts`). The model keys of
 * `.localexec.json` are read by `lib/config.ts` with the provider table it is handed.
 *
 * Nothing here talks to a server itself: backends do, and the pool only calls them.
 */
export type {
  CallOptions,
  ChatMessage,
  ChatProgress,
  HostReport,
  ModelChatRequest,
  ModelChatResult,
  ModelFacts,
  ModelHost,
} from "./types.ts";
export { ModelError, type ModelErrorKind, snippet } from "./errors.ts";
export { ModelPool, type PoolCallOptions, type PoolCapacity } from "./pool.ts";
export { HostSlots, type Slot, type SlotHost } from "./slots.ts";
export { notifyChunk, startProgress, tokenCount } from "./stream.ts";
export {
  type CallClock,
  type ChatTimeouts,
  chatTimeouts,
  type ClockOptions,
  MODEL_TIMEOUTS,
  type ModelTimeouts,
  readCapped,
  startClock,
  timerMs,
  withDefaults,
} from "./transport.ts";
export {
  type LadderBase,
  LadderError,
  readLadder,
  type Rung,
  RUNG_KEYS,
  startRung,
} from "./ladder.ts";
export type { InitDetection, Probed, Provider, StatusHints } from "./provider.ts";
export { type HttpCall, type HttpErrors, type OpenCall, openHttpCall, readJson } from "./http.ts";
export {
  createSseReader,
  firstChunkMessage,
  pumpSse,
  type SseBody,
  type SseHandler,
  type SseReader,
} from "./sse.ts";
