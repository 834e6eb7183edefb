/**
 * outline's worker: parses and walks one text per message, so a huge or pathological file never
 * holds the server's own thread, and its memory (tree-sitter's WASM heap only grows) goes when the
 * host replaces the worker. Loaded by `host.ts` from `data:` URLs, with no read permission needed.
 *
 * While idle after a language's first files, the worker outlines parts of the last text again
 * (2.4 million characters per language, once, in small steps that give way to any request): V8
 * first runs a grammar's WASM with its baseline compiler and moves the hot functions to its
 * optimizing one only after they have run a while, so the next fresh file of that language is
 * parsed at full speed instead of paying for that warm-up itself. The trees that re-parsing no
 * longer keeps are freed then too, after the answer rather than before it.
 */
import { parentPort } from "node:worker_threads";
import type { LanguageId } from "./languages.ts";
import { heapBytes } from "./parser.ts";
import { type PackedOutline, packOutline } from "./packed.ts";
import { decodeSource, type NotText, outlineSource } from "./source.ts";
import { freeDropped } from "./reparse.ts";

/**
 * A request to the worker: the file's bytes, handed over (not copied) and decoded here, so the
 * server's thread neither decodes the text nor copies it to this thread.
 */
export interface OutlineRequest {
  id: number;
  language: LanguageId;
  buffer: ArrayBuffer;
  /** The file's path: its tree is kept to re-parse only what changes next time. */
  key?: string;
}

/**
 * The worker's answer (id 0 with `ready`: it has loaded and listens), the outline packed for the
 * trip. `heapMb` is the size of tree-sitter's WASM memory after the request, which never shrinks.
 */
export type OutlineReply =
  | { id: number; outline: PackedOutline; heapMb: number }
  | { id: number; error: string }
  | { id: number; notText: NotText }
  | { id: 0; ready: true };

/**
 * How much text per language the idle worker outlines again, and in steps of what size: 600,000
 * characters left TypeScript's grammar half warm (a fresh 11,500-line `.d.ts` at 1.45× a warmed
 * parse's CPU time); 2.4 million brought it to 0.95×.
 */
const WARM_CHARS = 2_400_000;
const WARM_STEP = 48_000;
/** How long the worker waits after an answer before its idle work (a request comes first). */
const WARM_DELAY_MS = 30;

const _warmed = new Map<LanguageId, number>();
let _warm: { language: LanguageId; text: string } | undefined;
let _timer: ReturnType<typeof setTimeout> | undefined;

/** One step of warm-up: a part of the last text, cut at line ends, outlined and thrown away. */
async function _warmStep(): Promise<void> {
  _timer = undefined;
  const warm = _warm;
  if (!warm) return;
  const done = _warmed.get(warm.language) ?? 0;
  if (done >= WARM_CHARS || warm.text.length < 1000) return;
  const from = done % warm.text.length;
  // Cut at line ends where they are near; a text of few, long lines (minified) is cut anywhere,
  // so no step parses more than twice the step's size.
  let start = from === 0 ? 0 : warm.text.indexOf("\n", from) + 1;
  if (start === 0 || start > from + WARM_STEP) start = from;
  let end = warm.text.indexOf("\n", start + WARM_STEP);
  if (end < 0 || end > start + 2 * WARM_STEP) end = Math.min(warm.text.length, start + WARM_STEP);
  _warmed.set(warm.language, done + Math.max(end - start, WARM_STEP));
  try {
    if (start < end) await outlineSource(warm.language, warm.text.slice(start, end));
  } catch {
    return; // warming is only ever a help: stop it
  }
  _timer = setTimeout(_warmStep, 0);
}

/** After an answer: free the dropped trees, then warm `language` with `text` while idle. */
function _scheduleIdle(language: LanguageId, text: string): void {
  if ((_warmed.get(language) ?? 0) < WARM_CHARS) _warm = { language, text };
  _timer = setTimeout(() => {
    freeDropped();
    _warmStep();
  }, WARM_DELAY_MS);
}

parentPort?.on("message", async (request: OutlineRequest) => {
  clearTimeout(_timer);
  _warm = undefined;
  try {
    const source = decodeSource(new Uint8Array(request.buffer));
    if ("notText" in source) {
      parentPort!.postMessage({ id: request.id, notText: source.notText } satisfies OutlineReply);
      return;
    }
    const outline = packOutline(await outlineSource(request.language, source.text, request.key));
    const heapMb = heapBytes() / 1048576;
    parentPort!.postMessage({ id: request.id, outline, heapMb } satisfies OutlineReply);
    _scheduleIdle(request.language, source.text);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    parentPort!.postMessage({ id: request.id, error } satisfies OutlineReply);
    _timer = setTimeout(freeDropped, WARM_DELAY_MS);
  }
});
parentPort?.postMessage({ id: 0, ready: true } satisfies OutlineReply);
