/**
 * Progress on stderr for a person waiting on the command line (`localexec call`, `localexec
 * eval`). On a terminal, ONE line that is redrawn in place (carriage return, clear to the end of
 * the line) with the time so far; when stderr is a pipe or a file, a plain line each time the
 * message changes (never one per heartbeat or per percent), so a log stays readable.
 */

/** Where the line goes and how it looks; every field has a default (tests set them). */
export interface ProgressLineOptions {
  /** Redraw one line in place; default: whether stderr is a terminal. */
  tty?: boolean;
  /** Writes text to stderr; default `Deno.stderr.writeSync`. */
  write?: (text: string) => void;
  /** Width of the terminal; default its columns, else 100. */
  columns?: () => number;
  /** How often the live line redraws its clock, in ms (0: never); default 1,000. */
  tickMs?: number;
  /** The clock, in ms; default `Date.now`. */
  now?: () => number;
}

const CLEAR = "\r\x1b[2K";

function _columns(): number {
  try {
    return Deno.consoleSize().columns || 100; // a pseudo-terminal may say 0
  } catch {
    return 100;
  }
}

function _stderr(text: string): void {
  const bytes = new TextEncoder().encode(text);
  try {
    for (let done = 0; done < bytes.length;) done += Deno.stderr.writeSync(bytes.subarray(done));
  } catch {
    // stderr closed: progress is a courtesy, never a failure
  }
}

/** One progress line: {@linkcode ProgressLine.show} what happens now, then `clear` it. */
export class ProgressLine {
  readonly tty: boolean;
  #write: (text: string) => void;
  #columns: () => number;
  #now: () => number;
  #started: number;
  #text = "";
  #share = "";
  #printed = "";
  #live = false;
  #tick: ReturnType<typeof setInterval> | undefined;

  constructor(private prefix: string, options: ProgressLineOptions = {}) {
    this.tty = options.tty ?? Deno.stderr.isTerminal();
    this.#write = options.write ?? _stderr;
    this.#columns = options.columns ?? _columns;
    this.#now = options.now ?? Date.now;
    this.#started = this.#now();
    const tickMs = options.tickMs ?? 1000;
    if (this.tty && tickMs > 0) {
      this.#tick = setInterval(() => this.#live && this.#draw(), tickMs);
      Deno.unrefTimer(this.#tick);
    }
  }

  /**
   * Shows `message`: redrawn in place on a terminal (with `progress` of `total` as a percentage
   * when both are known), a line of its own elsewhere when it differs from the last one printed.
   */
  show(message: string, progress?: number, total?: number): void {
    this.#share = progress !== undefined && total !== undefined && total > 0
      ? `, ${Math.floor(Math.min(1, Math.max(0, progress / total)) * 100)}%`
      : "";
    this.#text = message;
    if (this.tty) return this.#draw();
    if (message === this.#printed) return;
    this.#printed = message;
    this.#write(`${this.prefix}: ${message}\n`);
  }

  /**
   * Writes `text` on a line of its own; the live line is erased first, and drawn again only by
   * the next {@linkcode ProgressLine.show} (what it showed may be over).
   */
  note(text: string): void {
    this.#erase();
    this.#write(`${text}\n`);
  }

  /** Removes the live line for good (the answer comes next) and stops its clock. */
  end(): void {
    clearInterval(this.#tick);
    this.#erase();
  }

  #erase(): void {
    if (this.#live) this.#write(CLEAR);
    this.#live = false;
  }

  #draw(): void {
    const secs = Math.floor((this.#now() - this.#started) / 1000);
    // The clock first: a narrow terminal cuts the end of the message, never the sign of life.
    const line = `${this.prefix} (${secs} s${this.#share}): ${this.#text}`;
    this.#write(`${CLEAR}${line.slice(0, Math.max(10, this.#columns() - 1))}`);
    this.#live = true;
  }
}
