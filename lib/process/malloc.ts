/**
 * glibc's malloc, told to give memory back: a server that sits beside a client all day should
 * return to near its idle size once a burst of work is over (issue 36).
 *
 * By default glibc raises its thresholds as a program frees large blocks (the "dynamic" mmap and
 * trim thresholds, up to 32 MB and 64 MB), so after the first large blocks are freed, blocks of
 * hundreds of kilobytes come from the heaps and can stay there once freed: 60 s after a burst of
 * finds, four of the threads' heaps still held 23–30 MB (`/proc/PID/smaps`; which buffers they
 * were was not traced). With both thresholds fixed at {@linkcode THRESHOLD_BYTES}, a block
 * that large is its own mapping, unmapped when freed, and a heap's free top over that size is
 * handed back at once. On the 59k-file tree (`deno task bench memory`, BENCHMARKS.md), the server
 * 60 s after 50 finds and 20 outlines went from 118–122 MB to 95, an idle one from 98 to 84.
 *
 * find's worker also calls `malloc_trim` after its collections (`lib/find/worker_main.ts`). It
 * takes native calls: `--allow-ffi`, which the full preset `-A` grants, and glibc (Linux).
 * Elsewhere, or without the permission, nothing is changed and nothing fails.
 */

/** glibc's `mallopt` parameters (malloc.h). */
const M_TRIM_THRESHOLD = -1;
const M_MMAP_THRESHOLD = -3;

/** Both thresholds: glibc's own starting value for the mmap threshold, kept from growing. */
export const THRESHOLD_BYTES = 128 * 1024;

/**
 * Fixes glibc's thresholds (see the module comment); true when they were set. Called once, as the
 * server starts, before its workers run.
 */
export function tuneMalloc(): boolean {
  try {
    if (Deno.build.os !== "linux") return false;
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return false;
    const { symbols } = Deno.dlopen(
      "libc.so.6",
      { mallopt: { parameters: ["i32", "i32"], result: "i32" } } as const,
    );
    return symbols.mallopt(M_MMAP_THRESHOLD, THRESHOLD_BYTES) === 1 &&
      symbols.mallopt(M_TRIM_THRESHOLD, THRESHOLD_BYTES) === 1;
  } catch {
    return false; // not glibc (musl has no libc.so.6), or native calls refused: malloc as it is
  }
}
