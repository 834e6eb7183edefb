/**
 * find's search worker, as one self-contained function.
 *
 * The worker runs from a `data:` URL built by `worker_source.ts` out of this function's source and
 * the scanner's, so it needs no read permission on the program's own files (the read-only preset
 * grants read on the project only) and `deno compile` needs no extra `--include`. Everything the
 * function uses must therefore be a global, an import `worker_source.ts` writes, a constant or a
 * function that it writes into the same source.
 *
 * The worker lives while searches keep coming: it keeps the latest listing it was sent (the paths
 * in shared memory) and answers search jobs over it; idle for the job's `idleMs`, it posts `idle`
 * and the pool ends it. It claims chunks of the list through the shared control memory, checks
 * the folders that vouch for each chunk (their modification times), reads each file once into a
 * reused buffer, skips binary and large files, and posts each chunk's matching lines.
 *
 * A listing kept for later searches (small enough) also keeps a summary of every file read whole:
 * which runs of three bytes it holds (hashed into 8,192 bits) and the file's `lstat` identity. A
 * later search whose text cannot be in a file, by its summary, skips the file after one `lstat`
 * (under any preset short of `-A`, Deno resolves the real path of every file it opens, which costs
 * more than reading it). A file that changed since is read again, and summarized again.
 *
 * A plain text pattern is searched in the raw bytes (no string is made, so memory stays flat);
 * only a file that contains it is checked for NUL bytes and decoded (and counted `binary` or
 * `not_utf8` when it is one). A regular expression is tried only on files holding its required text, in slices under
 * `node:vm`'s timeout, which interrupts even a regular expression stuck backtracking. A slice that
 * overruns is judged by the work it did, not the clock: when this thread got less CPU time than
 * half the budget (a loaded machine), the file is tried again (twice at most); only then, or when
 * the work really used the budget, it posts `stalled`. Plain text cannot backtrack, so it runs without a timeout.
 */
import type { Buffer as NodeBuffer } from "node:buffer";
import type NodeVm from "node:vm";
import type { MessagePort } from "node:worker_threads";
import { globMatches } from "../glob/mod.ts";
import { holdsPast } from "./read.ts";
import { makeScanner } from "./scan.ts";
import {
  BINARY_PROBE_BYTES,
  CHUNK_FILES,
  COLLECT_AFTER_BYTES,
  COMMON_BYTES,
  CTL_NEXT_CHUNK,
  CTL_STOP,
  CTL_WORKERS,
  type ListingMessage,
  MAX_FILE_BYTES,
  RACY_MS,
  type SearchJob,
  type SkipCounts,
  SLICE_MS,
  SUMMARY_BYTES,
  TIME_STEP_MS,
  type WorkerReply,
} from "./protocol.ts";

// Imported by the worker's source (`worker_source.ts`), not here: the server's start-up does not
// load these node modules for a function it only turns into text.
declare const Buffer: typeof NodeBuffer;
declare const vm: typeof NodeVm;
declare const parentPort: MessagePort | null;

/** The worker's entry point: installs the message handler. Runs inside the worker only. */
export function searchWorkerMain(): void {
  const port = parentPort!;
  const post = (reply: WorkerReply) => port.postMessage(reply);
  const buffer = new Uint8Array(MAX_FILE_BYTES + 4);
  const words = new Uint32Array(buffer.buffer);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let listing: ListingMessage | undefined;
  let mtimes: Float64Array<ArrayBufferLike> = new Float64Array(0);
  let pathBytes: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  let pathEnds: Int32Array<ArrayBufferLike> = new Int32Array(0);
  let sums: Uint8Array<ArrayBufferLike> | undefined;
  let stamps: Float64Array<ArrayBufferLike> = new Float64Array(0);
  const pathDecoder = new TextDecoder();
  // Path `i` of the listing (each ends one byte before the next starts: the NUL between them);
  // plain ASCII is made into a string in JavaScript, a third of a decoder call's cost.
  const pathAt = (i: number): string => {
    const bytes = pathBytes.subarray(i ? pathEnds[i - 1] : 0, pathEnds[i] - 1);
    for (let k = 0; k < bytes.length; k++) {
      if (bytes[k] > 127) return pathDecoder.decode(bytes);
    }
    return String.fromCharCode.apply(null, bytes as unknown as number[]);
  };

  const latin1 = (size: number): string => Buffer.from(buffer.buffer, 0, size).toString("latin1");

  // Plain ASCII (checked 4 bytes at a time) becomes a one-byte string; the rest is decoded.
  const text = (size: number): string => {
    const whole = size >>> 2;
    let bits = 0;
    for (let i = 0; i < whole; i++) bits |= words[i];
    for (let i = whole << 2; i < size; i++) bits |= buffer[i];
    if ((bits & 0x80808080) === 0) return latin1(size);
    return decoder.decode(buffer.subarray(0, size));
  };

  // One read: a regular file only reads short at its end, so a full buffer means too large.
  // -1 when the file cannot be read (gone, a folder). With `stat`, what was read is kept in
  // `opened` (the open file's own stat, so it describes exactly what was read).
  let opened: Deno.FileInfo | undefined;
  const read = (path: string, stat: boolean): number => {
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(path);
    } catch {
      return -1;
    }
    try {
      const size = file.readSync(buffer.subarray(0, MAX_FILE_BYTES + 1)) ?? 0;
      opened = stat ? file.statSync() : undefined;
      return size;
    } catch {
      return -1;
    } finally {
      file.close();
    }
  };

  // ── Summaries (see `ListingMessage.sums`): 8,192 bits per file, one per hashed 3-byte run.
  const gram = (h: number): number => Math.imul(h & 0xffffff, 0x9e3779b1) >>> 19;
  // Records what file `i` holds (the first `size` bytes of the buffer) and what it was.
  const summarize = (i: number, size: number, info: Deno.FileInfo, began: number): void => {
    // Deno gives the change time in whole seconds (and FAT keeps times in 2-second steps): a file
    // changed within the last step (plus the clocks' lag) before the read is not summarized, as a
    // later change in the same step would keep every time the same. (Or unknown: no summary.)
    const ctime = info.ctime?.getTime();
    if (ctime === undefined || !(ctime + TIME_STEP_MS + RACY_MS < began) || info.ino === null) {
      return;
    }
    const bits = sums!.subarray(i * SUMMARY_BYTES, (i + 1) * SUMMARY_BYTES);
    bits.fill(0);
    let h = (buffer[0] << 8) | buffer[1];
    for (let k = 2; k < size; k++) {
      h = (h << 8) | buffer[k];
      const g = gram(h);
      bits[g >>> 3] |= 1 << (g & 7);
    }
    stamps[4 * i] = info.mtime?.getTime() ?? 0;
    stamps[4 * i + 2] = info.size;
    stamps[4 * i + 3] = info.ino;
    stamps[4 * i + 1] = ctime; // last: a summary counts once its change time is set
  };
  // Whether file `i` still is what its summary was made of (lstat: no open, no read).
  const unchanged = (i: number, path: string): boolean => {
    if (!stamps[4 * i + 1]) return false;
    try {
      const info = Deno.lstatSync(path);
      return info.ctime?.getTime() === stamps[4 * i + 1] &&
        (info.mtime?.getTime() ?? 0) === stamps[4 * i] && info.size === stamps[4 * i + 2] &&
        info.ino === stamps[4 * i + 3];
    } catch {
      return false;
    }
  };
  // The bits a file's summary must all have to hold `text` (case-sensitive), or undefined when
  // the text is too short to say anything.
  const gramsOf = (text: string): Int32Array | undefined => {
    const bytes = new TextEncoder().encode(text);
    if (bytes.length < 3) return undefined;
    const set = new Set<number>();
    for (let k = 2; k < bytes.length; k++) {
      set.add(gram((bytes[k - 2] << 16) | (bytes[k - 1] << 8) | bytes[k]));
    }
    return Int32Array.from(set);
  };
  const mayHold = (i: number, grams: Int32Array): boolean => {
    const at = i * SUMMARY_BYTES;
    for (let k = 0; k < grams.length; k++) {
      const g = grams[k];
      if (!(sums![at + (g >>> 3)] & (1 << (g & 7)))) return false;
    }
    return true;
  };

  // This thread's CPU time in ms (Linux), or NaN where it cannot be read.
  const cpuMs = (): number => {
    try {
      const stat = Deno.readTextFileSync("/proc/thread-self/stat");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return (Number(f[11]) + Number(f[12])) * 10;
    } catch {
      return NaN;
    }
  };

  // Whether the folders that vouch for `chunk` still hold what the listing says.
  const vouch = (chunk: number): boolean => {
    const l = listing!;
    let stale = false;
    for (let k = l.checkFrom[chunk]; k < l.checkFrom[chunk + 1]; k++) {
      let m: number; // 0: absent
      try {
        m = Deno.lstatSync(l.checks[k]).mtime?.getTime() ?? 0;
      } catch {
        m = 0;
      }
      if (Number.isNaN(mtimes[k])) mtimes[k] = m >= l.startedAt - RACY_MS ? -1 : m;
      if (mtimes[k] !== m) stale = true; // -1 (maybe changed while listed) never equals a time
    }
    return stale;
  };

  // The text every match contains, as a test on the first `size` bytes of the buffer: the raw
  // bytes are searched for the needle's rarest byte (native indexOf), then compared; with
  // ignore_case, an ASCII needle is tried on the bytes read as a one-byte string.
  const bytePrefilter = (job: SearchJob): ((size: number) => boolean) | undefined => {
    const text = job.spec.literal ?? job.spec.prefilter;
    if (text === undefined) return undefined;
    if (!job.spec.flags.includes("i")) {
      const needle = new TextEncoder().encode(text);
      let rare = 0;
      let rank = -1;
      for (let k = 0; k < needle.length; k++) {
        const common = COMMON_BYTES.indexOf(String.fromCharCode(needle[k]));
        const r = common < 0 ? COMMON_BYTES.length : common;
        if (r > rank) [rare, rank] = [k, r];
      }
      const byte = needle[rare];
      return (size) => {
        const hay = buffer.subarray(0, size);
        for (let i = hay.indexOf(byte, rare); i >= 0; i = hay.indexOf(byte, i + 1)) {
          const start = i - rare;
          if (start + needle.length > size) return false;
          let k = 0;
          while (k < needle.length && hay[start + k] === needle[k]) k++;
          if (k === needle.length) return true;
        }
        return false;
      };
    }
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return undefined;
    const re = new RegExp(text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"), "i");
    return (size) => re.test(latin1(size));
  };

  // One chunk being searched: where it stands, what it found so far.
  type Open = {
    chunk: number;
    i: number;
    end: number;
    lines: string[];
    at: number[];
    files: number;
    read: number;
    stale: boolean;
  };

  // A search that decoded much text (a regular expression reads files as strings) leaves that
  // much garbage in this worker's heap, which V8 keeps, pages and all, until its own next full
  // collection: one collection once the answer is out, with V8's `gc` (exposed by the main
  // thread's gc.ts; a new context sees it). Over 50 searches on a 59k-file tree that mix plain
  // words and regular expressions, the server stayed +70–79 MB over idle instead of +90–98.
  let decoded = 0;
  let collect: (() => void) | undefined;
  const collectIfDecoded = (): void => {
    if (decoded < COLLECT_AFTER_BYTES) return;
    decoded = 0;
    try {
      collect ??= vm.runInNewContext("gc") as () => void;
      collect();
    } catch {
      // not exposed (yet): nothing to do
    }
  };

  const run = (job: SearchJob): void => {
    if (!listing || listing.id !== job.listing) throw new Error("the worker lost its listing");
    const count = listing.ends.byteLength >> 2;
    const control = new Int32Array(job.control);
    const beat = CTL_WORKERS + 2 * job.slot;
    const scanner = makeScanner(job.spec);
    const prefilter = bytePrefilter(job);
    // Bytes the prefilter's text spans (UTF-8 takes at most 3 per UTF-16 unit).
    const prefilterWidth = 3 * (job.spec.literal ?? job.spec.prefilter ?? "").length;
    const needle = job.spec.literal ?? job.spec.prefilter;
    const grams = sums && needle !== undefined && !job.spec.flags.includes("i")
      ? gramsOf(needle)
      : undefined;
    const glob = job.glob;
    const globRe = glob ? new RegExp(glob.source) : undefined;
    const only = job.only;
    const total = only ? only.length : count;
    const listingChunks = Math.ceil(count / CHUNK_FILES);
    const chunks = only ? Math.max(1, Math.ceil(total / CHUNK_FILES)) : listingChunks;
    const skipped: SkipCounts = [0, 0, 0];
    // A chunk of `only` vouches for the listing's chunks after the previous one's, up to its own.
    const vouchOnly = (chunk: number, end: number): boolean => {
      // Within the job's range (all of the listing unless it says otherwise; [0, -1]: none).
      const [first, last] = job.vouch ?? [0, count - 1];
      const from = Math.max(
        Math.floor(first / CHUNK_FILES),
        chunk === 0 ? 0 : Math.floor(only![chunk * CHUNK_FILES - 1] / CHUNK_FILES) + 1,
      );
      const to = Math.min(
        listingChunks - 1,
        Math.floor(last / CHUNK_FILES),
        chunk === chunks - 1 ? Infinity : Math.floor(only![end - 1] / CHUNK_FILES),
      );
      let stale = false;
      for (let k = from; k <= to; k++) stale = vouch(k) || stale;
      return stale;
    };
    let open: Open | undefined;
    let done = false;

    const searchFile = (o: Open, i: number): void => {
      const rel = pathAt(i);
      if (glob && !globMatches(globRe!, glob, rel)) return;
      o.files++;
      const path = `${job.root}/${rel}`;
      const known = sums !== undefined && unchanged(i, path);
      if (known && grams && !mayHold(i, grams)) return; // it cannot hold the text
      const began = Date.now();
      const size = read(path, sums !== undefined && !known);
      o.read++;
      if (size < 0) return;
      if (opened && size <= MAX_FILE_BYTES) summarize(i, size, opened, began);
      if (size > MAX_FILE_BYTES) {
        // Counted when it holds the text anywhere (or when a regex requires no text).
        if (
          !prefilter || prefilter(MAX_FILE_BYTES) ||
          holdsPast(path, buffer, prefilterWidth, prefilter)
        ) skipped[1]++;
        return;
      }
      if (prefilter && !prefilter(size)) return; // (binary or not: it cannot match)
      if (buffer.subarray(0, Math.min(size, BINARY_PROBE_BYTES)).indexOf(0) >= 0) {
        skipped[0]++;
        return;
      }
      let content: string;
      try {
        content = text(size);
        decoded += size;
      } catch {
        skipped[2]++;
        return;
      }
      for (const hit of scanner.scan(content, job.limit - o.lines.length)) {
        o.lines.push(`${rel}:${hit.line}:${hit.text}`);
        o.at.push(i);
      }
    };

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
          const end = Math.min(total, (chunk + 1) * CHUNK_FILES);
          const stale = only ? vouchOnly(chunk, end) : vouch(chunk);
          open = {
            chunk,
            i: chunk * CHUNK_FILES,
            end,
            lines: [],
            at: [],
            files: 0,
            read: 0,
            stale,
          };
        }
        const o: Open = open;
        if (o.i >= o.end || o.lines.length >= job.limit) {
          control[beat]++;
          post({
            type: "chunk",
            job: job.id,
            chunk: o.chunk,
            lines: o.lines,
            at: o.at,
            skipped: [skipped[0], skipped[1], skipped[2]],
            files: o.files,
            read: o.read,
            cut: o.lines.length >= job.limit,
            stale: o.stale,
          });
          skipped.fill(0);
          open = undefined;
          continue;
        }
        const index = only ? only[o.i] : o.i;
        control[beat + 1] = index;
        control[beat]++;
        searchFile(o, index);
        o.i++; // only now: a file interrupted by the timeout is searched again
      }
    };

    if (job.spec.literal !== undefined) {
      while (!done) slice();
    } else {
      const guard = vm.createContext({ slice });
      const step = new vm.Script("slice()");
      let retries = 0;
      while (!done) {
        const cpu = cpuMs();
        try {
          step.runInContext(guard, { timeout: job.stallMs + SLICE_MS });
        } catch (err) {
          if ((err as { code?: string }).code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw err;
          const used = cpuMs() - cpu;
          // Starved rather than stuck (under half the budget in CPU time): try the file again,
          // twice at most, so a stuck pattern still ends within a few seconds on a busy machine.
          if (!(used >= job.stallMs / 2) && retries++ < 2) continue;
          post({ type: "stalled", job: job.id, file: control[beat + 1] });
          control[beat + 1] = -1;
          return;
        }
      }
    }
    control[beat + 1] = -1;
    post({ type: "done", job: job.id, slot: job.slot });
    collectIfDecoded();
  };

  let idle: ReturnType<typeof setTimeout> | undefined;
  port.on("message", (message: ListingMessage | SearchJob) => {
    clearTimeout(idle);
    if (message.type === "listing") {
      listing = message;
      mtimes = new Float64Array(message.mtimes);
      pathBytes = new Uint8Array(message.paths);
      pathEnds = new Int32Array(message.ends);
      sums = message.sums ? new Uint8Array(message.sums) : undefined;
      stamps = new Float64Array(message.stamps ?? new ArrayBuffer(0));
      return;
    }
    try {
      run(message);
    } catch (err) {
      post({
        type: "failed",
        job: message.id,
        message: err instanceof Error ? err.message : String(err),
      });
    }
    idle = setTimeout(() => post({ type: "idle", job: message.id }), message.idleMs);
  });
}
