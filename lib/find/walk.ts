/**
 * find's own listing of a project: every regular file under the root that no `.gitignore`
 * (nested ones, negations, `.git/info/exclude`) excludes. `.git/` and `.localexec/` are always
 * skipped, symbolic links are not followed, and nothing is stat'ed: the folder entries' types are
 * enough.
 *
 * The walk reads folders synchronously (three times faster than the async API) but yields to the
 * event loop every few milliseconds, so the server keeps answering while it runs. A folder too
 * large to read in one go without holding the thread (its size says it holds thousands of
 * entries: reading 100,000 at once held it over a second on a loaded machine) is read with the
 * async API, off the thread.
 */
import { PROTECTED_NAMES } from "../paths.ts";
import { type IgnoreFile, isIgnored, parseIgnore } from "./ignore.ts";
import { callsRunning } from "../quiet.ts";

/**
 * How long the listing's work holds the thread between two turns of the event loop: 15 ms, or 2
 * ms while another call runs beside the find, each of whose steps (an `await` of a file operation)
 * waits for one turn: `list_files` of 20 files, about 25 steps, took 0.2–0.6 s beside a listing
 * of 100,000 files in 15 ms slices.
 */
const YIELD_EVERY_MS = 15;
const YIELD_BESIDE_MS = 2;

/**
 * While another call runs, the listing waits up to this long at each turn for it to end: a call
 * of a few file operations then answers as fast as alone, and the listing still gets a tenth of
 * the thread.
 */
const YIELD_BESIDE_WAIT_MS = 20;

/** The slice for now (see {@linkcode YIELD_EVERY_MS}): the find's own call is one of those running. */
function _sliceMs(): number {
  return callsRunning() > 1 ? YIELD_BESIDE_MS : YIELD_EVERY_MS;
}

/** A folder whose own size is at least this (bytes) is read off the thread: see the module comment. */
export const LARGE_FOLDER_BYTES = 64 * 1024;

/** The entries of the folder `dir`; a large one is read with the async API. Throws as readDir. */
async function _entries(dir: string): Promise<Deno.DirEntry[]> {
  if (Deno.statSync(dir).size < LARGE_FOLDER_BYTES) return [...Deno.readDirSync(dir)];
  return await Array.fromAsync(Deno.readDir(dir));
}

function _readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

interface Pending {
  rel: string;
  stack: IgnoreFile[];
}

/**
 * Lists the files under `root` as `/`-separated relative paths, in no particular order.
 * Stops early (returning what it has) when `signal` is aborted. Every folder it read (relative,
 * `""` for the root) is added to `dirs` when given.
 */
export async function walkProject(
  root: string,
  signal?: AbortSignal,
  dirs?: string[],
  progress?: (message: string) => void,
): Promise<string[]> {
  const files: string[] = [];
  const base: IgnoreFile[] = [];
  const exclude = _readText(`${root}/.git/info/exclude`);
  if (exclude !== undefined) base.push(parseIgnore("", exclude));
  const queue: Pending[] = [{ rel: "", stack: base }];
  const yieldNow = yielder();
  // Lets the event loop run once the walk has held the thread for a while; false when aborted.
  const turn = async (): Promise<boolean> => {
    await yieldNow();
    return !signal?.aborted;
  };
  while (queue.length) {
    if (!await turn()) break;
    const { rel, stack: parentStack } = queue.pop()!;
    const dir = rel ? `${root}/${rel}` : root;
    let entries: Deno.DirEntry[];
    try {
      entries = await _entries(dir);
    } catch {
      continue; // unreadable or vanished folder
    }
    dirs?.push(rel);
    let stack = parentStack;
    if (entries.some((e) => e.name === ".gitignore" && e.isFile)) {
      const text = _readText(`${dir}/.gitignore`);
      if (text !== undefined) stack = [...parentStack, parseIgnore(rel, text)];
    }
    for (let k = 0; k < entries.length; k++) {
      if ((k & 255) === 255 && !await turn()) break;
      const entry = entries[k];
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        if (PROTECTED_NAMES.has(entry.name)) continue;
        if (isIgnored(stack, path, true)) continue;
        queue.push({ rel: path, stack });
      } else if (entry.isFile) {
        if (isIgnored(stack, path, false)) continue;
        if (files.push(path) % WALK_REPORT_FILES === 0) {
          progress?.(`listing the project's files: ${files.length.toLocaleString("en")} so far`);
        }
      }
      // Symbolic links and special files (sockets, FIFOs) are left out.
    }
  }
  return files;
}

/** How many files a walk lists between two progress messages. */
export const WALK_REPORT_FILES = 10_000;

/**
 * A function that lets the event loop run once the thread has been held for a slice (see
 * {@linkcode YIELD_EVERY_MS}) since it last did.
 */
export function yielder(): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last <= _sliceMs()) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Another call running: it has the thread to itself for a while (up to YIELD_BESIDE_WAIT_MS).
    for (const end = performance.now() + YIELD_BESIDE_WAIT_MS; performance.now() < end;) {
      if (callsRunning() <= 1) break;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    last = performance.now();
  };
}

/**
 * Runs `steps` (a generator that yields between slices of its work) to its end, letting the event
 * loop run every few milliseconds: long work of the main thread that other calls do not wait for.
 */
export async function yielding<T>(steps: Generator<unknown, T>): Promise<T> {
  const turn = yielder();
  for (let step = steps.next();; step = steps.next()) {
    if (step.done) return step.value;
    await turn();
  }
}

/** Runs `steps` (see {@linkcode yielding}) to its end at once. */
export function atOnce<T>(steps: Generator<unknown, T>): T {
  for (let step = steps.next();; step = steps.next()) if (step.done) return step.value;
}

/** Paths sorted in runs of this many before they are merged (a few milliseconds each). */
const SORT_RUN = 4096;

/**
 * `paths` sorted as `Array.prototype.sort` sorts them (UTF-16 code units), in runs merged pairwise,
 * yielding to the event loop every few milliseconds: sorting a walk of 100,000 files at once held
 * the server's thread for over half a second on a loaded machine.
 */
export async function sortYielding(paths: string[]): Promise<string[]> {
  const turn = yielder();
  let runs: string[][] = [];
  for (let i = 0; i < paths.length; i += SORT_RUN) {
    runs.push(paths.slice(i, i + SORT_RUN).sort());
    await turn();
  }
  while (runs.length > 1) {
    const next: string[][] = [];
    for (let r = 0; r < runs.length; r += 2) {
      const [a, b] = [runs[r], runs[r + 1]];
      if (!b) {
        next.push(a);
        continue;
      }
      const out = new Array<string>(a.length + b.length);
      let [i, j, k] = [0, 0, 0];
      while (i < a.length && j < b.length) {
        out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
        if ((k & 4095) === 0) await turn();
      }
      while (i < a.length) out[k++] = a[i++];
      while (j < b.length) out[k++] = b[j++];
      next.push(out);
    }
    runs = next;
  }
  return runs[0] ?? [];
}
