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
 * longer keeps are freed then too, after the answer rather than before it. Idle means the server
 * has said so ({@linkcode OutlineIdle}): it does once the answer is written and no call runs, so
 * on two cores this work does not slow the answer's way to the client.
 */
import { parentPort } from "node:worker_threads";
import type { LanguageId } from "./languages.ts";
import { heapBytes, warmHeap } from "./parser.ts";
import { type PackedOutline, packOutline } from "./packed.ts";
import { decodeSource, type NotText, outlineSource } from "./source.ts";
import { freeDropped } from "./reparse.ts";

/**
 * A request to the worker: the file's bytes, the first `length` of `buffer`, handed over (not
 * copied) and decoded here, so the server's thread neither decodes the text nor copies it to this
 * thread. The buffer comes back with the answer (the server keeps it for the next file).
 */
export interface OutlineRequest {
  id: number;
  language: LanguageId;
  buffer: ArrayBuffer;
  length: number;
  /** The file's path: its tree is kept to re-parse only what changed next time. */
  key?: string;
}

/**
 * The server is quiet: the worker may do its idle work (free the trees it let go, warm a grammar
 * up). Sent once the answer is out (`host.ts`), so that work never shares the machine with
 * writing the answer.
 */
export interface OutlineIdle {
  idle: true;
}

/**
 * The worker's answer (id 0 with `ready`: it has loaded and listens), the outline packed for the
 * trip, with the request's buffer handed back (holding the outline's names and signatures, when
 * they fit: `packed.ts`). `heapMb` is the size of tree-sitter's WASM memory
 * after the request, which never shrinks; `sha256` the hex SHA-256 of the bytes (the server keeps
 * the outline for those bytes).
 */
export type OutlineReply =
  | { id: number; outline: PackedOutline; heapMb: number; sha256: string; buffer: ArrayBuffer }
  | { id: number; error: string; buffer: ArrayBuffer }
  | { id: number; notText: NotText; buffer: ArrayBuffer }
  | { id: 0; ready: true };

/**
 * How much text per language the idle worker outlines again, and in steps of what size: 600,000
 * characters left TypeScript's grammar half warm (a fresh 11,500-line `.d.ts` at 1.45× a warmed
 * parse's CPU time); 2.4 million brought it to 0.95×.
 */
const WARM_CHARS = 2_400_000;
const WARM_STEP = 48_000;

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

/**
 * How much of tree-sitter's heap is kept free and touched for the next parse (`warmHeap`): the tree
 * of a 10,000-line file takes 6-7 MB.
 */
const WARM_HEAP_BYTES = 8 * 1048576;

/**
 * How long after an answer the trees re-parsing let go are freed (4-20 ms for a 10,000-line
 * tree), unless a request or the server's quiet comes first: not at once, which the answer would
 * wait for, and not only when the server is quiet, which calls in a row never let it be (a soak of
 * 1,000 calls then held 15-25 MB more).
 */
const FREE_DELAY_MS = 30;

/**
 * The idle work, once the server says it is quiet: free the dropped trees, touch the heap the next
 * parse will take, load the hasher, then warm the last text's language.
 */
function _idle(): void {
  clearTimeout(_timer);
  freeDropped();
  warmHeap(WARM_HEAP_BYTES);
  _loadHasher();
  _timer = setTimeout(_warmStep, 0);
}

/** SHA-256 with `node:crypto`, once loaded (a 40-60 ms load, so at a quiet moment: `_idle`). */
let _hasher: ((bytes: Uint8Array) => string) | undefined;
let _hasherLoading = false;

function _loadHasher(): void {
  if (_hasher || _hasherLoading) return;
  _hasherLoading = true;
  import("node:crypto").then(({ createHash }) => {
    _hasher = (bytes) => {
      // In steps: a step's copy stays small, in memory the process holds (see `decodeSource`).
      const hash = createHash("sha256");
      for (let at = 0; at < bytes.length; at += HASH_STEP) {
        hash.update(bytes.subarray(at, at + HASH_STEP));
      }
      return hash.digest("hex");
    };
  }, () => {}); // WebCrypto's digest it stays
}

const HASH_STEP = 64 * 1024;

/**
 * The hex SHA-256 of `bytes`: `node:crypto`'s, 0.4 ms for 591 KB; until that has loaded,
 * WebCrypto's, whose copy of the bytes takes fresh pages (2-3 ms for 591 KB on the 2-core VMs).
 */
async function _sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  if (_hasher) return _hasher(bytes);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

parentPort?.on("message", async (message: OutlineRequest | OutlineIdle) => {
  clearTimeout(_timer);
  if ("idle" in message) return _idle();
  const request = message;
  _warm = undefined;
  const { id, buffer } = request;
  const post = (reply: OutlineReply) => parentPort!.postMessage(reply, [buffer]);
  try {
    const bytes = new Uint8Array(buffer, 0, request.length);
    const source = decodeSource(bytes);
    if ("notText" in source) return post({ id, notText: source.notText, buffer });
    const sha256 = await _sha256(bytes);
    const found = await outlineSource(request.language, source.text, request.key);
    // The bytes are read: their buffer takes the names and signatures back (packed.ts).
    const outline = packOutline(found, buffer);
    const heapMb = heapBytes() / 1048576;
    parentPort!.postMessage(
      { id, outline, heapMb, sha256, buffer } satisfies OutlineReply,
      [buffer, outline.numbers.buffer],
    );
    if ((_warmed.get(request.language) ?? 0) < WARM_CHARS) {
      _warm = { language: request.language, text: source.text };
    }
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    post({ id, error, buffer });
  } finally {
    _timer = setTimeout(freeDropped, FREE_DELAY_MS);
  }
});
parentPort?.postMessage({ id: 0, ready: true } satisfies OutlineReply);
