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
  const tmp = join(dirname(path), _tempName(basename(path)));
  try {
    // createNew refuses to open anything already there, a planted symlink included.
    using file = await Deno.open(tmp, { write: true, createNew: true, mode });
    let done = 0;
    while (done < bytes.length) done += await file.write(bytes.subarray(done));
    await file.syncData();
    await Deno.chmod(tmp, mode); // the umask may have narrowed it
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
  return mode;
}

/**
 * A hidden temporary name next to the target. The target's name is cut to 40 code points, so the
 * result stays under the 255-byte name limit whatever the script (4 bytes per code point at most).
 */
function _tempName(name: string): string {
  const head = Array.from(name).slice(0, 40).join("");
  return `.${head}.${crypto.randomUUID().slice(0, 8)}.localexec-tmp`;
}
