/**
 * The fault suite's shared parts: how hard to push (short in `deno task test`, long in
 * `deno task test:faults`), printing each case's figures, finding processes, and a link-swap
 * attacker.
 *
 * Each case prints one line `FAULTS {"case":…,…}` with what it did and what it found, so a run's
 * figures can be read off its output.
 */

/** True under `deno task test:faults` (FAULTS=long): the full counts of the hardening issue. */
export const LONG = Deno.env.get("FAULTS") === "long";

/** `long` under `deno task test:faults`, else `short` (a quick pass inside `deno task test`). */
export function size(short: number, long: number): number {
  return LONG ? long : short;
}

/** Prints a case's figures as one line. */
export function figures(name: string, data: Record<string, unknown>): void {
  console.log(`FAULTS ${JSON.stringify({ case: name, ...data })}`);
}

/** Pids of the processes whose command line contains `text` (Linux `/proc`). */
export function processesWith(text: string): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`).replaceAll("\0", " ");
      if (cmd.includes(text)) out.push(Number(e.name));
    } catch {
      // gone already
    }
  }
  return out;
}

/** Kills the processes in `pids`, ignoring those already gone. */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Swaps two names atomically (`renameat2(RENAME_EXCHANGE)`) until killed. */
const EXCHANGE = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
print("ready", flush=True)
while True:
    if libc.renameat2(-100, a, -100, b, 2) != 0:
        sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
`;

/** A running attacker; `stop()` ends it. */
export interface Flipper {
  /** How the swap is done. */
  readonly how: string;
  stop(): Promise<void>;
}

/**
 * Starts swapping the entries at `a` and `b` as fast as the machine allows, from another process,
 * and resolves once the swapping is seen. Linux with python3 (the swap is one atomic syscall).
 */
export async function startFlipper(a: string, b: string): Promise<Flipper> {
  const child = new Deno.Command("python3", {
    args: ["-c", EXCHANGE, a, b],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  await reader.read(); // "ready"
  reader.releaseLock();
  const first = Deno.lstatSync(a).isSymlink;
  while (Deno.lstatSync(a).isSymlink === first) await sleep(1);
  return {
    how: "renameat2 RENAME_EXCHANGE in a loop",
    async stop() {
      child.kill("SIGKILL");
      await child.status;
      await child.stdout.cancel().catch(() => {});
    },
  };
}

/** True where the suite can run: Linux (`/proc`, `renameat2`) with python3 on the PATH. */
export const CAN_RUN = Deno.build.os === "linux" &&
  (() => {
    try {
      return new Deno.Command("python3", { args: ["-c", ""] }).outputSync().success;
    } catch {
      return false;
    }
  })();
