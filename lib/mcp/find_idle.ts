/**
 * find's memory goes back when find is not used: once no find has come for
 * {@linkcode FIND_IDLE_MS} (and then no call runs), its kept listing and search worker are
 * released (`lib/find/mod.ts`'s `releaseIdle`), as outline's worker ends when idle
 * (`lib/outline/host.ts`). The next find lists the project anew and starts a worker: on the 59k
 * tree that is a cold find's time again (BENCHMARKS.md, issue 36). The server tells this module of
 * every find answered (`main.ts`).
 */
import { idleMsFromEnv, unrefTimer, whenQuiet } from "../quiet.ts";

/**
 * How long find's listing and worker stay with no find before they go: as outline's worker
 * (docs/DECISIONS.md, issue 36). `LOCALEXEC_FIND_IDLE_MS` sets it (tests).
 */
export const FIND_IDLE_MS = 40_000;

/** How long no call may have run before the release (it must never end a running search). */
const QUIET_MS = 300;

let _timer: ReturnType<typeof setTimeout> | undefined;
let _cancelQuiet: (() => void) | undefined;
let _find: typeof import("../find/mod.ts") | undefined;

/** A find has been answered: find's idle clock starts again. */
export async function findAnswered(): Promise<void> {
  clearTimeout(_timer);
  _cancelQuiet?.();
  _find ??= await import("../find/mod.ts"); // loaded already: find has run
  _timer = setTimeout(() => {
    // Released in the same turn as the check that no call runs, so never under a running find.
    _cancelQuiet = whenQuiet(QUIET_MS, () => {
      _cancelQuiet = undefined;
      void _find?.releaseIdle();
    });
  }, idleMsFromEnv("LOCALEXEC_FIND_IDLE_MS", FIND_IDLE_MS));
  unrefTimer(_timer);
}
