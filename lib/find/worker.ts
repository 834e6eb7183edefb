/**
 * find's search worker's reading and matching, shared with the main thread's help (`help.ts`);
 * the worker's own loop is `worker_main.ts`, its entry, bundled with everything it imports into
 * `worker.gen.js` (see `worker_source.ts`).
 *
 * The worker lives while searches keep coming: it keeps the latest listing it was sent (the paths
 * in shared memory, {@linkcode listingView}) and answers search jobs over it (`runSearch` in `worker_main.ts`);
 * idle for the job's `idleMs`, it posts `idle` and the pool ends it. It claims chunks of the list
 * through the shared control memory (in path order, or in the job's `order` when it may answer
 * with any matches, after the job's `first` files), checks the folders that vouch for each chunk
 * (their modification times), reads each file once into a reused buffer ({@linkcode fileReader}),
 * skips binary and large files, and posts each chunk's matching lines.
 *
 * A listing kept for later searches (small enough) also keeps a summary of every file read whole
 * ({@linkcode summaryIndex}): which runs of three bytes it holds (hashed into 8,192 bits) and the
 * file's `lstat` identity. A later search whose text cannot be in a file, by its summary, skips
 * the file after one `lstat` (under any preset short of `-A`, Deno resolves the real path of every
 * file it opens, which costs more than reading it). A file that changed since is read again, and
 * summarized again.
 *
 * A plain text pattern is searched in the raw bytes ({@linkcode bytePrefilter}: no string is
 * made, so memory stays flat; with ignore_case too); only a file that contains it is checked for
 * NUL bytes and decoded (and counted `binary` or `not_utf8` when it is one). A regular expression
 * is tried only on files holding its required text, in slices under `node:vm`'s timeout, which
 * interrupts even a regular expression stuck backtracking. A slice that overruns is judged by the
 * work it did, not the clock: when this thread got less CPU time than half the budget (a loaded
 * machine), the file is tried again (twice at most); only then, or when the work really used the
 * budget, it posts `stalled`. Plain text cannot backtrack, so it runs without a timeout.
 */
import { Buffer } from "node:buffer";
import { globMatches } from "../glob/mod.ts";
import { direct, holdsPast, readInto } from "./read.ts";
import { packedPath } from "./packed.ts";
import { escapeRegExp, makeScanner, type MatcherSpec } from "./scan.ts";
import {
  BINARY_PROBE_BYTES,
  CHUNK_FILES,
  COLLECT_AFTER_BYTES,
  COLLECT_NOW_BYTES,
  COLLECT_QUIET_MS,
  COMMON_BYTES,
  CTL_FOUND,
  CTL_NEXT_CHUNK,
  CTL_SEEN,
  CTL_STOP,
  CTL_WORKERS,
  type JobReply,
  type ListingMessage,
  MAX_FILE_BYTES,
  RACY_MS,
  type SearchJob,
  type SkipCounts,
  SKIPPED_NAMED,
  SUMMARY_BYTES,
  TIME_STEP_MS,
  YOUNG_AFTER_BYTES,
} from "./protocol.ts";

/** One reused buffer that files are read into, and their text made from it. */
export interface FileReader {
  /** {@linkcode MAX_FILE_BYTES} + 4 bytes. */
  buffer: Uint8Array;
  /**
   * Reads `path` into the buffer in one read (a regular file only reads short at its end, so a
   * full buffer means too large); -1 when it cannot be read (gone, a folder). With `stat`, the
   * open file's own stat (exactly what was read) is kept in `opened`.
   */
  read(path: string, stat: boolean): number;
  opened: Deno.FileInfo | undefined;
  /** The first `size` bytes as a string: plain ASCII as a one-byte string, the rest decoded. */
  text(size: number): string;
}

/** The worker's file reader (see {@linkcode FileReader}). Throws on text that is not UTF-8. */
export function fileReader(): FileReader {
  const buffer = new Uint8Array(MAX_FILE_BYTES + 4);
  const words = new Uint32Array(buffer.buffer);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const latin1 = (size: number): string => Buffer.from(buffer.buffer, 0, size).toString("latin1");
  const reader: FileReader = {
    buffer,
    opened: undefined,
    read(path: string, stat: boolean): number {
      const holder: { info?: Deno.FileInfo } | undefined = stat ? {} : undefined;
      const size = readInto(path, buffer, holder);
      reader.opened = holder?.info;
      return size;
    },
    // Plain ASCII (checked 4 bytes at a time) becomes a one-byte string; the rest is decoded.
    text(size: number): string {
      const whole = size >>> 2;
      let bits = 0;
      for (let i = 0; i < whole; i++) bits |= words[i];
      for (let i = whole << 2; i < size; i++) bits |= buffer[i];
      if ((bits & 0x80808080) === 0) return latin1(size);
      return decoder.decode(buffer.subarray(0, size));
    },
  };
  return reader;
}

/** The listing a worker keeps, as it reads it: paths by index, and the folders that vouch. */
export interface ListingView {
  message: ListingMessage;
  /** Files in the listing. */
  count: number;
  /** Path `i` of the listing. */
  pathAt(i: number): string;
  /** True when a folder that vouches for `chunk` changed since the listing was made (or may have). */
  changed(chunk: number): boolean;
}

/** Reads the listing `message` (shared memory, see {@linkcode ListingMessage}). */
export function listingView(message: ListingMessage): ListingView {
  const mtimes = new Float64Array(message.mtimes);
  const decoder = new TextDecoder();
  const reader = (packed: { paths: SharedArrayBuffer; ends: SharedArrayBuffer }) => {
    const bytes = new Uint8Array(packed.paths);
    const ends = new Int32Array(packed.ends);
    return (i: number): string => packedPath(bytes, ends, i, decoder);
  };
  const pathAt = reader(message);
  const checkAt = reader(message.checks);
  return {
    message,
    count: message.ends.byteLength >> 2,
    pathAt,
    changed(chunk: number): boolean {
      let stale = false;
      for (let k = message.checkFrom[chunk]; k < message.checkFrom[chunk + 1]; k++) {
        let m: number; // 0: absent
        try {
          m = Deno.lstatSync(checkAt(k)).mtime?.getTime() ?? 0;
        } catch {
          m = 0;
        }
        if (Number.isNaN(mtimes[k])) mtimes[k] = m >= message.startedAt - RACY_MS ? -1 : m;
        if (mtimes[k] !== m) stale = true; // -1 (maybe changed while listed) never equals a time
      }
      return stale;
    },
  };
}

/** The per-file summaries of a small listing (see `ListingMessage.sums`), over `buffer`. */
export interface SummaryIndex {
  /** Records what file `i` holds (the first `size` bytes of the buffer) and what it was. */
  summarize(i: number, size: number, info: Deno.FileInfo, began: number): void;
  /** Whether file `i` still is what its summary was made of (lstat: no open, no read). */
  unchanged(i: number, path: string): boolean;
  /** The bits a summary must all have to hold `text` (case-sensitive); undefined when too short. */
  gramsOf(text: string): Int32Array | undefined;
  /** Whether file `i`'s summary has every bit of `grams`. */
  mayHold(i: number, grams: Int32Array): boolean;
}

/** The summaries of `message` (undefined when it keeps none): 8,192 bits per file, one per 3-byte run. */
export function summaryIndex(
  message: ListingMessage,
  buffer: Uint8Array,
): SummaryIndex | undefined {
  if (!message.sums) return undefined;
  const sums = new Uint8Array(message.sums);
  const stamps = new Float64Array(message.stamps ?? new ArrayBuffer(0));
  const gram = (h: number): number => Math.imul(h & 0xffffff, 0x9e3779b1) >>> 19;
  return {
    summarize(i: number, size: number, info: Deno.FileInfo, began: number): void {
      // Deno gives the change time in whole seconds (and FAT keeps times in 2-second steps): a
      // file changed within the last step (plus the clocks' lag) before the read is not
      // summarized, as a later change in the same step would keep every time the same.
      const ctime = info.ctime?.getTime();
      if (ctime === undefined || !(ctime + TIME_STEP_MS + RACY_MS < began) || info.ino === null) {
        return;
      }
      const bits = sums.subarray(i * SUMMARY_BYTES, (i + 1) * SUMMARY_BYTES);
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
    },
    unchanged(i: number, path: string): boolean {
      if (!stamps[4 * i + 1]) return false;
      try {
        const info = Deno.lstatSync(path);
        return info.ctime?.getTime() === stamps[4 * i + 1] &&
          (info.mtime?.getTime() ?? 0) === stamps[4 * i] && info.size === stamps[4 * i + 2] &&
          info.ino === stamps[4 * i + 3];
      } catch {
        return false;
      }
    },
    gramsOf(text: string): Int32Array | undefined {
      const bytes = new TextEncoder().encode(text);
      if (bytes.length < 3) return undefined;
      const set = new Set<number>();
      for (let k = 2; k < bytes.length; k++) {
        set.add(gram((bytes[k - 2] << 16) | (bytes[k - 1] << 8) | bytes[k]));
      }
      return Int32Array.from(set);
    },
    mayHold(i: number, grams: Int32Array): boolean {
      const at = i * SUMMARY_BYTES;
      for (let k = 0; k < grams.length; k++) {
        const g = grams[k];
        if (!(sums[at + (g >>> 3)] & (1 << (g & 7)))) return false;
      }
      return true;
    },
  };
}

/** A test of the first `size` bytes of the buffer for the text every match holds. */
export interface BytePrefilter {
  test(size: number): boolean;
  /** How many bytes the text spans. */
  width: number;
}

/**
 * The text every match of `spec` contains, as a test on the raw bytes of `buffer` (no string is
 * made): the needle's rarest byte is sought with the native `indexOf`, then the rest compared.
 * With ignore_case, an ASCII needle is sought by a case-insensitive regular expression in the
 * bytes made a one-byte string (a pattern without the `u` flag matches no other character to an
 * ASCII letter).
 * Undefined when no text is required, or when ignore_case meets a needle beyond ASCII or the `u`
 * flag (whose case folding maps other characters to ASCII letters): every file is then decoded.
 */
export function bytePrefilter(spec: MatcherSpec, buffer: Uint8Array): BytePrefilter | undefined {
  const text = spec.literal ?? spec.prefilter;
  if (text === undefined) return undefined;
  const fold = spec.flags.includes("i");
  // deno-lint-ignore no-control-regex
  if (fold && (!/^[\x00-\x7f]*$/.test(text) || spec.flags.includes("u"))) return undefined;
  if (fold) {
    // The bytes as a one-byte string (each byte one character), tested by a case-insensitive
    // regular expression: about twice as fast as seeking both cases of the needle's rarest byte
    // (0.9 against 1.4–2.0 ns a byte, on the 59k-file tree's larger files). Without the `u` flag
    // no character beyond ASCII folds to an ASCII one, so exactly the bytes that match the needle
    // in either case match.
    const folded = new RegExp(escapeRegExp(text), "i");
    const bytes = (size: number) =>
      Buffer.from(buffer.buffer, buffer.byteOffset, size).toString("latin1");
    return {
      width: new TextEncoder().encode(text).length,
      test: (size) => folded.test(bytes(size)),
    };
  }
  const needle = new TextEncoder().encode(text);
  const len = needle.length;
  let rare = 0;
  let rank = -1;
  for (let k = 0; k < len; k++) {
    const common = COMMON_BYTES.indexOf(String.fromCharCode(needle[k]));
    const r = common < 0 ? COMMON_BYTES.length : common;
    if (r > rank) [rare, rank] = [k, r];
  }
  const byte = needle[rare];
  return {
    width: len,
    test(size: number): boolean {
      const hay = buffer.subarray(0, size);
      for (let i = hay.indexOf(byte, rare); i >= 0; i = hay.indexOf(byte, i + 1)) {
        const start = i - rare;
        if (start + len > size) break;
        let k = 0;
        while (k < len && hay[start + k] === needle[k]) k++;
        if (k === len) return true;
      }
      return false;
    },
  };
}

/** One chunk being searched: where it stands, what it found so far. */
interface OpenChunk {
  chunk: number;
  i: number;
  end: number;
  /** A chunk of the job's `first` files: `i` and `end` are positions in that list. */
  first: boolean;
  lines: string[];
  at: number[];
  /** For each line, the size of its file in bytes. */
  bytes: number[];
  files: number;
  read: number;
  stale: boolean;
}

/** What a search needs of the worker: its reader, the kept listing, and the way to answer. */
export interface WorkerState {
  reader: FileReader;
  view: ListingView;
  sums: SummaryIndex | undefined;
  post(reply: JobReply): void;
}

/** One search job run a slice at a time (see {@linkcode searchSteps}). */
export interface SearchSteps {
  /**
   * Searches files for about `ms` milliseconds; true once the job is done (every chunk claimed
   * and reported, or the search stopped). `more` false: the open chunk is finished, no other is
   * claimed. `enough`: returns (not done) as soon as the chunks reported by all hold that many
   * lines (`CTL_FOUND`), leaving its open chunk unreported.
   */
  slice(ms: number, more?: boolean, enough?: number): boolean;
  /** Bytes of text decoded so far. */
  decoded(): number;
}

/**
 * One search job over the listing `state` keeps, a slice at a time: the worker's `runSearch`
 * (`worker_main.ts`), and find's main thread helping it with plain text (`help.ts`). It may use
 * no worker global (`vm`, `parentPort`).
 */
export function searchSteps(job: SearchJob, state: WorkerState): SearchSteps {
  const parts = _jobParts(job, state);
  const { control, first, post } = parts;
  const beat = CTL_WORKERS + 2 * job.slot;
  const searchFile = _fileSearch(parts);
  const claim = _claimer(parts);
  const only = job.only;
  // The files read first (see `SearchJob.first`), skipped where their listing chunk comes.
  const readFirst = first ? new Set(first) : undefined;
  let open: OpenChunk | undefined;
  let done = false;
  // Once the readers have found enough lines between them, none claims another chunk: every
  // chunk claimed later comes after those, whose lines will all be reported. A spread search may
  // answer with any lines: each reader then reports its chunk as far as it got (cut there),
  // rather than reading the rest of it first (up to 64 files, a few megabytes). (In a search in
  // order, a chunk before the one that found them may still hold lines that come first.)
  const spread = job.order !== undefined;
  // Searches files until the job is done or a slice of time is used up.
  const slice = (ms: number, more = true, enough = Infinity): boolean => {
    const started = performance.now();
    while (!done && performance.now() - started < ms) {
      if (Atomics.load(control, CTL_FOUND) >= enough) break;
      if (Atomics.load(control, CTL_STOP)) {
        done = true;
        break;
      }
      const seen = Atomics.load(control, CTL_SEEN) >= job.limit;
      open ??= more && !seen ? claim() : undefined;
      if (!open) {
        done = true;
        break;
      }
      const o: OpenChunk = open;
      if (o.i >= o.end || o.lines.length >= job.limit || (spread && seen)) {
        control[beat]++;
        Atomics.add(control, CTL_FOUND, o.lines.length);
        post(parts, o);
        open = undefined;
        continue;
      }
      const index = o.first ? first![o.i] : only ? only[o.i] : o.i;
      control[beat + 1] = index;
      control[beat]++;
      const before = o.lines.length;
      if (o.first || !readFirst?.has(index)) searchFile(o, index);
      if (o.lines.length > before) Atomics.add(control, CTL_SEEN, o.lines.length - before);
      o.i++; // only now: a file interrupted by the timeout is searched again
    }
    return done;
  };
  return { slice, decoded: () => parts.decoded };
}

/** What the parts of one search job share (see {@linkcode searchSteps}). */
interface JobParts {
  job: SearchJob;
  state: WorkerState;
  control: Int32Array;
  /** Files in the listing. */
  count: number;
  /** Chunks of the job's files (of `only`, or of the listing). */
  chunks: number;
  listingChunks: number;
  /** The job's files read first, and how many chunks they make. */
  first: Int32Array | undefined;
  firstChunks: number;
  /** Files skipped since the last report, and the first of them named: index, kind, bytes. */
  skipped: SkipCounts;
  named: number[];
  /** Bytes of text decoded so far. */
  decoded: number;
  /** Reports a chunk (and the files skipped since the last report). */
  post(parts: JobParts, o: OpenChunk): void;
}

function _jobParts(job: SearchJob, state: WorkerState): JobParts {
  const count = state.view.count;
  const only = job.only;
  const total = only ? only.length : count;
  const listingChunks = Math.ceil(count / CHUNK_FILES);
  const first = job.first;
  return {
    job,
    state,
    control: new Int32Array(job.control),
    count,
    chunks: only ? Math.max(1, Math.ceil(total / CHUNK_FILES)) : listingChunks,
    listingChunks,
    first,
    firstChunks: first ? Math.ceil(first.length / CHUNK_FILES) : 0,
    skipped: [0, 0, 0],
    named: [],
    decoded: 0,
    post: _postChunk,
  };
}

function _postChunk(parts: JobParts, o: OpenChunk): void {
  const { job, skipped, named, state } = parts;
  state.post({
    type: "chunk",
    job: job.id,
    chunk: o.chunk,
    lines: o.lines,
    at: o.at,
    bytes: o.bytes,
    skipped: [skipped[0], skipped[1], skipped[2]],
    named: named.splice(0),
    files: o.files,
    read: o.read,
    cut: o.lines.length >= job.limit || o.i < o.end,
    stale: o.first ? _vouchOwn(state.view, Int32Array.from(o.at), 0, o.at.length) : o.stale,
  });
  skipped.fill(0);
}

/** The folders of the listing chunks that files `list[i]`..`list[end - 1]` are in vouch. */
function _vouchOwn(view: ListingView, list: Int32Array, i: number, end: number): boolean {
  const from = new Set<number>();
  for (let p = i; p < end; p++) from.add(Math.floor(list[p] / CHUNK_FILES));
  let stale = false;
  for (const c of from) stale = view.changed(c) || stale;
  return stale;
}

/** A chunk of `only` vouches for the listing's chunks after the previous one's, up to its own. */
function _vouchOnly(parts: JobParts, chunk: number, end: number): boolean {
  const { job, count, chunks, listingChunks } = parts;
  const only = job.only!;
  // Within the job's range (all of the listing unless it says otherwise; [0, -1]: none).
  const [first, last] = job.vouch ?? [0, count - 1];
  const from = Math.max(
    Math.floor(first / CHUNK_FILES),
    chunk === 0 ? 0 : Math.floor(only[chunk * CHUNK_FILES - 1] / CHUNK_FILES) + 1,
  );
  const to = Math.min(
    listingChunks - 1,
    Math.floor(last / CHUNK_FILES),
    chunk === chunks - 1 ? Infinity : Math.floor(only[end - 1] / CHUNK_FILES),
  );
  let stale = false;
  for (let k = from; k <= to; k++) stale = parts.state.view.changed(k) || stale;
  return stale;
}

/** The next chunk a reader claims, or undefined when none is left. */
function _claimer(parts: JobParts): () => OpenChunk | undefined {
  const { job, control, chunks, firstChunks, first, state } = parts;
  const only = job.only;
  const total = only ? only.length : parts.count;
  const open = (chunk: number, i: number, end: number, isFirst: boolean, stale: boolean) => ({
    chunk,
    i,
    end,
    first: isFirst,
    lines: [],
    at: [],
    bytes: [],
    files: 0,
    read: 0,
    stale,
  });
  return () => {
    const k = Atomics.add(control, CTL_NEXT_CHUNK, 1) - firstChunks;
    if (k < 0) {
      // A chunk of the files read first: the folders of the listing chunks its lines come from
      // vouch, once it is reported. (Files read first are spread over the listing, and checking
      // the folders of all their chunks cost more than reading them; a chunk that gave no line
      // is vouched for when its own turn comes, as every chunk is before an answer not cut.)
      const i = (k + firstChunks) * CHUNK_FILES;
      return open(
        chunks + k + firstChunks,
        i,
        Math.min(first!.length, i + CHUNK_FILES),
        true,
        false,
      );
    }
    if (k >= chunks) return undefined;
    const chunk = job.order ? job.order[k] : k;
    const end = Math.min(total, (chunk + 1) * CHUNK_FILES);
    const stale = !only
      ? state.view.changed(chunk)
      : job.vouchOwn
      ? _vouchOwn(state.view, only, chunk * CHUNK_FILES, end)
      : _vouchOnly(parts, chunk, end);
    return open(chunk, chunk * CHUNK_FILES, end, false, stale);
  };
}

/** Reads file `i` and adds its matching lines to `o` (or counts why it was skipped). */
function _fileSearch(parts: JobParts): (o: OpenChunk, i: number) => void {
  const { job, state, skipped, named } = parts;
  const { reader, view, sums } = state;
  const buffer = reader.buffer;
  const scanner = makeScanner(job.spec);
  const prefilter = bytePrefilter(job.spec, buffer);
  const needle = job.spec.literal ?? job.spec.prefilter;
  const grams = sums && needle !== undefined && !job.spec.flags.includes("i")
    ? sums.gramsOf(needle)
    : undefined;
  const glob = job.glob;
  const globRe = glob ? new RegExp(glob.source) : undefined;
  const skip = (kind: 0 | 1 | 2, i: number, bytes: number): void => {
    skipped[kind]++;
    if (named.length < 3 * SKIPPED_NAMED) named.push(i, kind, bytes);
  };
  let realRoot: string | undefined; // the searched folder's real path, once a file gives lines
  return (o: OpenChunk, i: number): void => {
    const rel = view.pathAt(i);
    if (glob && !globMatches(globRe!, glob, rel)) return;
    o.files++;
    const path = `${job.root}/${rel}`;
    const known = sums !== undefined && sums.unchanged(i, path);
    if (known && grams && !sums.mayHold(i, grams)) return; // it cannot hold the text
    const began = Date.now();
    const size = reader.read(path, sums !== undefined && !known);
    o.read++;
    if (size < 0) return;
    if (sums && reader.opened && size <= MAX_FILE_BYTES) {
      sums.summarize(i, size, reader.opened, began);
    }
    if (size > MAX_FILE_BYTES) {
      // Counted when it holds the text anywhere (or when a regex requires no text).
      if (
        !prefilter || prefilter.test(MAX_FILE_BYTES) ||
        holdsPast(path, buffer, prefilter.width, prefilter.test)
      ) {
        let bytes = size;
        try {
          bytes = Deno.statSync(path).size;
        } catch {
          // gone meanwhile: what was read
        }
        skip(1, i, bytes);
      }
      return;
    }
    if (prefilter && !prefilter.test(size)) return; // (binary or not: it cannot match)
    if (buffer.subarray(0, Math.min(size, BINARY_PROBE_BYTES)).indexOf(0) >= 0) {
      skip(0, i, size);
      return;
    }
    let content: string;
    try {
      content = reader.text(size);
      parts.decoded += size;
    } catch {
      skip(2, i, size);
      return;
    }
    const hits = scanner.scan(content, job.limit - o.lines.length);
    if (hits.length) {
      if (realRoot === undefined) {
        try {
          realRoot = Deno.realPathSync(job.root);
        } catch {
          realRoot = job.root;
        }
      }
      if (!direct(path, realRoot, rel)) return; // a link: find does not follow it
    }
    for (const hit of hits) {
      o.lines.push(`${rel}:${hit.line}:${hit.text}`);
      o.at.push(i);
      o.bytes.push(size);
    }
  };
}

/** When a worker collects the garbage its searches leave (see {@linkcode garbageKeeper}). */
export interface GarbageKeeper {
  /** A search made about `bytes` of strings besides its text (the paths of the files it read). */
  made(bytes: number): void;
  /** A search starts: a collection waiting for a quiet moment waits on. */
  busy(): void;
  /** A search is over, having decoded `text` bytes of file text. */
  searched(text: number): void;
}

/**
 * The worker's collections, run with `gc` (V8's, when exposed) and `trim` (glibc's `malloc_trim`).
 *
 * A search that decoded much text (a regular expression reads files as strings) leaves that
 * much garbage in this worker's heap, which V8 keeps, pages and all, until its own next full
 * collection: one collection once the answer is out, with V8's `gc` (exposed by the main
 * thread's gc.ts; a new context sees it). Over 50 searches on a 59k-file tree that mix plain
 * words and regular expressions, the server stayed +70–79 MB over idle instead of +90–98.
 * A search that went through many files (a string for each path) gets a young-generation
 * collection: a web worker's young generation has no cap (a `node:worker_threads` one had
 * 4 MB) and grew this heap from 8 to 14 MB; after every search, that cost a small tree's warm
 * find 20 ms.
 *
 * The collection waits for a quiet moment ({@linkcode COLLECT_QUIET_MS} without a search): run
 * right after each search, it held the next one back by its own length (a minor one 12–30 ms, a
 * full one 18–33 ms, on the 59k-file tree), and in a burst a model's next find comes sooner than
 * that. A burst that leaves much garbage ({@linkcode COLLECT_NOW_BYTES}) collects at once.
 */
export function garbageKeeper(
  gc: () => ((options?: { type: "minor" }) => void) | undefined,
  trim: () => void,
  quietMs: number = COLLECT_QUIET_MS,
): GarbageKeeper {
  let decoded = 0; // bytes of text decoded since the last full collection
  let made = 0; // bytes of strings made (text and paths) since the last collection
  let later: ReturnType<typeof setTimeout> | undefined;
  const now = (): void => {
    clearTimeout(later);
    later = undefined;
    const collect = gc();
    if (!collect) return;
    const full = decoded >= COLLECT_AFTER_BYTES;
    collect(full ? undefined : { type: "minor" });
    if (full) decoded = 0;
    made = 0;
    trim();
  };
  return {
    made(bytes: number): void {
      made += bytes;
    },
    busy(): void {
      clearTimeout(later);
      later = undefined;
    },
    searched(text: number): void {
      decoded += text;
      made += text;
      if (made < YOUNG_AFTER_BYTES && decoded < COLLECT_AFTER_BYTES) return;
      if (decoded >= COLLECT_NOW_BYTES || made >= COLLECT_NOW_BYTES) now();
      else later ??= setTimeout(now, quietMs);
    },
  };
}
