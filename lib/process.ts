/**
 * Runs a child process in its own process group, with a timeout, cancellation and bounded output.
 *
 * stdout and stderr are merged in order (the command runs under `sh` with `2>&1`). Only a head and a
 * tail of the output stay in memory, so a command printing gigabytes keeps the server flat; the
 * whole stream can be copied to a sink (a log file) as it arrives. On timeout or cancellation the
 * whole group is killed, and when the command exits its leftover background children are too.
 */

/** What to run: a shell string for `sh -c`, or an argv array run directly. */
export type Command = string | readonly string[];

/** Options for {@linkcode runProcess}. */
export interface RunOptions {
  cwd: string;
  /** Seconds before the group is killed. */
  timeoutS: number;
  /** Data written to the child's stdin, which is then closed; stdin is empty otherwise. */
  stdin?: string;
  signal?: AbortSignal;
  /** Bytes of output kept from the start and, separately, from the end. Default 16 KiB each. */
  keepBytes?: number;
  /** Receives every chunk of output as it arrives (for example a log file writer). */
  sink?: (chunk: Uint8Array) => void | Promise<void>;
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
}

const GRACE_MS = 150;

/** Kills the process group led by `pid`, ignoring a group that is already gone. */
export function killGroup(pid: number, signal: Deno.Signal = "SIGKILL"): void {
  try {
    Deno.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function _argv(command: Command): string[] {
  // `exec 2>&1` merges stderr into stdout in order; an argv array is passed through "$@" untouched.
  if (typeof command === "string") return ["-c", `exec 2>&1\n${command}`];
  return ["-c", 'exec 2>&1; exec "$@"', "sh", ...command];
}

/** Keeps the first and last `keep` bytes of a stream. */
class HeadTail {
  head: Uint8Array[] = [];
  headLen = 0;
  tail: Uint8Array[] = [];
  tailLen = 0;
  total = 0;
  constructor(readonly keep: number) {}

  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    if (this.headLen < this.keep) {
      const take = chunk.subarray(0, this.keep - this.headLen);
      this.head.push(take);
      this.headLen += take.length;
      chunk = chunk.subarray(take.length);
      if (!chunk.length) return;
    }
    this.tail.push(chunk);
    this.tailLen += chunk.length;
    while (this.tail.length > 1 && this.tailLen - this.tail[0].length >= this.keep) {
      this.tailLen -= this.tail.shift()!.length;
    }
  }

  text(): { output: string; dropped: number } {
    const dec = new TextDecoder();
    const head = dec.decode(_concat(this.head));
    let tail = _concat(this.tail);
    const dropped = Math.max(0, this.total - this.headLen - Math.min(tail.length, this.keep));
    if (tail.length > this.keep) tail = tail.subarray(tail.length - this.keep);
    if (!dropped) return { output: head + dec.decode(tail), dropped: 0 };
    return {
      output: `${head}\n[… ${dropped} bytes of output cut …]\n${dec.decode(tail)}`,
      dropped,
    };
  }
}

function _concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Waits for `p` at most `ms` milliseconds; true when it settled in time. */
async function _within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((r) => timer = setTimeout(() => r(false), ms));
  try {
    return await Promise.race([p.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `command` and resolves when it has ended, been killed, or been cancelled. Never rejects on exit codes. */
export async function runProcess(command: Command, options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const child = new Deno.Command("sh", {
    args: _argv(command),
    cwd: options.cwd,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    detached: true,
    env: options.env,
  }).spawn();
  const buffer = new HeadTail(options.keepBytes ?? 16 * 1024);
  let timedOut = false;
  let cancelled = false;
  let hardKill: ReturnType<typeof setTimeout> | undefined;

  const stop = (why: "timeout" | "cancel") => {
    if (timedOut || cancelled) return;
    if (why === "timeout") timedOut = true;
    else cancelled = true;
    killGroup(child.pid, "SIGTERM");
    hardKill = setTimeout(() => killGroup(child.pid, "SIGKILL"), GRACE_MS);
  };
  const timer = setTimeout(() => stop("timeout"), Math.max(0, options.timeoutS * 1000));
  const onAbort = () => stop("cancel");
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });

  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    writer.write(new TextEncoder().encode(options.stdin)).then(() => writer.close()).catch(
      () => {},
    );
  }

  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const pump = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      buffer.push(r.value);
      if (options.sink) await options.sink(r.value);
    }
  };
  const reading = Promise.all(readers.map(pump)).catch(() => {});
  const status = await child.status;
  // Background children may still hold the pipes open: give them a moment, then end the group.
  const drained = await _within(reading, GRACE_MS);
  killGroup(child.pid, "SIGKILL");
  if (!drained && !(await _within(reading, 1000))) {
    // Something outside the group still holds the pipes: stop listening to it.
    await Promise.all(readers.map((r) => r.cancel().catch(() => {})));
  }
  clearTimeout(timer);
  clearTimeout(hardKill);
  options.signal?.removeEventListener("abort", onAbort);
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
  };
}
