/**
 * The buffer outline reads a file into, kept for the next file.
 *
 * A fresh buffer costs a page fault for every 4 KB the first time it is written: glibc hands a
 * block over 128 KB out as new pages (`lib/process/malloc.ts`), and a fault costs 13–14 µs on the
 * 2-core VMs this runs on. `Deno.readFile` of a 591 KB `.d.ts` made two such copies (290 faults,
 * 4.7–6.1 ms of a fresh outline); read into a kept buffer it takes 0.6–0.8 ms. The buffer goes to
 * outline's worker with the request and comes back with the answer (`host.ts`), and is let go
 * when the worker ends ({@linkcode dropKeptBuffer}).
 */

/** Buffers are made in whole steps of this many bytes, so a file that grew a little still fits. */
const GRAIN = 64 * 1024;

let _kept: ArrayBuffer | undefined;

/** The kept buffer when it holds at least `bytes`, else a new one; the caller owns it now. */
function _take(bytes: number): ArrayBuffer {
  const kept = _kept;
  if (kept && kept.byteLength >= bytes) {
    _kept = undefined;
    return kept;
  }
  return new ArrayBuffer(Math.ceil(bytes / GRAIN) * GRAIN);
}

/**
 * Reads the whole file at `abs` (`size` bytes when it was looked at) into the kept buffer (or a
 * new one when it is out or too small, or the file has grown), returning a view of its bytes.
 * Give the buffer back with {@linkcode keepBuffer} once done with them.
 */
export async function readKept(abs: string, size: number): Promise<Uint8Array> {
  // One byte more than the size: a read that fills it means the file has grown since.
  let buffer = _take(size + 1);
  using file = await Deno.open(abs);
  let n = 0;
  for (;;) {
    if (n === buffer.byteLength) {
      const larger = _take(n * 2);
      new Uint8Array(larger).set(new Uint8Array(buffer));
      buffer = larger;
    }
    const got = await file.read(new Uint8Array(buffer, n));
    if (got === null) break;
    n += got;
  }
  return new Uint8Array(buffer, 0, n);
}

/**
 * Keeps `buffer` for the next read when it is larger than the one kept (a buffer handed to a
 * worker and not given back is detached, of length 0, and is not kept).
 */
export function keepBuffer(buffer: ArrayBufferLike): void {
  if (!(buffer instanceof ArrayBuffer)) return;
  if (buffer.byteLength > (_kept?.byteLength ?? 0)) _kept = buffer;
}

/** Lets the kept buffer go (outline's worker has ended: its memory goes back too). */
export function dropKeptBuffer(): void {
  _kept = undefined;
}
