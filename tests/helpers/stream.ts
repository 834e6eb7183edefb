/**
 * The streamed body the scripted servers answer with: pieces sent one by one (with a delay
 * between them), then a clean end or a stall until the server closes, and a record of when the
 * answer ended, whether it finished, was abandoned by the client, or was ended by the server.
 */

/** The open answers of one server, each with the function that ends it. */
export type OpenStreams = Map<ReadableStreamDefaultController<Uint8Array>, () => void>;

/** Options for {@linkcode scriptedStream}. */
export interface ScriptedStreamOptions {
  /** Milliseconds between two pieces. */
  delayMs: number;
  /** After the last piece: end at once, or wait until `closed` resolves. */
  end: "close" | "stall";
  /** Resolves when the server shuts down. */
  closed: Promise<void>;
  /** Where the stream registers itself while it is open. */
  open: OpenStreams;
  /** Called once when the answer ends for any reason. */
  onFinish(): void;
}

const enc = new TextEncoder();

/** A body that sends `pieces` as `o` says. */
export function scriptedStream(
  pieces: (string | Uint8Array)[],
  o: ScriptedStreamOptions,
): ReadableStream<Uint8Array> {
  let i = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ctl: ReadableStreamDefaultController<Uint8Array>;
  let finished = false;
  const finish = () => {
    clearTimeout(timer);
    o.open.delete(ctl);
    if (!finished) {
      finished = true;
      o.onFinish();
    }
  };
  return new ReadableStream<Uint8Array>({
    start(c) {
      ctl = c;
      o.open.set(c, () => {
        finish();
        endStream(c);
      });
    },
    async pull(c) {
      if (i < pieces.length) {
        if (o.delayMs > 0 && i > 0) await new Promise((r) => timer = setTimeout(r, o.delayMs));
        if (!o.open.has(c)) return;
        const piece = pieces[i++];
        c.enqueue(typeof piece === "string" ? enc.encode(piece) : piece);
        return;
      }
      if (o.end === "stall") await o.closed;
      if (!o.open.has(c)) return;
      finish();
      endStream(c);
    },
    cancel() {
      finish();
    },
  });
}

/** Closes a stream that may already be closed or cancelled. */
export function endStream(c: ReadableStreamDefaultController<Uint8Array>): void {
  try {
    c.close();
  } catch {
    // already closed or cancelled
  }
}

/** A request's path, its body text (none for GET and HEAD), and that text as JSON or null. */
export async function readRequest(
  req: Request,
): Promise<{ path: string; text: string; body: unknown }> {
  const path = new URL(req.url).pathname;
  const text = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { path, text, body };
}

/** Promises that resolve once a count (of chat requests, say) reaches what each waits for. */
export function countWaiters(count: () => number): {
  wait(atLeast: number): Promise<void>;
  /** Resolves the waits the count now satisfies; call it after the count grows. */
  check(): void;
} {
  const waiters: { atLeast: number; resolve: () => void }[] = [];
  return {
    wait(atLeast) {
      if (count() >= atLeast) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ atLeast, resolve }));
    },
    check() {
      for (const w of waiters.splice(0)) {
        if (count() >= w.atLeast) w.resolve();
        else waiters.push(w);
      }
    },
  };
}

/**
 * Waits until the server records the answer as ended (`doneMs` set); returns the seconds since
 * `since` (a `performance.now()` time), or undefined when it has not ended within `waitMs`.
 */
export async function secondsUntilEnded(
  record: { doneMs?: number },
  since: number,
  waitMs = 5000,
): Promise<number | undefined> {
  while (record.doneMs === undefined && performance.now() - since < waitMs) {
    await new Promise((r) => setTimeout(r, 10));
  }
  return record.doneMs === undefined ? undefined : (performance.now() - since) / 1000;
}

/**
 * One chat's model time on a scripted server `fake`, counted among the chats served at once; the caller counts it
 * off when its answer is made. Ends early when the server closes.
 */
export async function modelTime(
  fake: { modelMs: number; busy: { now: number; most: number } },
  closed: Promise<void>,
): Promise<void> {
  fake.busy.now++;
  fake.busy.most = Math.max(fake.busy.most, fake.busy.now);
  if (fake.modelMs <= 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([closed, new Promise((r) => timer = setTimeout(r, fake.modelMs))]);
  clearTimeout(timer);
}
