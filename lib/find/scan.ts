/**
 * Searching one file's text: the matcher (plain text with `indexOf`, a regex tried only on lines
 * that hold its required text, or a regex over the whole text), line numbers, and long lines cut
 * around the match.
 *
 * The search worker imports this module (`worker_main.ts`, bundled into `worker.gen.js`).
 */
import { literalOf, requiredLiteral } from "./literal.ts";
import { guardLeadingRun } from "./runs.ts";

/** What the workers need to rebuild the matcher; plain data, so it can be posted. */
export interface MatcherSpec {
  /** Set when the whole pattern is plain text (and case matters): search with `indexOf` alone. */
  literal?: string;
  /** Text every match contains: only lines holding it are tried with the regex. */
  prefilter?: string;
  source: string;
  flags: string;
  /** `source` as run (`runs.ts`): the same lines and first match, no quadratic retries in a run. */
  run?: string;
}

/** One matching line. */
export interface Hit {
  line: number;
  text: string;
}

/** Lines longer than this are cut around the match. */
export const MAX_LINE_CHARS = 200;
/** Characters kept before the match when a long line is cut. */
export const CONTEXT_BEFORE = 60;

/** Escapes that only mean something with the `u` flag, and characters outside the BMP. */
const NEEDS_UNICODE = /\\[pP]\{|\\u\{|[\ud800-\udfff]/;
/** The escapes among those. */
const NEEDS_UNICODE_ESCAPE = /\\[pP]\{|\\u\{/;

/**
 * Compiles find's pattern as a JavaScript regular expression, with the `u` (Unicode) flag only
 * when the pattern needs it (`\p{L}`, `\u{…}`, characters beyond U+FFFF) or does not compile
 * without it, and without it when only that compiles (`😀\-`: an escape the flag forbids beside a
 * character beyond U+FFFF). Throws the SyntaxError of the first attempt when neither compiles.
 */
export function compileMatcher(pattern: string, ignoreCase: boolean): MatcherSpec {
  const spec = _compile(pattern, ignoreCase);
  const run = spec.literal === undefined ? guardLeadingRun(pattern, spec.flags) : undefined;
  return run === undefined ? spec : { ...spec, run };
}

function _compile(pattern: string, ignoreCase: boolean): MatcherSpec {
  const base = ignoreCase ? "gmi" : "gm";
  let flags = NEEDS_UNICODE.test(pattern) ? `${base}u` : base;
  try {
    new RegExp(pattern, flags);
  } catch (err) {
    // The other way round, except for a `u` escape (`\p{…}`, `\u{…}`), which means other text
    // without the flag: an astral character beside an escape only valid without it (`😀\-`)
    // compiles as it would have without the astral character.
    const other = flags === base ? `${base}u` : base;
    if (other === base && NEEDS_UNICODE_ESCAPE.test(pattern)) throw err;
    try {
      new RegExp(pattern, other);
    } catch {
      throw err;
    }
    flags = other;
  }
  const literal = literalOf(pattern);
  if (literal !== undefined && !ignoreCase) return { literal, source: pattern, flags };
  let prefilter = literal ?? requiredLiteral(pattern);
  if (ignoreCase && prefilter !== undefined && !flags.includes("u")) {
    prefilter = _asciiPart(prefilter);
  }
  return { prefilter, source: pattern, flags };
}

/**
 * The longest run of ASCII in `text` when `text` holds other characters (at least 2 long; else
 * `text`): without the `u` flag, ignore_case matches an ASCII letter only to its other case,
 * never to a character beyond ASCII, so a match of `text` holds that run in either case, and the
 * workers can seek it in the raw bytes (`café` by `caf`) instead of decoding every file.
 */
function _asciiPart(text: string): string {
  // deno-lint-ignore no-control-regex
  const runs = text.match(/[\x00-\x7f]+/g) ?? [];
  if (runs.length === 1 && runs[0] === text) return text;
  const best = runs.reduce((a, b) => (b.length > a.length ? b : a), "");
  return best.length >= 2 ? best : text;
}

/** A ready matcher: scans a file's text for matching lines. */
export interface Scanner {
  scan(text: string, limit: number): Hit[];
}

/** The line around column `col` (of a match `len` long), trimmed and cut to a readable length. */
export function cutLine(line: string, col: number, len: number): string {
  const text = line.replace(/\s+$/, "");
  if (text.length <= MAX_LINE_CHARS) return text.trimStart();
  let start = Math.max(0, col - CONTEXT_BEFORE);
  if (len > MAX_LINE_CHARS - CONTEXT_BEFORE) start = col;
  const end = Math.min(text.length, start + MAX_LINE_CHARS);
  return `${start > 0 ? "…" : ""}${text.slice(start, end).trim()}${end < text.length ? "…" : ""}`;
}

/** Counts newlines in `text` between `from` and `to`. Exported for the worker's source only. */
export function _newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** `text` as a regular expression that matches it literally. Also used in the search worker. */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/** Builds the scanner for `spec`. */
export function makeScanner(spec: MatcherSpec): Scanner {
  const all = new RegExp(spec.run ?? spec.source, spec.flags);
  const one = new RegExp(spec.run ?? spec.source, spec.flags.replace("g", "").replace("m", ""));
  const literal = spec.literal ?? spec.prefilter;
  const exact = spec.literal !== undefined;
  // Case-insensitive prefilter: the literal as a regex with the pattern's own flags.
  const pre = literal !== undefined && spec.flags.includes("i")
    ? new RegExp(escapeRegExp(literal), spec.flags)
    : undefined;
  // A lookaround judges the text beside the match, which in the whole text is the next or the
  // previous line (`\)(?!\s)` fails before the newline): without required text, each line is
  // tried on its own.
  const perLine = literal === undefined && /\(\?<?[=!]/.test(spec.source);
  return {
    scan(text: string, limit: number): Hit[] {
      const hits: Hit[] = [];
      let line = 1;
      let counted = 0; // line numbers are counted up to here
      let from = 0;
      while (hits.length < limit && from <= text.length) {
        let at: number;
        if (pre) {
          pre.lastIndex = from;
          at = pre.exec(text)?.index ?? -1;
        } else if (literal !== undefined) {
          at = text.indexOf(literal, from);
        } else {
          if (perLine) {
            at = from;
          } else {
            all.lastIndex = from;
            at = all.exec(text)?.index ?? -1;
          }
          // No line after the last newline, nor in an empty file.
          if (at === text.length && (at === 0 || text.endsWith("\n"))) break;
        }
        if (at < 0) break;
        const lineStart = text.lastIndexOf("\n", at - 1) + 1;
        let next = text.indexOf("\n", at);
        if (next < 0) next = text.length;
        // A CRLF line ends before its \r, so `$` matches there as it does for LF lines.
        const lineEnd = next > lineStart && text.charCodeAt(next - 1) === 13 ? next - 1 : next;
        let col = at - lineStart;
        let len = literal?.length ?? 0;
        if (!exact) {
          // Lines are matched one at a time: a match that needs the next line does not count.
          const own = one.exec(text.slice(lineStart, lineEnd));
          if (!own) {
            from = literal === undefined && !perLine ? at + 1 : next + 1;
            continue;
          }
          col = own.index;
          len = own[0].length;
        }
        line += _newlines(text, counted, lineStart);
        counted = lineStart;
        hits.push({ line, text: cutLine(text.slice(lineStart, lineEnd), col, len) });
        from = next + 1;
      }
      return hits;
    },
  };
}
