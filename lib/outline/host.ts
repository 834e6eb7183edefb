/**
 * Runs outline off the server's thread, in one long-lived worker with a time and a memory budget.
 *
 * The worker is built from the text of outline's own modules (text imports, part of the program),
 * each given a `blob:` URL (the entry a `data:` URL) with its `./x.ts` imports pointing at the
 * others' URLs: it needs no read permission on the program's folder (the read-only preset grants
 * the project only), and `deno compile` embeds the texts. Requests run one at a time. A request that takes longer than
 * {@linkcode OUTLINE_BUDGET_MS} terminates the worker (a new one starts on the next request) and
 * fails with a clear error; after a request that grew tree-sitter's WASM memory (which never
 * shrinks) past {@linkcode MEMORY_BUDGET_MB}, the worker is replaced too, which gives that memory
 * back. Otherwise the worker stays, with its grammars compiled and warm, until no outline has come
 * for {@linkcode OUTLINE_IDLE_MS}: then it ends and its memory (40-90 MB) goes back; the next outline
 * starts a new one. {@linkcode prestartOutline} starts one ahead of need, at a quiet moment (`new
 * Worker` holds the calling thread until the worker's isolate is up, so never beside a call). Where
 * no worker can start, outline runs in the server.
 */
import type { Worker } from "node:worker_threads";
import { ToolError } from "../errors.ts";
import { idleMsFromEnv, unrefTimer, whenQuiet } from "../quiet.ts";
import { sha256Hex } from "../text.ts";
import type { LanguageId } from "./languages.ts";
import { decodeSource, type NotText, type Outline, outlineSource } from "./source.ts";
import { unpackOutline } from "./packed.ts";
import type { OutlineIdle, OutlineReply, OutlineRequest } from "./worker.ts";
import { dropKeptBuffer, keepBuffer } from "./read_buffer.ts";
import worker from "./worker.ts" with { type: "text" };
import source from "./source.ts" with { type: "text" };
import items from "./items.ts" with { type: "text" };
import packed from "./packed.ts" with { type: "text" };
import signature from "./signature.ts" with { type: "text" };
import languages from "./languages.ts" with { type: "text" };
import parser from "./parser.ts" with { type: "text" };
import rulesPython from "./rules_python.ts" with { type: "text" };
import rulesScript from "./rules_script.ts" with { type: "text" };
import rulesWrappers from "./rules_wrappers.ts" with { type: "text" };
import rulesGoRust from "./rules_go_rust.ts" with { type: "text" };
import rulesC from "./rules_c.ts" with { type: "text" };
import rulesOther from "./rules_other.ts" with { type: "text" };
import reparse from "./reparse.ts" with { type: "text" };
import nodes from "./nodes.ts" with { type: "text" };

/** How long one outline may take before its worker is stopped. */
export const OUTLINE_BUDGET_MS = 30_000;

/**
 * How long outline's worker stays with no outline to do before it ends (docs/DECISIONS.md, issue
 * 36; its memory in BENCHMARKS.md): long enough for a session's run of outlines to share one warm
 * worker, short enough that a server left alone has given the worker's memory back within a minute.
 * `LOCALEXEC_OUTLINE_IDLE_MS` sets it (tests, `bench memory --parts`).
 */
export const OUTLINE_IDLE_MS = 40_000;

/** How long the server must have had no request before {@linkcode prestartOutline} starts. */
const PRESTART_QUIET_MS = 300;

/**
 * How much of a file read ahead of need is outlined: a warm-up step's worth (`worker.ts`), enough
 * to set the worker's warm-up going, little enough that an outline coming meanwhile barely waits.
 */
const PRIME_CHARS = 48_000;

/**
 * How long the server must have been quiet before the worker is told it may do its idle work
 * (free the trees it let go, warm a grammar up: `worker.ts`): not while the answer is still being
 * written and the client reads it, on a machine of two cores.
 */
const IDLE_WORK_QUIET_MS = 100;

/** How long a new worker may take to load before outline runs in the server instead. */
const START_MS = 15_000;

/**
 * How large the worker's WASM memory may grow before the worker is replaced. It starts at 32 MB
 * and stays there for files of ten thousand lines; only a huge or pathological file grows it.
 */
export const MEMORY_BUDGET_MB = 96;

/**
 * The worker's JavaScript heap: a small young generation, so the garbage each outline leaves (node
 * objects, text slices) is collected within a few megabytes instead of tens; the old generation
 * has room for the largest text outline accepts.
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 512 };

/** The worker's modules by file name. */
const MODULES: Record<string, string> = {
  "worker.ts": worker,
  "source.ts": source,
  "items.ts": items,
  "packed.ts": packed,
  "signature.ts": signature,
  "languages.ts": languages,
  "parser.ts": parser,
  "rules_python.ts": rulesPython,
  "rules_script.ts": rulesScript,
  "rules_wrappers.ts": rulesWrappers,
  "rules_go_rust.ts": rulesGoRust,
  "rules_c.ts": rulesC,
  "rules_other.ts": rulesOther,
  "reparse.ts": reparse,
  "nodes.ts": nodes,
};

/**
 * How the worker's modules get their URLs. `blob`: each module a `blob:` URL (the entry a `data:`
 * URL, which a worker must start from). `data`: each a `data:` URL, which holds the URLs of the
 * modules it imports, for where `blob:` modules do not load (binaries of `deno compile` whose
 * loader does not read `blob:` URLs, denoland/deno#29962). `blob` first: a module's `data:` URL
 * holds its imports' URLs in full, Deno keeps several copies of every module's text, and with
 * `encodeURIComponent`, which escaped the escapes again at every level, the worker's URL had come
 * to a million characters (2.3 million once the rules imported `nodes.ts`): 30-100 MB of the
 * worker's memory. A `blob:` URL is a few dozen characters.
 */
export type ModuleUrls = "blob" | "data";

/**
 * `text` as the body of a `data:` URL: only what a URL would drop or end at (control characters,
 * `#`, `?`, `%`) and what the string literal it is embedded in would escape (`"`, `\`) is
 * escaped, so a URL nested in another grows by little, not threefold.
 */
function _dataBody(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // control characters, DEL, " # % ? \
    if (c < 32 || c === 127 || c === 34 || c === 35 || c === 37 || c === 63 || c === 92) {
      out += `${text.slice(from, i)}%${c.toString(16).padStart(2, "0")}`;
      from = i + 1;
    }
  }
  return out + text.slice(from);
}

/** `name`'s text at a URL of its own, its `./x.ts` imports pointing at the other modules' URLs. */
function _moduleUrl(name: string, done: Map<string, string>, urls: ModuleUrls): string {
  let url = done.get(name);
  if (url) return url;
  const text = MODULES[name];
  if (text === undefined) throw new Error(`outline's worker has no module ${name}`);
  const linked = text.replace(
    /(\bfrom\s+|\bimport\s*\(\s*)(["'])\.\/([\w.]+\.ts)\2/g,
    (_, before: string, _quote: string, dep: string) =>
      `${before}${JSON.stringify(_moduleUrl(dep, done, urls))}`,
  );
  url = urls === "data" || name === "worker.ts"
    ? `data:application/typescript,${_dataBody(linked)}`
    : URL.createObjectURL(new Blob([linked], { type: "application/typescript" }));
  done.set(name, url);
  return url;
}

let _urls: ModuleUrls = "blob";
const _entry = new Map<ModuleUrls, string>();
let _worker: Worker | undefined;
let _broken = false;
let _answered = false; // the current worker has answered at least once
let _ids = 0;
let _starts = 0;
let _queue: Promise<unknown> = Promise.resolve();
let _idleMs: number | undefined; // set by tests; else the environment's, or OUTLINE_IDLE_MS
let _idleTimer: ReturnType<typeof setTimeout> | undefined;
let _pending = 0; // outlines and starts queued or running
let _prestart: (() => void) | undefined; // cancels a prestart waiting for a quiet moment
let _prime: { language: LanguageId; abs?: string } | undefined; // what the next prestart loads
const _languages = new Set<LanguageId>(); // the grammars the current worker has loaded
let _idleWork: (() => void) | undefined; // cancels the idle signal waiting for a quiet moment

function _stop(): void {
  clearTimeout(_idleTimer);
  _idleWork?.();
  _worker?.terminate();
  _worker = undefined;
  dropKeptBuffer();
}

/** Tells worker `w` it may do its idle work, once the server is quiet and nothing is queued. */
function _idleSoon(w: Worker): void {
  _idleWork?.();
  const cancel = whenQuiet(IDLE_WORK_QUIET_MS, () => {
    _idleWork = undefined;
    if (_worker === w && _pending === 0) w.postMessage({ idle: true } satisfies OutlineIdle);
  });
  _idleWork = () => {
    cancel();
    _idleWork = undefined;
  };
}

/** Work on the worker, one piece at a time; the worker's idle clock starts when none is left. */
function _enqueue<T>(work: () => Promise<T>): Promise<T> {
  _pending++;
  clearTimeout(_idleTimer);
  const run = _queue.then(work).finally(() => {
    if (--_pending === 0 && _worker) {
      _idleMs ??= idleMsFromEnv("LOCALEXEC_OUTLINE_IDLE_MS", OUTLINE_IDLE_MS);
      _idleTimer = setTimeout(() => _pending === 0 && _stop(), _idleMs);
      unrefTimer(_idleTimer);
    }
  });
  _queue = run.catch(() => {});
  return run;
}

/**
 * A loaded worker, or undefined when none loads here (e.g. where modules cannot be built). Where
 * its modules do not load from `blob:` URLs, they are given `data:` URLs from then on.
 */
async function _start(): Promise<Worker | undefined> {
  const started = await _load(_urls);
  if (started || _urls === "data") return started;
  _urls = "data";
  return await _load(_urls);
}

async function _load(urls: ModuleUrls): Promise<Worker | undefined> {
  const { Worker } = await import("node:worker_threads"); // not at the server's start
  let entry = _entry.get(urls);
  if (!entry) _entry.set(urls, entry = _moduleUrl("worker.ts", new Map(), urls));
  _answered = false;
  _languages.clear();
  const w = new Worker(new URL(entry), { resourceLimits: RESOURCE_LIMITS });
  _starts++;
  w.unref();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ready = await new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), START_MS);
    w.once("message", (reply: OutlineReply) => resolve("ready" in reply));
    w.once("error", () => resolve(false));
    w.once("exit", () => resolve(false));
  });
  clearTimeout(timer);
  if (ready) return w;
  w.terminate();
  return undefined;
}

/** An outline found by the worker, with the SHA-256 of the bytes it was found in (hex). */
export type HashedOutline = Outline & { sha256: string };

/**
 * One request to the worker; `undefined` when the worker could not run it at all (`bytes` are then
 * still whole: they are handed over, not copied, only to a worker that has answered before). The
 * worker hands their buffer back with its answer, to be kept for the next read (`read_buffer.ts`).
 */
async function _ask(
  language: LanguageId,
  bytes: Uint8Array,
  key?: string,
): Promise<HashedOutline | NotText | undefined> {
  const w = _worker ??= await _start();
  if (!w) return undefined;
  _idleWork?.();
  const id = ++_ids;
  _languages.add(language);
  const { promise, resolve, reject } = Promise.withResolvers<
    HashedOutline | NotText | undefined
  >();
  const timer = setTimeout(() => {
    done();
    _stop();
    reject(
      new ToolError(
        `outline stopped after ${OUTLINE_BUDGET_MS / 1000} s: the file is too large or too ` +
          "deeply nested to outline; read it in parts with read_file or search it with find",
      ),
    );
  }, OUTLINE_BUDGET_MS);
  const onMessage = (reply: OutlineReply) => {
    if (reply.id !== id || "ready" in reply) return;
    done();
    _idleSoon(w);
    try {
      _answer(reply);
    } finally {
      keepBuffer(reply.buffer); // once the outline's text is read from it (packed.ts)
    }
  };
  const _answer = (reply: Exclude<OutlineReply, { ready: true }>) => {
    if ("notText" in reply) return resolve(reply.notText);
    if ("error" in reply) {
      // A worker that never outlined anything may lack what it needs here: outline in the server.
      if (!_answered) return resolve(undefined);
      return reject(new Error(reply.error));
    }
    _answered = true;
    if (reply.heapMb > MEMORY_BUDGET_MB) _stop(); // gives its WASM memory back
    resolve({ ...unpackOutline(reply.outline, reply.buffer), sha256: reply.sha256 });
  };
  const onError = (err: Error) => {
    done();
    const started = _answered;
    _stop();
    if (!started) return resolve(undefined); // it could not even start
    reject(new Error(`outline's worker failed: ${err.message}`));
  };
  const done = () => {
    clearTimeout(timer);
    w.off("message", onMessage);
    w.off("error", onError);
  };
  w.on("message", onMessage);
  w.on("error", onError);
  // A plain ArrayBuffer, handed over: Deno's worker_threads copy a typed array (or a buffer not
  // handed over) to the worker slowly, 0.1-0.5 s for 400 KB at load 7-10, a string in 1-5 ms.
  // Only a worker that has answered before gets the caller's own buffer (see above).
  const own = _answered && bytes.byteOffset === 0 && bytes.buffer instanceof ArrayBuffer;
  const buffer = (own ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer;
  w.postMessage(
    { id, language, buffer, length: bytes.length, key } satisfies OutlineRequest,
    [buffer],
  );
  return promise;
}

/**
 * Outlines a file's `bytes` as `language` in the worker (one request at a time), or here without
 * one; says so when they are not text ({@linkcode decodeSource}). The worker decodes and hashes
 * them, and they may be handed over to it: the caller must not use `bytes` afterwards (their
 * buffer is kept for the next read, `read_buffer.ts`). `key` (the file's path) lets the worker
 * re-parse only what changed since its last outline.
 */
export function outlineInWorker(
  language: LanguageId,
  bytes: Uint8Array,
  key: string,
): Promise<HashedOutline | NotText> {
  return _enqueue(async () => {
    try {
      if (!_broken) {
        const outline = await _ask(language, bytes, key);
        if (outline) return outline;
        _broken = true; // the worker cannot start here: outline in the server from now on
      }
      const source = decodeSource(bytes);
      if ("notText" in source) return source.notText;
      const sha256 = await sha256Hex(bytes);
      return { ...await outlineSource(language, source.text), sha256 };
    } finally {
      keepBuffer(bytes.buffer); // (not when handed over: a buffer handed over has length 0)
    }
  });
}

/**
 * Starts outline's worker ahead of need, once the server has been quiet for a moment: the server
 * calls it after a `read_file` of a file outline reads, or a find whose first match is in one
 * (`language`, the file at `abs`). The worker loads that grammar and outlines the file's first
 * {@linkcode PRIME_CHARS} bytes (the answer is not used), which sets its idle warm-up going,
 * so the next fresh file of that language is parsed at full speed. Nothing is started while a call
 * runs (the start holds the thread); an outline that comes first starts the worker itself.
 */
export function prestartOutline(language?: LanguageId, abs?: string): void {
  if (language) _prime = { language, abs };
  if (_broken || _prestart) return;
  const cancel = whenQuiet(PRESTART_QUIET_MS, () => {
    _prestart = undefined;
    const prime = _prime;
    _prime = undefined;
    if (_pending || (_worker && (!prime || _languages.has(prime.language)))) return;
    _enqueue(async () => {
      if (!prime) _worker ??= await _start();
      else await _ask(prime.language, await _primeBytes(prime.abs));
    }).catch(() => {});
  });
  _prestart = () => {
    cancel();
    _prestart = _prime = undefined;
  };
}

/** The first part of the file at `abs`, cut at a line end (empty when it cannot be read). */
async function _primeBytes(abs?: string): Promise<Uint8Array> {
  if (!abs) return new Uint8Array();
  try {
    using file = await Deno.open(abs);
    const bytes = new Uint8Array(PRIME_CHARS);
    let n = 0;
    for (let got: number | null = 0; got !== null && n < bytes.length; n += got ?? 0) {
      got = await file.read(bytes.subarray(n));
    }
    return bytes.slice(0, n < bytes.length ? n : bytes.subarray(0, n).lastIndexOf(10) + 1);
  } catch {
    return new Uint8Array();
  }
}

/** Sets how long the worker may stay idle (tests); `undefined` puts back the default. */
export function setOutlineIdleMs(ms?: number): void {
  _idleMs = ms;
}

/** Whether outline's worker is up now (tests). */
export function outlineWorkerUp(): boolean {
  return _worker !== undefined;
}

/** How many workers this process has started (tests: a worker is kept, not replaced). */
export function outlineWorkerStarts(): number {
  return _starts;
}

/**
 * Stops the worker (tests, benchmarks); the next outline starts a new one, its modules at `urls`
 * when given (tests: the `data:` URLs a binary may need).
 */
export function stopOutlineWorker(urls?: ModuleUrls): void {
  _prestart?.();
  _stop();
  if (urls) _urls = urls;
}
