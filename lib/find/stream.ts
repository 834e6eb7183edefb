/**
 * git's listing for a one-shot find (`oneshot.ts`), read as git writes it: the tracked files one
 * by one while `git ls-files` still runs (stopped once enough are read), and the untracked files
 * that sort before a given path only, which git finds by walking just the folders that can hold
 * them, not the whole work tree.
 *
 * Both give exactly what `list.ts` gives for that part of the tree: regular files only (no links,
 * no submodules), one entry per conflicted file, nothing inside `.git/` or `.localexec/`, in the
 * order of JavaScript's sort. git lists in byte order, which differs from that sort only between
 * a character outside the Basic Multilingual Plane and one from U+E000 to U+FFFF: a path out of
 * order makes the stream fail, and the caller lists the whole tree.
 */
import { isRegularFile, NOT_FILES, skippedPath } from "./list.ts";
import { gitEntries } from "../process/mod.ts";

/** The tracked regular files of a git work tree, in path order, as `git ls-files` lists them. */
export class TrackedStream {
  #child: Deno.ChildProcess;
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #decoder = new TextDecoder();
  #rest = "";
  #ready: string[] = [];
  #at = 0;
  #last = "";
  #ended = false;
  /** git failed, or a path breaks the order: the stream holds nothing to trust. */
  failed = false;

  constructor(root: string) {
    this.#child = new Deno.Command("git", {
      args: ["-c", "core.fsmonitor=false", "--literal-pathspecs", "ls-files", "-s", "-c", "-z"],
      cwd: root,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      env: { GIT_OPTIONAL_LOCKS: "0" },
    }).spawn();
    this.#reader = this.#child.stdout.getReader();
  }

  /** Takes the complete entries (`mode object stage<TAB>path`) out of the text read so far. */
  #take(text: string): void {
    const entries = (this.#rest + text).split("\0");
    this.#rest = entries.pop()!;
    for (const entry of entries) {
      const tab = entry.indexOf("\t");
      if (tab < 0 || NOT_FILES.has(entry.slice(0, 6))) continue;
      const path = entry.slice(tab + 1);
      if (path === this.#last || skippedPath(path)) continue; // a conflicted file: one per stage
      if (path < this.#last) this.failed = true; // (see the module comment)
      this.#ready.push(path);
      this.#last = path;
    }
  }

  /** The next tracked file, or undefined at the end (or when the stream failed). */
  async next(): Promise<string | undefined> {
    while (this.#at >= this.#ready.length && !this.#ended && !this.failed) {
      this.#ready = [];
      this.#at = 0;
      const { value, done } = await this.#reader.read();
      if (done) {
        this.#ended = true;
        this.#take(this.#decoder.decode());
        if (!(await this.#child.status).success) this.failed = true;
      } else {
        this.#take(this.#decoder.decode(value, { stream: true }));
      }
    }
    return this.failed ? undefined : this.#ready[this.#at++];
  }

  /** Every file was read (git has exited). */
  get ended(): boolean {
    return this.#ended && this.#at >= this.#ready.length;
  }

  /** Stops git; safe to call more than once. */
  async stop(): Promise<void> {
    if (!this.#ended) {
      try {
        this.#child.kill();
      } catch { /* already gone */ }
      await this.#reader.cancel().catch(() => {});
    }
    await this.#child.status;
  }
}

/** Whether a folder entry at `rel` can hold a path before `bound` (every path under it can). */
function _before(rel: string, isDir: boolean, bound: string): boolean {
  return isDir ? `${rel}/` < bound && !bound.startsWith(`${rel}/`) : rel < bound;
}

/**
 * The pathspecs that cover exactly the paths before `bound` (a file's path): at each folder on
 * the way to it, the entries that sort before the next step. Undefined when a folder cannot be
 * read or there would be too many.
 */
function _pathspecs(root: string, bound: string): string[] | undefined {
  const parts = bound.split("/");
  const specs: string[] = [];
  let dir = "";
  for (let k = 0; k < parts.length; k++) {
    try {
      for (const e of Deno.readDirSync(dir ? `${root}/${dir}` : root)) {
        if (e.name === parts[k]) continue;
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (_before(rel, e.isDirectory, bound)) specs.push(rel);
      }
    } catch {
      return undefined;
    }
    if (specs.length > 2000) return undefined;
    dir = dir ? `${dir}/${parts[k]}` : parts[k];
  }
  return specs;
}

/**
 * The untracked, not ignored regular files whose paths sort before `bound`, sorted; undefined
 * when git fails. Wholly untracked folders (`dir/`) are listed by a second, narrow call, as in
 * `list.ts`.
 */
export async function untrackedBefore(
  root: string,
  bound: string,
  signal?: AbortSignal,
): Promise<string[] | undefined> {
  const specs = _pathspecs(root, bound);
  if (!specs) return undefined;
  if (!specs.length) return [];
  const base = ["--literal-pathspecs", "ls-files", "-o", "--exclude-standard", "-z"];
  const entries = await gitEntries(root, [...base, "--directory", "--", ...specs], { signal });
  if (!entries) return undefined;
  const dirs = entries.filter((e) => e.endsWith("/") && !skippedPath(e));
  let files = entries.filter((e) => !e.endsWith("/"));
  if (dirs.length) {
    const inner = await gitEntries(root, [...base, "--", ...dirs], { signal });
    if (!inner) return undefined;
    files = files.concat(inner);
  }
  return files.filter((path) =>
    path < bound && !skippedPath(path) && isRegularFile(`${root}/${path}`)
  )
    .sort();
}
