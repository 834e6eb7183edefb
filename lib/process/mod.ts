/**
 * Child processes: the runner (`run.ts`: a command in its own process group, with a timeout,
 * cancellation and bounded output), git as a helper (`git.ts`), and the watchdog that makes every
 * command die with the server (`watchdog.ts`), and whether a command can start at all (`probe.ts`).
 */
export { type Command, mayRun, type RunOptions, runProcess, type RunResult } from "./run.ts";
export { cannotStart, type StartProblem } from "./probe.ts";
export { gitChunks, gitEntries, type GitOptions, gitOutput, gitStream } from "./git.ts";
export {
  currentWatchdog,
  MARKER_VAR,
  startWatchdog,
  wantWatchdog,
  type Watchdog,
} from "./watchdog.ts";
