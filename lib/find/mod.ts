/**
 * find: list the project's files (git's listing or the `.gitignore`-aware walk), and search them
 * in long-lived workers, glob filter included (`engine.ts`).
 *
 * The engine loads on the first search, or ahead of it when the server is idle
 * ({@linkcode prestartFind}), never with the server: its start-up does not pay for it.
 */
export { MAX_FILE_BYTES } from "./protocol.ts";
export { MAX_LINE_CHARS } from "./scan.ts";
export type { FindOptions, FindResult } from "./engine.ts";
export type { SkippedFile } from "./collect.ts";
import type { FindOptions, FindResult } from "./engine.ts";

type Engine = typeof import("./engine.ts");

let _engine: Engine | undefined;
let _loading: Promise<Engine> | undefined;

/** Searches the project at `root`; returns the first `maxResults` matching lines. */
export async function findInProject(root: string, options: FindOptions): Promise<FindResult> {
  _engine ??= await (_loading ??= import("./engine.ts"));
  return await _engine.findInProject(root, options);
}

/**
 * Makes find ready before its first search: loads the engine and, at a quiet moment, starts the
 * first search worker (the server calls this once it has been idle; see `main.ts`).
 */
export async function prestartFind(): Promise<void> {
  _engine ??= await (_loading ??= import("./engine.ts"));
  await _engine.prestart();
}

/**
 * Ends find for good: its workers stop and none starts again. A server calls this when its
 * session is over: a live search worker (a web worker) would keep the process up.
 */
export function endFind(): void {
  _engine?.endFind();
  _loading?.then((engine) => engine.endFind());
}

/**
 * Gives find's memory back when it has not been used for a while (`lib/mcp/find_idle.ts`): the kept
 * listings go, the workers stop, and a full collection returns the pages. The next find lists
 * anew and starts a worker.
 */
export async function releaseIdle(): Promise<void> {
  if (!_engine) return;
  _engine.resetFind();
  (await import("./gc.ts")).collectSoon(0, true);
}

/** Forgets every kept listing and stops the workers (tests, benchmarks, `call`). */
export function resetFind(): void {
  _engine?.resetFind();
}
