/**
 * Small pieces every backend's streaming chat shares: handing progress to the caller, and
 * reading a token count a server sent.
 */
import type { ChatProgress } from "./types.ts";

/** Progress before the first chunk. */
export function startProgress(): ChatProgress {
  return { chunks: 0, chars: 0, thinkingChars: 0, delta: "", thinking: false };
}

/** Calls `onChunk` with a copy of `progress`; what the callback throws is ignored. */
export function notifyChunk(
  onChunk: ((progress: ChatProgress) => void) | undefined,
  progress: ChatProgress,
): void {
  if (!onChunk) return;
  try {
    onChunk({ ...progress });
  } catch {
    // progress is best effort; a failing callback must not end the request
  }
}

/** A token count as a whole number; 0 for anything that is not a positive number. */
export function tokenCount(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : 0;
}
