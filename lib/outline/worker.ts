/**
 * outline's worker: parses and walks one text per message, so a huge or pathological file never
 * holds the server's own thread, and its memory (tree-sitter's WASM heap only grows) goes when the
 * host replaces the worker. Loaded by `host.ts` from `data:` URLs, with no read permission needed.
 */
import { parentPort } from "node:worker_threads";
import type { LanguageId } from "./languages.ts";
import { type Outline, outlineSource } from "./source.ts";

/** A request to the worker. */
export interface OutlineRequest {
  id: number;
  language: LanguageId;
  text: string;
  /** The file's path: its tree is kept to re-parse only what changes next time. */
  key?: string;
}

/** The worker's answer (id 0 with `ready`: it has loaded and listens). */
export type OutlineReply =
  | { id: number; outline: Outline }
  | { id: number; error: string }
  | { id: 0; ready: true };

parentPort?.on("message", async (request: OutlineRequest) => {
  try {
    const outline = await outlineSource(request.language, request.text, request.key);
    parentPort!.postMessage({ id: request.id, outline } satisfies OutlineReply);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    parentPort!.postMessage({ id: request.id, error } satisfies OutlineReply);
  }
});
parentPort?.postMessage({ id: 0, ready: true } satisfies OutlineReply);
