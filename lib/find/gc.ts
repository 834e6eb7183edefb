/**
 * Gives back the memory find's calls leave behind on the main thread.
 *
 * Listing a large tree makes tens of megabytes of short-lived strings and arrays (git's output,
 * the paths, their packing), and every call leaves some garbage (the request, the answer, git's
 * output); V8 frees them in its next collections but keeps the pages, so the server's memory
 * stays up by about 100 MB on a 59k-file tree after a listing, and about 10 MB more after 50 warm
 * calls. One full collection, run once the answer has gone out and the server has been quiet for
 * {@linkcode COLLECT_DELAY_MS} (`lib/quiet.ts`: never while a call runs, nor between two calls of a
 * burst), and after a warm call only when the heap has grown by {@linkcode CALL_GARBAGE_BYTES},
 * returns those pages; on that tree it takes 10–15 ms, after a cold listing of 100,000 files
 * 100–360 ms (Deno's `gc` runs two full collections). `gc` is V8's own, reached through `node:v8`
 * and `node:vm` (no permission needed); where it is not available nothing is done.
 */
import { callsRunning, whenQuiet } from "../quiet.ts";

let _gc: (() => void) | null | undefined;

/** V8's `gc`; `node:v8` and `node:vm` are loaded here, not by a process that never collects. */
async function _collector(): Promise<(() => void) | null> {
  if (_gc === undefined) {
    try {
      const [{ default: v8 }, { default: vm }] = await Promise.all([
        import("node:v8"),
        import("node:vm"),
      ]);
      v8.setFlagsFromString("--expose-gc");
      const gc = vm.runInNewContext("gc");
      _gc = typeof gc === "function" ? gc : null;
    } catch {
      _gc = null;
    }
  }
  return _gc ?? null;
}

/** How long the server must have had no call before the collection runs. */
export const COLLECT_DELAY_MS = 300;

/**
 * A call's collection runs only when the heap in use has grown by this much since the last one:
 * a warm search leaves a few hundred kilobytes, and a full collection with a 59k-file listing
 * kept costs 10–15 ms of the main thread (over 100 ms on a loaded machine), which the next call,
 * arriving meanwhile, waited for.
 */
export const CALL_GARBAGE_BYTES = 8 * 1024 * 1024;

/** Heap in use right after the last collection (0: none yet). */
let _heapAfter = 0;

/** Cancels the collection waiting for a quiet moment. */
let _pending: (() => void) | undefined;

/**
 * Runs one full collection once the answer has gone out and the server has been quiet for
 * `delayMs`; the timers never keep the process up, so a one-shot `call` exits without paying for
 * it. `big`: after a cold listing (`gc` is loaded now, so that the next find can run it, see
 * {@linkcode collectPending}).
 */
export function collectSoon(delayMs = COLLECT_DELAY_MS, big = false): void {
  if (!big && _heapAfter && Deno.memoryUsage().heapUsed - _heapAfter < CALL_GARBAGE_BYTES) return;
  if (big) void _collector();
  if (_pending !== undefined) return;
  _pending = whenQuiet(delayMs, async () => {
    _pending = undefined;
    _collected(await _collector());
  });
}

/**
 * Runs now a collection still waiting for a quiet moment, when the find calling this is the only
 * call running: in a burst of finds the quiet comes only after the burst, and a server asked 50
 * times in 0.4 s was 40 MB fuller right after the last answer than 100 ms later. The find that
 * runs it pays the collection (about 40 ms after a 59k-file listing) before its own work; a call
 * beside it would wait as long, so with another call running it waits on.
 */
export function collectPending(): void {
  if (_pending === undefined || !_gc || callsRunning() > 1) return;
  _pending();
  _pending = undefined;
  _collected(_gc);
}

let _count = 0;

/** How many collections have run (tests). */
export function collections(): number {
  return _count;
}

/** Runs `gc` (when there is one) and notes the heap it leaves. */
function _collected(gc: (() => void) | null): void {
  if (!gc) return;
  gc();
  _count++;
  _heapAfter = Deno.memoryUsage().heapUsed;
}
