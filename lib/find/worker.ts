/**
 * find's search worker, as one self-contained function.
 *
 * The worker runs from a `data:` URL built by `worker_source.ts` out of this function's source and
 * the scanner's, so it needs no read permission on the program's own files (the read-only preset
 * grants read on the project only) and `deno compile` needs no extra `--include`. Everything the
 * function uses must therefore be a global, a constant or a function that `worker_source.ts`
 * writes into the same source.
 *
 * It claims chunks of the file list through the shared control memory, reads each file once into
 * a reused buffer, skips binary, large and non-UTF-8 files, and posts each chunk's matching lines.
 * It bumps its heartbeat after every file, so the main thread can tell a pattern that is stuck.
 *
 * The work runs in slices of about {@linkcode SLICE_MS} under `node:vm`'s timeout, which
 * interrupts even a regular expression stuck backtracking: `Worker.terminate()` does not (the
 * thread would spin on, at full CPU, for the life of the server). A slice that overruns posts
 * `stalled` with the file it was reading, and the worker stops.
 */
import { Buffer } from "node:buffer";
import vm from "node:vm";
import { makeScanner } from "./scan.ts";
import {
  BINARY_PROBE_BYTES,
  CTL_NEXT_CHUNK,
  CTL_STOP,
  CTL_WORKERS,
  MAX_FILE_BYTES,
  type SearchJob,
  type SkipCounts,
  SLICE_MS,
  type WorkerReply,
} from "./protocol.ts";

/** The worker's entry point: installs the message handler. Runs inside the worker only. */
export function searchWorkerMain(): void {
  const scope = globalThis as unknown as {
    onmessage: ((event: MessageEvent<SearchJob>) => void) | null;
    postMessage(reply: WorkerReply): void;
  };
  const buffer = new Uint8Array(MAX_FILE_BYTES + 4);
  const words = new Uint32Array(buffer.buffer);
  const decoder = new TextDecoder("utf-8", { fatal: true });

  // Most source files are plain ASCII: checking that (4 bytes at a time) and making a one-byte
  // string is about twice as fast as a validating UTF-8 decode, which the rest still get.
  const text = (size: number): string => {
    const whole = size >>> 2;
    let bits = 0;
    for (let i = 0; i < whole; i++) bits |= words[i];
    for (let i = whole << 2; i < size; i++) bits |= buffer[i];
    if ((bits & 0x80808080) === 0) return Buffer.from(buffer.buffer, 0, size).toString("latin1");
    return decoder.decode(buffer.subarray(0, size));
  };

  // One read: a regular file only reads short at its end, so a full buffer means too large.
  // -1 when the file cannot be read (gone, a folder).
  const read = (path: string): number => {
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(path);
    } catch {
      return -1;
    }
    try {
      return file.readSync(buffer.subarray(0, MAX_FILE_BYTES + 1)) ?? 0;
    } catch {
      return -1;
    } finally {
      file.close();
    }
  };

  // One chunk being searched: where it stands, what it found so far.
  type Open = { chunk: number; i: number; end: number; lines: string[]; at: number[] };

  const run = (job: SearchJob): void => {
    const control = new Int32Array(job.control);
    const beat = CTL_WORKERS + 2 * job.slot;
    const scanner = makeScanner(job.spec);
    const chunks = Math.ceil(job.files.length / job.chunkSize);
    const skipped: SkipCounts = [0, 0, 0];
    let open: Open | undefined;
    let done = false;

    // Searches files until the job is done or a slice of time is used up.
    const slice = (): void => {
      const started = performance.now();
      while (performance.now() - started < SLICE_MS) {
        if (Atomics.load(control, CTL_STOP)) {
          done = true;
          return;
        }
        if (!open) {
          const chunk = Atomics.add(control, CTL_NEXT_CHUNK, 1);
          if (chunk >= chunks) {
            done = true;
            return;
          }
          const end = Math.min(job.files.length, (chunk + 1) * job.chunkSize);
          open = { chunk, i: chunk * job.chunkSize, end, lines: [], at: [] };
        }
        const o: Open = open;
        if (o.i >= o.end || o.lines.length >= job.limit) {
          control[beat]++;
          scope.postMessage({
            type: "chunk",
            job: job.id,
            chunk: o.chunk,
            lines: o.lines,
            at: o.at,
            skipped: [skipped[0], skipped[1], skipped[2]],
          });
          skipped.fill(0);
          open = undefined;
          continue;
        }
        const i = o.i++;
        control[beat + 1] = i;
        control[beat]++;
        const rel = job.files[i];
        const size = read(`${job.root}/${rel}`);
        if (size < 0) continue;
        if (size > MAX_FILE_BYTES) {
          skipped[1]++;
          continue;
        }
        if (buffer.subarray(0, Math.min(size, BINARY_PROBE_BYTES)).indexOf(0) >= 0) {
          skipped[0]++;
          continue;
        }
        let content: string;
        try {
          content = text(size);
        } catch {
          skipped[2]++;
          continue;
        }
        for (const hit of scanner.scan(content, job.limit - o.lines.length)) {
          o.lines.push(`${rel}:${hit.line}:${hit.text}`);
          o.at.push(i);
        }
      }
    };

    const guard = vm.createContext({ slice });
    const step = new vm.Script("slice()");
    try {
      while (!done) step.runInContext(guard, { timeout: job.stallMs + SLICE_MS });
    } catch (err) {
      if ((err as { code?: string }).code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw err;
      scope.postMessage({ type: "stalled", job: job.id, file: control[beat + 1] });
      return;
    }
    control[beat + 1] = -1;
    scope.postMessage({ type: "done", job: job.id });
  };

  scope.onmessage = (event) => {
    try {
      run(event.data);
    } catch (err) {
      scope.postMessage({
        type: "failed",
        job: event.data.id,
        message: err instanceof Error ? err.message : String(err),
      });
    }
  };
}
