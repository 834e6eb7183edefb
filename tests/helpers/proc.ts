/** Process facts the fault tests read from Linux `/proc`. */

/** The state letter of `pid` (`R`, `S`, `T` for stopped, …), or undefined when it is gone. */
export function processState(pid: number): string | undefined {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}
