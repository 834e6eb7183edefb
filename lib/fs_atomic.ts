/**
 * Atomic file writes: a temporary file in the same folder, then a rename over the target.
 *
 * The rename replaces whatever sits at the target (a symlink planted after validation included)
 * instead of following it, and a reader never sees a half-written file.
 */
import { basename, dirname, join } from "./deps.ts";

/** Options for {@linkcode writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Permission bits for the file; when absent, an existing file keeps its mode, a new one gets 0o644. */
  mode?: number;
}

/** Writes `data` to `path` atomically and returns the mode the file ends up with. */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<number> {
  let mode = options.mode;
  if (mode === undefined) {
    try {
      const info = await Deno.lstat(path);
      mode = info.isFile && info.mode !== null ? info.mode & 0o7777 : 0o644;
    } catch {
      mode = 0o644;
    }
  }
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const suffix = crypto.randomUUID().slice(0, 8);
  const tmp = join(dirname(path), `.${basename(path).slice(0, 100)}.${suffix}.localexec-tmp`);
  try {
    await Deno.writeFile(tmp, bytes, { createNew: true, mode });
    await Deno.chmod(tmp, mode); // the umask may have narrowed it
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
  return mode;
}
