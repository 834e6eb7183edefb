/**
 * Walking a tree or a copy of it for `ws_sync.ts`, into listing files of one line per file, link
 * and folder (links not followed); kind `f`, `l` or `d`, times in seconds, mode in octal:
 * - full: `<kind> <size> <mtime> <ctime> <inode> <mode> <path>`, the whole stat of the entry, so
 *   two walks of one tree compare by their lines (`diffListings`), as git's index compares a
 *   file's stat with what it saw last time;
 * - quick: `<kind> <size> <mtime> <mode> <path>` (a folder: `d - - - <path>`), what `cp -a` keeps,
 *   so a tree and a copy of it compare by their lines, as rsync compares.
 * An entry changed after `racyAfter` (by its ctime, which every change sets) is racily clean: its
 * lines start with `R<the walk's nonce> `, so they match no other walk's.
 *
 * On Linux GNU `find -fprintf` does the lstat calls in its own process (nanosecond times) and
 * `diff` compares; elsewhere, or when they cannot, both are done here (millisecond times). Lines
 * from the two walkers never match, which only costs a copy of everything: never a wrong answer.
 * A name holding a newline cannot be listed: the walk throws (`UnlistableError`).
 */
import { join } from "../deps.ts";

/** One parsed line (fields kept as text: they are only compared). */
export interface Line {
  /** Changed after the walk's `racyAfter`. */
  racy: boolean;
  kind: "f" | "l" | "d";
  size: string;
  mtime: string;
  mode: string;
  path: string;
}

/** The listing files a walk writes. */
export interface Listings {
  full?: string;
  quick?: string;
}

/** What to walk and how. */
export interface WalkOptions {
  /** Top-level names left out whatever they are (`.git`, `.localexec`). */
  skip: readonly string[];
  /** Top-level names left out when a folder or a link (the linked dependency folders). */
  linked: readonly string[];
  /** Entries whose ctime is at or after this time (ms since the epoch) are racily clean. */
  racyAfter?: number;
  signal?: AbortSignal;
  /** Walk here even where `find` could (tests of this walker, and its fallback). */
  portable?: boolean;
}

/** A name under the walked folder holds a newline, which a listing cannot hold. */
export class UnlistableError extends Error {
  constructor(dir: string) {
    super(`a name under "${dir}" holds a newline`);
    this.name = "UnlistableError";
  }
}

const NEWLINE_NOTE = "localexec: a name holds a newline";

/** Parses a line of a full (or `quick`) listing; undefined for anything else. */
export function parseLine(line: string, quick = false): Line | undefined {
  const racy = line[0] === "R";
  let at = racy ? line.indexOf(" ") + 1 : 0;
  if (racy && at === 0) return undefined;
  const f: string[] = [];
  for (let i = 0; i < (quick ? 4 : 6); i++) {
    const space = line.indexOf(" ", at);
    if (space < 0) return undefined;
    f.push(line.slice(at, space));
    at = space + 1;
  }
  const kind = f[0];
  if (kind !== "f" && kind !== "l" && kind !== "d") return undefined;
  const mode = quick ? f[3] : f[5];
  return { racy, kind, size: f[1], mtime: f[2], mode, path: line.slice(at) };
}

/** The lines of the listing file `path` (none when it is missing). */
export async function readListing(path: string): Promise<string[]> {
  const text = await Deno.readTextFile(path).catch((err) => {
    if (err instanceof Deno.errors.NotFound) return "";
    throw err;
  });
  const lines = text.split("\n");
  lines.pop(); // after the last newline
  return lines;
}

/** Whether `tool` said only that entries vanished while it walked. */
function _vanishedOnly(tool: string, stderr: string): boolean {
  return stderr.split("\n").filter((l) => l.trim()).every((l) =>
    new RegExp(`^(\\S*/)?${tool}: .*: No such file or directory$`).test(l)
  );
}

/** Runs `cmd args` in `cwd`, its stdout and stderr as text; undefined when it cannot run. */
async function _run(cmd: string, args: string[], cwd: string, signal?: AbortSignal) {
  try {
    const out = await new Deno.Command(cmd, {
      args,
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { LC_ALL: "C" },
      signal,
    }).output();
    signal?.throwIfAborted();
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
  } catch (err) {
    signal?.throwIfAborted();
    if (err instanceof Deno.errors.NotFound) return undefined; // no such command
    throw err;
  }
}

/** The walk by GNU `find`; false when this `find` cannot do it. */
async function _find(dir: string, to: Listings, o: WalkOptions): Promise<boolean> {
  const linked = o.linked.flatMap((n) =>
    ["-o", "(", "-path", `./${n}`, "(", "-type", "d"]
      .concat(["-o", "-type", "l", ")", ")"])
  );
  const pruned = [...o.skip.flatMap((n) => ["-o", "-path", `./${n}`]), ...linked].slice(1);
  const args = [".", "-mindepth", "1"];
  if (pruned.length) args.push("(", ...pruned, ")", "-prune", "-o");
  args.push("-name", "*\n*", "-fprintf", "/dev/stderr", `${NEWLINE_NOTE}\\n`, "-prune", "-o");
  const print = (prefix: string) => [
    ...(to.full ? ["-fprintf", to.full, `${prefix}%y %s %T@ %C@ %i %m %P\\n`] : []),
    ...(to.quick
      ? ["(", "-type", "d", "-fprintf", to.quick, `${prefix}d - - - %P\\n`, "-o"]
        .concat(["-fprintf", to.quick, `${prefix}%y %s %T@ %m %P\\n`, ")"])
      : []),
  ];
  if (o.racyAfter !== undefined) {
    const nonce = `R${Date.now()}${crypto.randomUUID().slice(0, 4)} `;
    args.push("-newerct", `@${(o.racyAfter / 1000).toFixed(3)}`, ...print(nonce), "-o");
  }
  args.push(...print(""));
  const r = await _run("find", args, dir, o.signal);
  if (!r) return false;
  if (r.stderr.includes(NEWLINE_NOTE)) throw new UnlistableError(dir);
  if (r.code === 0 || (r.code === 1 && r.stderr && _vanishedOnly("find", r.stderr))) return true;
  if (
    /unknown predicate|invalid predicate|illegal option|unrecognized|invalid argument/i.test(
      r.stderr,
    )
  ) {
    return false;
  }
  throw new Error(`walking "${dir}" failed: ${r.stderr.trim().slice(0, 400)}`);
}

/** The portable walk: the same lines, from here. */
async function _walkHere(dir: string, to: Listings, o: WalkOptions): Promise<void> {
  const full: string[] = [], quick: string[] = [];
  const nonce = `R${Date.now()}${crypto.randomUUID().slice(0, 4)} `;
  const secs = (d: Date | null) => ((d?.getTime() ?? 0) / 1000).toString();
  const visit = async (rel: string): Promise<void> => {
    o.signal?.throwIfAborted();
    const names: string[] = [];
    try {
      for await (const e of Deno.readDir(rel ? join(dir, rel) : dir)) names.push(e.name);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return;
      throw err;
    }
    const infos = await Promise.all(
      names.map((n) => Deno.lstat(join(dir, rel, n)).catch(() => undefined)),
    );
    const folders: string[] = [];
    names.forEach((name, i) => {
      const s = infos[i];
      const kind = !s ? "" : s.isFile ? "f" : s.isSymlink ? "l" : s.isDirectory ? "d" : "";
      if (!s || !kind) return; // vanished, or a fifo, socket or device
      if (!rel && (o.skip.includes(name) || (o.linked.includes(name) && kind !== "f"))) return;
      if (name.includes("\n")) throw new UnlistableError(dir);
      const path = rel ? `${rel}/${name}` : name;
      const changed = Math.max(s.mtime?.getTime() ?? 0, s.ctime?.getTime() ?? 0);
      const racy = o.racyAfter !== undefined && changed >= o.racyAfter ? nonce : "";
      const mode = ((s.mode ?? 0) & 0o7777).toString(8);
      const [size, mtime] = [s.size, secs(s.mtime)];
      full.push(`${racy}${kind} ${size} ${mtime} ${secs(s.ctime)} ${s.ino ?? 0} ${mode} ${path}\n`);
      quick.push(
        kind === "d"
          ? `${racy}d - - - ${path}\n`
          : `${racy}${kind} ${size} ${mtime} ${mode} ${path}\n`,
      );
      if (kind === "d") folders.push(path);
    });
    for (const f of folders) await visit(f);
  };
  await visit("");
  if (to.full) await Deno.writeTextFile(to.full, full.join(""), { mode: 0o600 });
  if (to.quick) await Deno.writeTextFile(to.quick, quick.join(""), { mode: 0o600 });
}

/**
 * Walks `dir` (see the module's doc) into the listing files `to`, with `o.skip` and `o.linked`
 * left out at the top. Entries that vanish during the walk are left out; any other failure
 * throws. Requires `--allow-read`, `--allow-write` (of `to`) and `--allow-run` (find).
 */
export async function walkFolder(dir: string, to: Listings, o: WalkOptions): Promise<void> {
  if (Deno.build.os === "linux" && !o.portable && await _find(dir, to, o)) return;
  await _walkHere(dir, to, o);
}

/**
 * The lines of the listing `before` that the listing `after` does not have (`gone`), and those
 * of `after` that `before` does not have (`came`). `diff` where it runs, else here.
 */
export async function diffListings(
  before: string,
  after: string,
  o: { signal?: AbortSignal; portable?: boolean } = {},
): Promise<{ gone: string[]; came: string[] }> {
  const r = o.portable ? undefined : await _run("diff", ["-U0", before, after], "/", o.signal);
  if (r && (r.code === 0 || r.code === 1)) {
    const gone: string[] = [], came: string[] = [];
    const lines = r.stdout.split("\n");
    // Two header lines, then hunks: `@@ … @@`, `-old`, `+new` (a listing line never starts so).
    for (const line of lines.slice(2)) {
      if (line[0] === "-") gone.push(line.slice(1));
      else if (line[0] === "+") came.push(line.slice(1));
    }
    return { gone, came };
  }
  const old = new Set(await readListing(before));
  const came: string[] = [];
  for (const line of await readListing(after)) if (!old.delete(line)) came.push(line);
  return { gone: [...old], came };
}
