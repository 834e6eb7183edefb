/**
 * Runs a child process in its own process group, with a timeout, cancellation and bounded output.
 *
 * stdout and stderr are merged in order (the command runs under `sh` with `2>&1`). Only a head and a
 * tail of the output stay in memory, so a command printing gigabytes keeps the server flat; the
 * whole stream can be copied to a sink (a log file) as it arrives. On timeout or cancellation the
 * whole group is killed (SIGTERM, then SIGKILL), and when the command exits its leftover
 * background children are too. A process that leaves the group (`setsid`) is found by the marker
 * in its environment and killed by the server's watchdog (below; Linux); the call returns at most
 * about a second after the command ended either way.
 */
import { HeadTail } from "./output.ts";

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
  const watchdog = _commandWatchdog();
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

/** Options for {@linkcode gitOutput} and {@linkcode gitEntries}. */
export interface GitOptions {
  signal?: AbortSignal;
  /** Exit code 1 means "nothing found" (as for `git grep`): an empty list, not a failure. */
  emptyOnExit1?: boolean;
}

/** `git ARGS` in `root`: no shell, no prompt, no optional locks, no fsmonitor; stdout piped. */
function _git(root: string, args: readonly string[], signal?: AbortSignal): Deno.Command {
  return new Deno.Command("git", {
    args: ["-c", "core.fsmonitor=false", ...args],
    cwd: root,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    env: { GIT_OPTIONAL_LOCKS: "0" },
    signal,
  });
}

/**
 * Runs `git ARGS` in `root` (see {@linkcode _git}) and returns its stdout as
 * bytes, or undefined when git is missing, fails, or the signal stops it.
 */
export async function gitOutput(
  root: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<Uint8Array | undefined> {
  try {
    const out = await _git(root, args, options.signal).output();
    if (out.code === 1 && options.emptyOnExit1) return new Uint8Array(0);
    if (!out.success) return undefined;
    return out.stdout;
  } catch {
    return undefined;
  }
}

/**
 * {@linkcode gitOutput} split at NUL bytes (pass `-z` in `args`), without empty entries.
 */
export async function gitEntries(
  root: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<string[] | undefined> {
  const out = await gitOutput(root, args, options);
  return out && new TextDecoder().decode(out).split("\0").filter((e) => e !== "");
}

/**
 * Runs `git ARGS` in `root` as {@linkcode gitOutput} does, and yields its stdout as it arrives, in
 * the chunks the pipe gives (never one large buffer). Returns true when git succeeded (or, with
 * `emptyOnExit1`, found nothing), false when it is missing or failed. Stopping the iteration, or
 * the signal, ends git.
 */
export async function* gitChunks(
  root: string,
  args: readonly string[],
  options: GitOptions = {},
): AsyncGenerator<Uint8Array, boolean> {
  let child: Deno.ChildProcess;
  try {
    child = _git(root, args, options.signal).spawn();
  } catch {
    return false;
  }
  const reader = child.stdout.getReader();
  let ended = false;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      yield value;
    }
    ended = true;
  } catch {
    // the signal, or a read error: git is ended below
  } finally {
    if (!ended) {
      try {
        child.kill();
      } catch {
        // already gone
      }
      await reader.cancel().catch(() => {});
      await child.status;
    }
  }
  if (!ended) return false;
  const status = await child.status;
  return status.success || (status.code === 1 && options.emptyOnExit1 === true);
}

/**
 * {@linkcode gitChunks} as NUL-separated entries (pass `-z`), in batches: all that came since the
 * consumer last asked.
 */
export async function* gitStream(
  root: string,
  args: readonly string[],
  options: GitOptions = {},
): AsyncGenerator<string[], boolean> {
  const decoder = new TextDecoder();
  const chunks = gitChunks(root, args, options);
  let rest = "";
  try {
    let step: IteratorResult<Uint8Array, boolean>;
    while (!(step = await chunks.next()).done) {
      const text = rest + decoder.decode(step.value, { stream: true });
      const cut = text.lastIndexOf("\0");
      rest = text.slice(cut + 1);
      if (cut >= 0) yield text.slice(0, cut).split("\0").filter((e) => e !== "");
    }
    if (step.value && rest) yield [rest];
    return step.value;
  } finally {
    await chunks.return(false);
  }
}

// ── The watchdog ───────────────────────────────────────────────────────────────────────────────
/*
 * Commands this server starts die with it, however it dies.
 *
 * Deno cannot ask the kernel for a parent-death signal (`prctl(PR_SET_PDEATHSIG)`), and cgroups
 * are rarely writable by a user (and absent on macOS). So the server starts one small `sh` in its
 * own session, which reads the server's messages on its stdin: `+<pgid>` when a command's process
 * group starts, `-<pgid>` when it is over, `x<marker>` to kill every process carrying a marker. When
 * its stdin ends — the server exited or was killed, even with SIGKILL — it kills the groups still
 * running (SIGTERM, then SIGKILL) and every process carrying the server's marker.
 *
 * The marker is an environment variable, `LOCALEXEC_RUN=<server id>.<call>.`, which every command
 * and its children inherit; it finds processes that left their group with `setsid`. Finding them
 * reads `/proc/<pid>/environ` (Linux); elsewhere only process groups are killed. A process that
 * also clears its environment escapes, as does anything a command hands to another service
 * (`systemd-run`, `at`, a daemon over a socket): `--allow-run` can do that whatever we do.
 *
 * Only `sh` (and `grep`, `sleep`, `kill` from it) runs, so `--allow-run=sh` is enough.
 */

/** The environment variable that marks every process a command starts. */
export const MARKER_VAR = "LOCALEXEC_RUN";

/** Kills every process whose environment carries `LOCALEXEC_RUN=<$1>` (Linux), up to 3 rounds. */
const KILL_MARKED = `_kill_marked() {
  [ -r /proc/self/environ ] || return 0
  for _round in 1 2 3; do
    _found=
    for _f in $(grep -l -s -F "${MARKER_VAR}=$1" /proc/[0-9]*/environ 2>/dev/null); do
      _p=\${_f#/proc/}; _p=\${_p%/environ}
      [ "$_p" = "$$" ] && continue
      kill -KILL "$_p" 2>/dev/null && _found=1
    done
    [ -n "$_found" ] || return 0
  done
}`;

/** The watchdog's script; `$1` is the server's marker. */
const SCRIPT = `${KILL_MARKED}
groups=" "
while IFS= read -r line; do
  id=\${line#?}
  case "$line" in
    +*) groups="$groups$id " ;;
    -*) case "$groups" in *" $id "*) groups="\${groups%% $id *} \${groups#* $id }" ;; esac ;;
    x*) _kill_marked "$id" ;;
  esac
done
for g in $groups; do kill -TERM "-$g" 2>/dev/null; done
[ "$groups" = " " ] || sleep 0.2
for g in $groups; do kill -KILL "-$g" 2>/dev/null; done
_kill_marked "$1."
`;

/** A running watchdog. */
export interface Watchdog {
  /** This server's marker; each command gets `<marker>.<n>.`. */
  readonly marker: string;
  /** Process id of the watchdog's `sh`. */
  readonly pid: number;
  /** A new marker for one command. */
  nextMarker(): string;
  /** Reports that the process group `pgid` started (`true`) or is over (`false`). */
  track(pgid: number, running: boolean): void;
  /** Asks the watchdog to kill every process that carries `marker` (it does so in the background). */
  killMarked(marker: string): void;
  /** Ends the watchdog as if the server had exited: what still runs is killed. */
  stop(): Promise<void>;
}

let _current: Watchdog | undefined;
let _wanted = false;

/**
 * Says that the commands this process runs need the watchdog. The first of them starts it, not
 * before: until a command runs there is nothing to kill, and a server answers its first requests
 * without waiting for an `sh` to start.
 */
export function wantWatchdog(): void {
  _wanted = true;
}

/** The watchdog of this process, when one was started. */
export function currentWatchdog(): Watchdog | undefined {
  return _current;
}

/** The watchdog a command starting now reports to: started here when it is wanted (above). */
function _commandWatchdog(): Watchdog | undefined {
  if (!_current && _wanted) {
    _wanted = false; // once: without `sh` no command can run either
    return startWatchdog();
  }
  return _current;
}

/**
 * Starts this process's watchdog (once; later calls return the same one). Returns undefined when
 * `sh` cannot be run (no `--allow-run`): then no command can run either.
 */
export function startWatchdog(): Watchdog | undefined {
  if (_current) return _current;
  const marker = crypto.randomUUID();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("sh", {
      args: ["-c", SCRIPT, "localexec-watchdog", marker],
      stdin: "piped",
      stdout: "null",
      stderr: "null",
      detached: true, // its own session: a signal to the server's group does not reach it
    }).spawn();
  } catch {
    return undefined;
  }
  child.unref();
  const writer = child.stdin.getWriter();
  const enc = new TextEncoder();
  let writing = Promise.resolve();
  let stopped = false;
  const send = (line: string) => {
    if (stopped) return;
    writing = writing.then(() => writer.write(enc.encode(`${line}\n`))).catch(() => {});
  };
  let n = 0;
  const dog: Watchdog = {
    marker,
    pid: child.pid,
    nextMarker: () => `${marker}.${++n}.`,
    track: (pgid, running) => send(`${running ? "+" : "-"}${pgid}`),
    killMarked: (m) => send(`x${m}`),
    async stop() {
      if (stopped) return;
      stopped = true;
      await writing;
      await writer.close().catch(() => {});
      child.ref(); // unref'd while it watched; now wait for it to finish its killing
      await child.status;
      if (_current === dog) _current = undefined;
    },
  };
  _current = dog;
  return dog;
}
