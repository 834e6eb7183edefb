/**
 * find's search worker as a `data:` URL: the text of `worker.gen.js`, which `deno task manifest`
 * bundles from `worker_main.ts` and every module it imports (`scripts/worker_bundle.ts`; `deno
 * task structure` fails while it is stale). Everything a worker function uses is imported, so
 * nothing can be missing from the worker that its modules do not lack themselves.
 *
 * A worker loaded from a file would need read permission on the program's own folder, which the
 * read-only preset does not grant; a text import and a `data:` URL need none, and are part of the
 * program itself (`deno compile` embeds the text).
 */
import source from "./worker.gen.js" with { type: "text" };

/** The worker's source as a `data:` URL for `new Worker(url, { type: "module" })`. */
export function workerUrl(): string {
  return `data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`;
}
