/**
 * Whether the server is quiet: no call running, and none started or answered for a while.
 *
 * The MCP server notes each request's start and end here (`lib/mcp/server.ts`). Work that holds
 * the main thread for a while without being part of a call (starting find's search worker, whose
 * `new Worker` blocks the thread until the worker is up; a full garbage collection) waits for a
 * quiet moment, so no call waits behind it. A process that serves no calls (`localexec call`,
 * tests) is always quiet.
 */
let _running = 0;
let _lastAt = Number.NEGATIVE_INFINITY;

/** A request has arrived (call {@linkcode callEnded} when it is answered). */
export function callStarted(): void {
  _running++;
  _lastAt = performance.now();
}

/** A request noted by {@linkcode callStarted} has been answered. */
export function callEnded(): void {
  _running = Math.max(0, _running - 1);
  _lastAt = performance.now();
}

/** How many requests are being handled now. */
export function callsRunning(): number {
  return _running;
}

/** Milliseconds since the last request started or ended; 0 while one runs. */
export function quietMs(): number {
  return _running ? 0 : performance.now() - _lastAt;
}

/** How often {@linkcode whenQuiet} looks again while a call runs (at least). */
const RECHECK_MS = 50;

/** Makes `timer` one that never keeps the process up. */
export function unrefTimer(timer: ReturnType<typeof setTimeout>): void {
  // With node modules loaded, setTimeout gives a Node Timeout, whose own unref is the one that works.
  if (typeof timer === "number") Deno.unrefTimer(timer);
  else (timer as { unref?: () => void }).unref?.();
}

/**
 * Runs `work` once the server has been quiet for `ms` (at once if it already has been, in a timer
 * of its own). The timers never keep the process up. Returns a function that cancels it.
 */
export function whenQuiet(ms: number, work: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const quiet = quietMs();
    if (!_running && quiet >= ms) {
      timer = undefined;
      work();
      return;
    }
    // A call running: look again a while later; otherwise when the quiet stretch reaches `ms`.
    timer = setTimeout(check, quiet ? ms - quiet : Math.max(ms, RECHECK_MS));
    unrefTimer(timer);
  };
  timer = setTimeout(check, 0);
  unrefTimer(timer);
  return () => clearTimeout(timer);
}

/**
 * How long work may stay idle before it is let go: `fallback`, or the milliseconds the environment
 * variable `name` gives (`LOCALEXEC_FIND_IDLE_MS`, `LOCALEXEC_OUTLINE_IDLE_MS`: tests and
 * benchmarks) where the server may read the environment.
 */
export function idleMsFromEnv(name: string, fallback: number): number {
  let set: string | undefined;
  try {
    set = Deno.env.get(name);
  } catch {
    return fallback; // no permission to read the environment
  }
  const ms = Number(set);
  return set && Number.isFinite(ms) && ms >= 0 ? ms : fallback;
}
