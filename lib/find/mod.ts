/**
 * find: list the project's files (git's listing or the `.gitignore`-aware walk), and search them
 * in long-lived workers, glob filter included (`engine.ts`).
 *
 * The engine loads on the first search, not with the server: a server that is only asked for its
 * tools does not load it (a few milliseconds of a start-up of about 110).
 */
export { MAX_FILE_BYTES } from "./protocol.ts";
export { MAX_LINE_CHARS } from "./scan.ts";
export type { FindOptions, FindResult } from "./engine.ts";
import type { FindOptions, FindResult } from "./engine.ts";

type Engine = typeof import("./engine.ts");

let _engine: Engine | undefined;
let _loading: Promise<Engine> | undefined;

/** Searches the project at `root`; returns the first `maxResults` matching lines. */
export async function findInProject(root: string, options: FindOptions): Promise<FindResult> {
  _engine ??= await (_loading ??= import("./engine.ts"));
  return await _engine.findInProject(root, options);
}

/** Forgets every kept listing and stops the workers (tests, benchmarks, `call`). */
export function resetFind(): void {
  _engine?.resetFind();
}
