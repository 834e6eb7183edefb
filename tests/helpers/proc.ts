/** Process facts the fault tests read from Linux `/proc`, and whether a process ends by itself. */

/** The state letter of `pid` (`R`, `S`, `T` for stopped, …), or undefined when it is gone. */
export function processState(pid: number): string | undefined {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}

/** How many worker threads process `pid` runs (Deno names a worker's thread `worker-N`). */
export function workerThreads(pid: number): number {
  let n = 0;
  for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      if (Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/comm`).startsWith("worker-")) n++;
    } catch {
      // the thread has just ended
    }
  }
  return n;
}

/**
 * Runs `code` with `deno eval` and throws unless the process ends by itself with code 0: a timer
 * or worker that kept it up gets it killed after 60 s (a signal, not code 0).
 */
export async function evalExits(code: string): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "null",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  if (out.code !== 0 || out.signal !== null) {
    throw new Error(
      `exit ${out.code} ${out.signal ?? ""}: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
}
