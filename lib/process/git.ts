/**
 * git as a helper for listings and searches: no shell, no prompt, no optional locks, no fsmonitor;
 * its stdout whole, split into NUL-separated entries, or streamed as it arrives. Every helper
 * answers undefined (or false) when git is missing or fails, so a caller can fall back to walking
 * the folders.
 */

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
