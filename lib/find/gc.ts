/**
 * Gives back the memory find's calls leave behind on the main thread.
 *
 * Listing a large tree makes tens of megabytes of short-lived strings and arrays (git's output,
 * the paths, their packing), and every call leaves some garbage (the request, the answer, git's
 * output); V8 frees them in its next collections but keeps the pages, so the server's memory
 * stays up by about 100 MB on a 59k-file tree after a listing, and about 10 MB more after 50 warm
 * calls. One full collection, run once the answer has gone out (at most one per
 * {@linkcode COLLECT_DELAY_MS}, and after a warm call only when the heap has grown by
 * {@linkcode CALL_GARBAGE_BYTES}), returns those pages; on that tree it takes 10–15 ms.
 * `gc` is V8's own, reached through `node:v8` and
 * `node:vm` (no permission needed); where it is not available nothing is done.
 */
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

/** How long after a cold listing the collection runs. */
export const COLLECT_DELAY_MS = 100;

/**
 * A call's collection runs only when the heap in use has grown by this much since the last one:
 * a warm search leaves a few hundred kilobytes, and a full collection with a 59k-file listing
 * kept costs 10–15 ms of the main thread (over 100 ms on a loaded machine), which the next call,
 * arriving meanwhile, waited for.
 */
export const CALL_GARBAGE_BYTES = 8 * 1024 * 1024;

/** Heap in use right after the last collection (0: none yet). */
let _heapAfter = 0;

let _pending: ReturnType<typeof setTimeout> | undefined;
/** The pending collection is a cold listing's (tens of megabytes), not one call's few. */
let _big = false;

/**
 * Runs one full collection `delayMs` from now, once the answer has gone out; the timer never keeps
 * the process up, so a one-shot `call` exits without paying for it. `big`: after a cold listing,
 * when the next call runs it at once instead if the timer has not fired (see
 * {@linkcode collectPending}); `gc` is loaded now for that.
 */
export function collectSoon(delayMs = COLLECT_DELAY_MS, big = false): void {
  if (!big && _heapAfter && Deno.memoryUsage().heapUsed - _heapAfter < CALL_GARBAGE_BYTES) return;
  if (big) {
    _big = true;
    void _collector();
  }
  if (_pending !== undefined) return;
  const timer = setTimeout(async () => {
    _pending = undefined;
    _big = false;
    _collected(await _collector());
  }, delayMs);
  // With node modules loaded, setTimeout gives a Node Timeout, whose own unref is the one that works.
  if (typeof timer === "number") Deno.unrefTimer(timer);
  else (timer as { unref?: () => void }).unref?.();
  _pending = timer;
}

/**
 * Runs now a cold listing's collection that is still waiting for its timer: in a quick burst of
 * calls the timer fires only after the burst, and a server asked 50 times in 0.4 s was 40 MB
 * fuller right after the last answer than 100 ms later. The call that runs it pays the collection
 * (about 40 ms after a 59k-file listing) before its own work.
 */
export function collectPending(): void {
  if (_pending === undefined || !_big || !_gc) return;
  clearTimeout(_pending);
  _pending = undefined;
  _big = false;
  _collected(_gc);
}

/** Runs `gc` (when there is one) and notes the heap it leaves. */
function _collected(gc: (() => void) | null): void {
  if (!gc) return;
  gc();
  _heapAfter = Deno.memoryUsage().heapUsed;
}
