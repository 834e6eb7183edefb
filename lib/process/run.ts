/**
 * Runs a child process in its own process group, with a timeout, cancellation and bounded output.
 *
 * stdout and stderr are merged in order (the command runs under `sh` with `2>&1`). Only a head and a
 * tail of the output stay in memory, so a command printing gigabytes keeps the server flat; the
 * whole stream can be copied to a sink (a log file) as it arrives. On timeout or cancellation the
 * whole group is killed (SIGTERM, then SIGKILL), and when the command exits its leftover
 * background children are too. A process that leaves the group (`setsid`) is found by the marker
 * in its environment and killed by the server's watchdog (`watchdog.ts`; Linux); the call returns at most
 * about a second after the command ended either way.
 */
import { HeadTail } from "../output.ts";
import { commandWatchdog, MARKER_VAR } from "./watchdog.ts";

/** What to run: a shell string for `sh -c`, or an argv array run directly. */
export type Command = string | readonly string[];

/** Options for {@linkcode runProcess}. */
export interface RunOptions {
  cwd: string;
  /** Seconds before the group is killed; a non-finite value means no limit. */
  timeoutS: number;
  /** Data written to the child's stdin, which is then closed; stdin is empty otherwise. */
  stdin?: string;
  signal?: AbortSignal;
  /** Bytes of output kept from the start and, separately, from the end. Default 16 KiB each. */
  keepBytes?: number;
  /**
   * Receives every chunk of output as it arrives (for example a log file writer). If it throws,
   * it is not called again and the run goes on; `sinkError` says what happened.
   */
  sink?: (chunk: Uint8Array) => void | Promise<void>;
  /** Extra environment variables, on top of the server's own. */
  env?: Record<string, string>;
}

/** What happened to the process. */
export interface RunResult {
  /** Exit code, or null when it was killed by a signal. */
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Head and tail of the merged output, with a marker where the middle was dropped. */
  output: string;
  /** Total bytes the command printed. */
  totalBytes: number;
  /** Bytes dropped from the middle of `output`. */
  droppedBytes: number;
  secs: number;
  /** Set when the sink threw: its message. */
  sinkError?: string;
}

/** Time between SIGTERM and SIGKILL, and how long exited commands may take to flush. */
const GRACE_MS = 150;
/** How long output may keep flowing after the group was killed before we stop listening. */
const DRAIN_MS = 1000;
const DRAIN_CANCELLED_MS = 250;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Kills the process group led by `pid`, ignoring a group that is already gone. */
function killGroup(pid: number, signal: Deno.Signal = "SIGKILL"): void {
  try {
    Deno.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function _argv(command: Command): string[] {
  // `exec 2>&1` merges stderr into stdout in order. A string runs as `sh -c command` exactly (so
  // error line numbers and `$0` are what the user expects); an argv array goes through "$@".
  if (typeof command === "string") return ["-c", 'exec 2>&1; exec sh -c "$1"', "sh", command];
  return ["-c", 'exec 2>&1; exec "$@"', "sh", ...command];
}

function _spawn(command: Command, options: RunOptions, marker?: string): Deno.ChildProcess {
  try {
    return new Deno.Command("sh", {
      args: _argv(command),
      cwd: options.cwd,
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
      env: marker ? { ...options.env, [MARKER_VAR]: marker } : options.env,
    }).spawn();
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (/no such cwd/i.test(msg)) {
      throw new Deno.errors.NotFound(`working folder "${options.cwd}" does not exist`);
    }
    if (/not a directory/i.test(msg)) {
      throw new Deno.errors.NotADirectory(`working folder "${options.cwd}" is not a folder`);
    }
    if (/argument list too long/i.test(msg)) {
      throw new RangeError("command is too long to run (at most 128 KiB per argument)");
    }
    throw err;
  }
}

/** Writes `text` to the child's stdin and closes it; `stop` gives up on a reader that never reads. */
function _feed(stream: WritableStream<Uint8Array>, text: string) {
  const writer = stream.getWriter();
  const done = writer.write(new TextEncoder().encode(text)).then(() => writer.close())
    .catch(() => writer.abort().catch(() => {}));
  return {
    async stop() {
      if (!(await _within(done, 50))) await writer.abort().catch(() => {});
      await done;
    },
  };
}

function _notStarted(started: number): RunResult {
  const secs = Math.round((performance.now() - started) / 10) / 100;
  const empty = { output: "", totalBytes: 0, droppedBytes: 0 };
  return { code: null, signal: null, timedOut: false, cancelled: true, ...empty, secs };
}

/** Waits for `p` at most `ms` milliseconds; true when it settled in time. */
async function _within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((r) => timer = setTimeout(() => r(false), ms));
  try {
    return await Promise.race([p.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `command` and resolves when it has ended, been killed, or been cancelled. Never rejects on
 * exit codes; throws only when the command cannot be started (missing `cwd`, argument too long).
 */
export async function runProcess(command: Command, options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const buffer = new HeadTail(options.keepBytes ?? 16 * 1024);
  if (options.signal?.aborted) return _notStarted(started);
  const watchdog = commandWatchdog();
  const marker = watchdog?.nextMarker();
  const child = _spawn(command, options, marker);
  watchdog?.track(child.pid, true);
  let timedOut = false;
  let cancelled = false;
  let hardKill: ReturnType<typeof setTimeout> | undefined;
  let sinkError: string | undefined;

  const stop = (why: "timeout" | "cancel") => {
    if (timedOut || cancelled) return;
    if (why === "timeout") timedOut = true;
    else cancelled = true;
    killGroup(child.pid, "SIGTERM");
    hardKill = setTimeout(() => killGroup(child.pid, "SIGKILL"), GRACE_MS);
  };
  const ms = options.timeoutS * 1000;
  const timer = Number.isFinite(ms)
    ? setTimeout(() => stop("timeout"), Math.min(Math.max(0, ms), MAX_TIMER_MS))
    : undefined;
  const onAbort = () => stop("cancel");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const feeding = options.stdin === undefined ? undefined : _feed(child.stdin, options.stdin);

  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const pump = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      buffer.push(r.value);
      if (!options.sink || sinkError !== undefined) continue;
      try {
        await options.sink(r.value);
      } catch (err) {
        sinkError = err instanceof Error ? err.message : String(err);
      }
    }
  };
  const reading = Promise.all(readers.map((r) => pump(r).catch(() => {})));
  const status = await child.status;
  clearTimeout(timer);
  options.signal?.removeEventListener("abort", onAbort);
  // Background children may still hold the pipes open: give them a moment, then end the group.
  const drained = await _within(reading, cancelled ? 0 : GRACE_MS);
  killGroup(child.pid, "SIGKILL");
  clearTimeout(hardKill);
  if (watchdog) {
    watchdog.killMarked(marker!); // what left the group with setsid
    watchdog.track(child.pid, false);
  }
  if (!drained && !(await _within(reading, cancelled ? DRAIN_CANCELLED_MS : DRAIN_MS))) {
    // Something outside the group still holds the pipes: stop listening to it.
    await Promise.all(readers.map((r) => r.cancel().catch(() => {})));
    await _within(reading, DRAIN_MS); // a sink that never returns must not hang the call
  }
  await feeding?.stop();
  const { output, dropped } = buffer.text();
  return {
    code: status.signal ? null : status.code,
    signal: status.signal ?? null,
    timedOut,
    cancelled,
    output,
    totalBytes: buffer.total,
    droppedBytes: dropped,
    secs: Math.round((performance.now() - started) / 10) / 100,
    ...(sinkError === undefined ? {} : { sinkError }),
  };
}

/** True when Deno lets this process run `command` (never prompts). */
export function mayRun(command: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "run", command }).state === "granted";
  } catch {
    return false;
  }
}
