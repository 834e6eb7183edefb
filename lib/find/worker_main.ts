/**
 * The search worker's entry: its message loop ({@linkcode searchWorkerMain}), a search job run
 * under `node:vm`'s timeout ({@linkcode _runSearch}), the garbage it leaves collected, and a large
 * listing's sketches made while it has nothing else to do. `deno task manifest` bundles this
 * module with everything it imports into `worker.gen.js` (`scripts/worker_bundle.ts`), which
 * `worker_source.ts` hands to `new Worker` as a `data:` URL; it runs inside the worker only
 * (loading `node:vm` costs a thread about 35 ms), and nothing imports it.
 */
import vm from "node:vm";
import {
  BINARY_PROBE_BYTES,
  CHUNK_FILES,
  CTL_WORKERS,
  type ListingMessage,
  MAX_FILE_BYTES,
  PATH_STRING_BYTES,
  type SearchJob,
  SKETCH_IDLE_MS,
  SKETCH_SLICE_MS,
  type SketchRequest,
  SLICE_MS,
  type WorkerReply,
} from "./protocol.ts";
import { sketchBase, sketchFile, sketchScratch } from "./sketch.ts";
import { weighChunks } from "./weights.ts";
import {
  fileReader,
  garbageKeeper,
  listingView,
  searchSteps,
  summaryIndex,
  type WorkerState,
} from "./worker.ts";

/** A web worker's own scope (its `self`), as the worker uses it: messages in, replies out. */
export interface WorkerScope {
  onmessage: ((event: MessageEvent<ListingMessage | SearchJob | SketchRequest>) => void) | null;
  postMessage(reply: WorkerReply): void;
}

/** This thread's CPU time in ms (Linux), or NaN where it cannot be read. */
function _threadCpuMs(): number {
  try {
    const stat = Deno.readTextFileSync("/proc/thread-self/stat");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * Runs one search job over the worker's listing; returns the bytes of text it decoded (what it
 * leaves behind for the garbage collector).
 */
function _runSearch(job: SearchJob, state: WorkerState): number {
  const steps = searchSteps(job, state);
  const control = new Int32Array(job.control);
  const beat = CTL_WORKERS + 2 * job.slot;
  const post = state.post;
  let done = false;
  if (job.spec.literal !== undefined) {
    while (!done) done = steps.slice(SLICE_MS);
  } else {
    const guard = vm.createContext({ slice: () => done = steps.slice(SLICE_MS) });
    const step = new vm.Script("slice()");
    let retries = 0;
    while (!done) {
      const cpu = _threadCpuMs();
      try {
        step.runInContext(guard, { timeout: job.stallMs + SLICE_MS });
      } catch (err) {
        if ((err as { code?: string }).code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw err;
        const used = _threadCpuMs() - cpu;
        // Starved rather than stuck (under half the budget in CPU time): try the file again,
        // twice at most, so a stuck pattern still ends within a few seconds on a busy machine.
        if (!(used >= job.stallMs / 2) && retries++ < 2) continue;
        post({ type: "stalled", job: job.id, file: control[beat + 1] });
        control[beat + 1] = -1;
        return steps.decoded();
      }
    }
  }
  control[beat + 1] = -1;
  post({ type: "done", job: job.id, slot: job.slot });
  return steps.decoded();
}

/**
 * glibc's `malloc_trim`, once looked up. glibc's malloc keeps the pages it frees, in one arena per
 * thread that allocated (Rust's buffers: git's output and the walk on the main thread, this
 * worker's file calls, messages); `malloc_trim` hands every arena's free pages back (on the
 * 59k-file tree, the server's memory after 50 finds went from +43–49 MB over idle to +36–41). It
 * needs native code (`--allow-ffi`, which the full preset `-A` grants) and glibc; otherwise
 * nothing is done.
 */
function _trimmer(): () => void {
  let trim: (() => void) | null | undefined;
  return (): void => {
    if (trim === undefined) {
      trim = null;
      try {
        if (Deno.permissions.querySync({ name: "ffi" }).state === "granted") {
          const libc = Deno.dlopen(
            "libc.so.6",
            {
              malloc_trim: { parameters: ["usize"], result: "i32" },
            } as const,
          );
          trim = () => void libc.symbols.malloc_trim(0n);
        }
      } catch {
        // not glibc (or no libc.so.6): nothing to trim
      }
    }
    trim?.();
  };
}

/** A large listing's sketches made a slice at a time (see {@linkcode _sketcher}). */
interface Sketcher {
  /** Sketching goes on after {@linkcode SKETCH_IDLE_MS}; `busy` (when given) holds it back. */
  later(root: string, busy?: SharedArrayBuffer): void;
  /** A message came: sketching waits. */
  stop(): void;
  /** A new listing: sketching starts again from its first file. */
  restart(): void;
}

/**
 * A large listing's sketches (`sketch.ts`): the first worker reads the files one after the other
 * while it has nothing else to do, a slice at a time; a message stops it, and it goes on once a
 * search has been over for a while.
 */
function _sketcher(current: () => WorkerState | undefined): Sketcher {
  let sketching: ReturnType<typeof setTimeout> | undefined;
  let sketched = 0; // the next file of the listing to sketch
  let busy: Int32Array | undefined; // set while a search is coming: see `SketchRequest.busy`
  let scratch: ReturnType<typeof sketchScratch> | undefined; // (768 KB, once a listing is large)
  const sketch = (root: string): void => {
    const state = current();
    const view = state?.view;
    const memory = view?.message.sketch;
    const sketchEnds = view?.message.sketchEnds;
    if (!state || !view || !memory || !sketchEnds) return;
    const count = view.count;
    const all = new Uint8Array(memory); // (grows with the memory)
    const ends = new Uint32Array(sketchEnds);
    const base = sketchBase(count);
    // Each file's size as read (see `ListingMessage.sizes`), and how many are done, last.
    const sizes = view.message.sizes ? new Uint32Array(view.message.sizes) : undefined;
    scratch ??= sketchScratch();
    const buffer = state.reader.buffer;
    const started = performance.now();
    if (sketched === 0) Atomics.store(ends, count, 0); // (a new worker starts again)
    while (
      sketched < count && performance.now() - started < SKETCH_SLICE_MS &&
      !(busy && Atomics.load(busy, 0))
    ) {
      const i = sketched++;
      let end = i === 0 ? 0 : ends[i - 1];
      all[i] = 0;
      const size = state.reader.read(`${root}/${view.pathAt(i)}`, false);
      if (sizes) sizes[i] = Math.max(0, size); // (gone: nothing to read)
      if (size >= 0 && size <= MAX_FILE_BYTES) {
        if (buffer.subarray(0, Math.min(size, BINARY_PROBE_BYTES)).indexOf(0) >= 0) {
          if (sizes) sizes[i] = 0; // (no search reads a binary file past its NULs)
        } else {
          const length = sketchFile(buffer, size, scratch);
          const need = base + end + length;
          if (need > memory.byteLength && need <= memory.maxByteLength) {
            memory.grow(Math.min(memory.maxByteLength, need + (need >>> 3)));
          }
          if (need <= memory.byteLength) {
            all.set(scratch.out.subarray(0, length), base + end);
            all[i] = scratch.head;
            end += length;
          }
        }
      }
      ends[i] = end;
      Atomics.store(ends, count, i + 1);
    }
    if (sketched < count) sketching = setTimeout(() => sketch(root), 0);
    else if (sizes && view.message.chunkWeights && !Atomics.load(sizes, count)) {
      // Every file sketched: the chunks weighed from their sizes, then said to be (once).
      const packed = { paths: view.message.paths, ends: view.message.ends };
      const { chunks } = weighChunks(sizes.subarray(0, count), packed, CHUNK_FILES);
      new Float64Array(view.message.chunkWeights).set(chunks);
      Atomics.store(sizes, count, count);
    }
  };
  return {
    later(root: string, memory?: SharedArrayBuffer): void {
      if (memory) busy = new Int32Array(memory);
      sketching = setTimeout(() => sketch(root), SKETCH_IDLE_MS);
    },
    stop(): void {
      clearTimeout(sketching);
    },
    restart(): void {
      sketched = 0;
    },
  };
}

/** The worker's entry point: installs the message handler on `port` (the worker's `self`). */
export function searchWorkerMain(port: WorkerScope): void {
  const reader = fileReader();
  let state: WorkerState | undefined;

  // A search's garbage is collected at a quiet moment, or at once after much (`garbageKeeper`).
  let collect: ((options?: { type: "minor" }) => void) | undefined;
  const keeper = garbageKeeper(() => {
    try {
      return collect ??= vm.runInNewContext("gc") as () => void;
    } catch {
      return undefined; // not exposed (yet): nothing to do
    }
  }, _trimmer());
  const sketcher = _sketcher(() => state);

  let idle: ReturnType<typeof setTimeout> | undefined;
  port.onmessage = (event) => {
    const message = event.data;
    clearTimeout(idle);
    sketcher.stop();
    if (message.type === "sketch") {
      sketcher.later(message.root, message.busy);
      return;
    }
    if (message.type === "listing") {
      if (state?.view.message.id !== message.id) sketcher.restart();
      state = {
        reader,
        view: listingView(message),
        sums: summaryIndex(message, reader.buffer),
        post: (reply) => {
          if (reply.type === "chunk") keeper.made(PATH_STRING_BYTES * reply.files);
          port.postMessage(reply);
        },
      };
      return;
    }
    keeper.busy();
    try {
      if (!state || state.view.message.id !== message.listing) {
        throw new Error("the worker lost its listing");
      }
      keeper.searched(_runSearch(message, state));
    } catch (err) {
      port.postMessage(
        {
          type: "failed",
          job: message.id,
          message: err instanceof Error ? err.message : String(err),
        } satisfies WorkerReply,
      );
    }
    idle = setTimeout(
      () => port.postMessage({ type: "idle", job: message.id } satisfies WorkerReply),
      message.idleMs,
    );
    if (message.sketch) sketcher.later(message.root, message.busy);
  };
  port.postMessage({ type: "online" });
}

searchWorkerMain(self as unknown as WorkerScope);
