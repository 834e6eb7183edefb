/**
 * The watchdog: commands this server starts die with it, however it dies.
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

/**
 * The watchdog a command starting now reports to (`run.ts`): started here when it is wanted
 * ({@linkcode wantWatchdog}).
 */
export function commandWatchdog(): Watchdog | undefined {
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
