/**
 * find's engine: list the project's files (git's listing or the `.gitignore`-aware walk), filter
 * them by glob, and search them in workers with a deadline. See `search.ts` for the safety net.
 *
 * In a git work tree the tracked files are searched first, while git lists the untracked ones;
 * then those, and the two sets of matches are merged: results are always in path order.
 */
import { quote, ToolError } from "../errors.ts";
import { compileGlob } from "./glob.ts";
import { listProject } from "./list.ts";
import { compileMatcher, type MatcherSpec } from "./scan.ts";
import { type PoolOptions, type SearchOutcome, SearchPool } from "./search.ts";

export { MAX_FILE_BYTES } from "./protocol.ts";
export { MAX_LINE_CHARS } from "./scan.ts";

/** What to search for. */
export interface FindOptions extends PoolOptions {
  pattern: string;
  glob?: string | null;
  maxResults: number;
  ignoreCase: boolean;
  /** False lists files with find's own walk even where git could be used. Default true. */
  useGit?: boolean;
}

/** What find answers (without `status`). */
export interface FindResult {
  matches: string[];
  count: number;
  truncated: boolean;
  skipped: { binary: number; too_large: number; not_utf8: number };
  /** How many files were given to the search (after the glob). */
  files: number;
}

function _matcher(pattern: string, ignoreCase: boolean): MatcherSpec {
  try {
    return compileMatcher(pattern, ignoreCase);
  } catch (err) {
    // V8 says "Invalid regular expression: /pattern/flags: reason"; keep the reason.
    const message = err instanceof Error ? err.message : String(err);
    const why = message.slice(message.lastIndexOf(": ") + 2);
    throw new ToolError(`invalid regular expression ${quote(pattern)}: ${why}`);
  }
}

function _filter(glob: string | null | undefined): (files: string[]) => string[] {
  if (!glob?.trim()) return (files) => files;
  try {
    const compiled = compileGlob(glob);
    return (files) => files.filter((f) => compiled.test(f));
  } catch {
    throw new ToolError(`invalid glob ${quote(glob)}`);
  }
}

/** Merges two outcomes over disjoint file sets, each in path order, keeping the first `max`. */
function _merge(a: SearchOutcome, b: SearchOutcome, max: number): SearchOutcome {
  if (!b.lines.length) return { ...a, skipped: _sum(a, b) };
  const lines: string[] = [];
  const paths: string[] = [];
  let i = 0;
  let j = 0;
  while ((i < a.lines.length || j < b.lines.length) && lines.length <= max) {
    const fromA = j >= b.lines.length || (i < a.lines.length && a.paths[i] < b.paths[j]);
    lines.push(fromA ? a.lines[i] : b.lines[j]);
    paths.push(fromA ? a.paths[i++] : b.paths[j++]);
  }
  return {
    lines: lines.slice(0, max),
    paths: paths.slice(0, max),
    truncated: a.truncated || b.truncated || lines.length > max,
    skipped: _sum(a, b),
  };
}

function _sum(a: SearchOutcome, b: SearchOutcome): SearchOutcome["skipped"] {
  return {
    binary: a.skipped.binary + b.skipped.binary,
    too_large: a.skipped.too_large + b.skipped.too_large,
    not_utf8: a.skipped.not_utf8 + b.skipped.not_utf8,
  };
}

/** Searches the project at `root`; returns the first `maxResults` matching lines. */
export async function findInProject(root: string, options: FindOptions): Promise<FindResult> {
  const spec = _matcher(options.pattern, options.ignoreCase);
  const filter = _filter(options.glob);
  const max = options.maxResults;
  const pool = new SearchPool(options); // its first worker starts while the files are listed
  let listing;
  try {
    listing = await listProject(root, options.signal, options.useGit ?? true);
    let files = filter(listing.files);
    let outcome = await pool.search(root, files, spec, max);
    if (listing.untracked) {
      const more = filter(await listing.untracked);
      outcome = _merge(outcome, await pool.search(root, more, spec, max), max);
      files = [...files, ...more];
    }
    return {
      matches: outcome.lines,
      count: outcome.lines.length,
      truncated: outcome.truncated,
      skipped: outcome.skipped,
      files: files.length,
    };
  } finally {
    pool.close();
    listing?.cancel();
    await listing?.untracked;
  }
}
