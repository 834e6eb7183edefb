/**
 * The one path resolver: which file a code block or a SEARCH/REPLACE block belongs to. Every
 * place that could name the file is a candidate tagged with its source; the strongest source
 * present decides, and two different files named by that same source are a tie, which is refused.
 * The precedence (docs/REPLIES.md, "Which file"):
 *
 *   fence info string > path line > name-only fence > first-line comment > backticked mention >
 *   table cell > plain mention > previous block > the only file to edit
 *
 * The first four are strong, and two of them naming different files are a tie too; the rest are
 * weak. A weak source must also fit the block's language (a ```` ```json ```` block is not
 * `calc.py`), and a shell, console or output block is never a file unless a strong source names a
 * file of that kind. "Previous block" names SEARCH/REPLACE blocks only; "the only file" names a
 * SEARCH/REPLACE block, or a code block that is the reply's one candidate edit (`lone`).
 */
import { mentionedPaths, pathFromInfo, pathFromLine } from "./path_line.ts";
import type { FenceToken, Token } from "./tokens.ts";

/** Where a path came from, strongest first. */
export const SOURCES = [
  "info",
  "path-line",
  "name-fence",
  "first-line",
  "ticked",
  "table",
  "plain",
  "previous",
  "only",
] as const;

/** Where a path came from. */
export type PathSource = (typeof SOURCES)[number];

/** True for the sources that only mention a file or guess it. */
export function isWeak(source: PathSource): boolean {
  return SOURCES.indexOf(source) >= SOURCES.indexOf("ticked");
}

/** The file a block belongs to, or why none. */
export type Resolution =
  | {
    path: string;
    source: PathSource;
    header?: string;
    /**
     * Other files a weak source also names for the block: readings the caller may try too (the
     * validators keep the one that survives, docs/REPLIES.md, "Candidates").
     */
    alternatives?: string[];
  }
  | { path: null; tie?: string[] };

const SHELL =
  /^(bash|sh|shell|zsh|fish|console|terminal|cmd|powershell|ps|ps1|bat|shell-session|sh-session)$/i;
const OUTPUT = /^(text|txt|output|log|plaintext|plain|stdout|stderr|out)$/i;
const SHELL_FILE = /\.(sh|bash|zsh|fish|ps1|bat|cmd)$/i;
const TEXT_FILE = /\.(txt|log|text|out|csv|tsv|env|ini|cfg|conf)$|(^|\/)[^.]*$/i;

const LANGS: Record<string, string[]> = {
  py: ["python", "py", "python3", "py3"],
  pyi: ["python", "py"],
  ts: ["typescript", "ts"],
  tsx: ["typescript", "tsx", "ts", "jsx"],
  js: ["javascript", "js", "node", "jsx"],
  jsx: ["javascript", "jsx", "js"],
  mjs: ["javascript", "js"],
  go: ["go", "golang"],
  rs: ["rust", "rs"],
  rb: ["ruby", "rb"],
  java: ["java"],
  json: ["json", "jsonc", "json5"],
  md: ["markdown", "md"],
  sh: ["bash", "sh", "shell", "zsh"],
};

/** The fence's language: its info string's first word. */
function _lang(info: string): string {
  return info.split(/\s/)[0].toLowerCase();
}

/** True for a fence that shows a command or its output, never a file's content by itself. */
export function isShellOrOutput(info: string): boolean {
  const lang = _lang(info);
  return SHELL.test(lang) || OUTPUT.test(lang);
}

/** True when a code block with `info` may hold `path` (for a weak source). */
export function langFits(info: string, path: string): boolean {
  const lang = _lang(info);
  if (!lang) return true;
  if (isShellOrOutput(lang)) return false;
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return !LANGS[ext] || LANGS[ext].includes(lang);
}

/** True when a strong source may give a shell or output block the file `path`. */
function _kindFits(info: string, path: string): boolean {
  const lang = _lang(info);
  if (SHELL.test(lang)) return SHELL_FILE.test(path);
  if (OUTPUT.test(lang)) return TEXT_FILE.test(path) || /\.(md|rst)$/i.test(path);
  return true;
}

/** The path a fence holds when it holds nothing else (a name-only fence), or `null`. */
export function labelOf(t: Token, known: readonly string[]): string | null {
  if (t.kind !== "fence") return null;
  const text = t.body.filter((l) => l.trim());
  return text.length === 1 ? pathFromLine(text[0], known) : null;
}

interface Candidate {
  path: string;
  source: PathSource;
}

function _mentions(line: string, known: readonly string[]): Candidate[] {
  const out: Candidate[] = [];
  const ticked = mentionedPaths(line, known, "ticked");
  out.push(...ticked.map((path) => ({ path, source: "ticked" as const })));
  // Plain mentions beside backticked ones are candidates too, weaker than them.
  const plain = mentionedPaths(line, known, "plain").filter((p) => !ticked.includes(p));
  out.push(...plain.map((path) => ({ path, source: "plain" as const })));
  return out;
}

/**
 * The candidates written before token `at`: path lines in the two nearest lines of prose, a
 * name-only fence right before it, the info string of a fence that wraps it, and the files
 * mentioned in the nearest line of prose (a whole table when that line is a table row).
 */
function _before(tokens: readonly Token[], at: number, known: readonly string[]): Candidate[] {
  const out: Candidate[] = [];
  let prose = 0;
  for (let k = at - 1; k >= 0; k--) {
    const t = tokens[k];
    if (t.kind === "prose" && !t.text.trim()) continue;
    if (t.kind === "wrap") {
      if (!t.open) break;
      const p = pathFromInfo(t.info, known);
      if (p) out.push({ path: p, source: "info" });
      continue;
    }
    if (t.kind === "fence") {
      const label = prose === 0 ? labelOf(t, known) : null;
      if (label) out.push({ path: label, source: "name-fence" });
      break;
    }
    if (t.kind !== "prose") break;
    const strict = pathFromLine(t.text, known);
    if (strict) {
      out.push({ path: strict, source: "path-line" });
      break;
    }
    if (prose === 0) {
      const item = _itemKind(t.text);
      if (item) {
        for (let r = k; r >= 0; r--) {
          const row = tokens[r];
          if (row.kind !== "prose" || _itemKind(row.text) !== item) break;
          for (const c of _mentions(row.text, known)) out.push({ ...c, source: "table" });
        }
      } else out.push(..._mentions(t.text, known));
    }
    if (++prose >= 2) break;
  }
  return out;
}

/** A table row or a list item: the rows of one table, the items of one list, are read together. */
function _itemKind(line: string): "row" | "item" | null {
  const t = line.trim();
  if (t.startsWith("|")) return "row";
  return /^([-*+]|\d+[.)])\s/.test(t) ? "item" : null;
}

/** Strong sources: a file named by one of them cannot be overruled by another one. */
const CONFLICTING: readonly PathSource[] = ["info", "path-line", "name-fence", "first-line"];

function _decide(candidates: Candidate[]): Resolution {
  const strong = [
    ...new Set(candidates.filter((c) => CONFLICTING.includes(c.source)).map((c) => c.path)),
  ];
  if (strong.length > 1) return { path: null, tie: strong };
  for (const source of SOURCES) {
    const paths = [...new Set(candidates.filter((c) => c.source === source).map((c) => c.path))];
    if (paths.length > 1) return { path: null, tie: paths };
    if (paths.length === 1) {
      if (!isWeak(source)) return { path: paths[0], source };
      const others = [
        ...new Set(
          candidates.filter((c) => isWeak(c.source) && c.path !== paths[0]).map((c) => c.path),
        ),
      ];
      return { path: paths[0], source, ...(others.length && { alternatives: others }) };
    }
  }
  return { path: null };
}

/** Whether token `at` is a name-only fence: a label for the block that follows it. */
export function isLabel(tokens: readonly Token[], at: number, known: readonly string[]): boolean {
  const label = labelOf(tokens[at], known);
  if (!label) return false;
  // A path line naming the same file before it (`**modal.css**`, then a fence holding only
  // `modal.css`) is the label said twice, not a one-line file.
  const own = _before(tokens, at, known).filter((c) => !isWeak(c.source));
  if (own.some((c) => c.path !== label)) return false;
  for (let k = at + 1; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === "prose" && !t.text.trim()) continue;
    return t.kind === "fence" || t.kind === "block" || (t.kind === "wrap" && t.open);
  }
  return false;
}

/**
 * The file token `at` (a fence or a block) belongs to. `previous` is the file of the block before
 * it. With `lone`, the code block is the reply's one candidate edit, so the only file to edit (when
 * there is exactly one) is a candidate for it too.
 */
export function resolvePathOf(
  tokens: readonly Token[],
  at: number,
  known: readonly string[],
  previous: string | null,
  lone = false,
): Resolution {
  const t = tokens[at];
  const candidates = _before(tokens, at, known);
  if (t.kind === "block") {
    if (previous) candidates.push({ path: previous, source: "previous" });
    if (known.length === 1) candidates.push({ path: known[0], source: "only" });
    return _decide(candidates);
  }
  if (t.kind !== "fence") return { path: null };
  const fence = t as FenceToken;
  const info = pathFromInfo(fence.info, known);
  if (info) candidates.push({ path: info, source: "info" });
  // A diff's `--- a/calc.py` header is the diff's, not a path comment.
  const header = fence.body[0]?.trim() && !/^(---|\+\+\+) /.test(fence.body[0]);
  const first = header ? pathFromLine(fence.body[0], known) : null;
  if (first && fence.body.length > 1) candidates.push({ path: first, source: "first-line" });
  if (lone && known.length === 1) candidates.push({ path: known[0], source: "only" });
  const fits = candidates.filter((c) =>
    isWeak(c.source) ? langFits(fence.info, c.path) : _kindFits(fence.info, c.path)
  );
  const decided = _decide(fits);
  if (decided.path !== null && decided.source === "first-line") {
    return { ...decided, header: fence.body[0] };
  }
  if (decided.path !== null && first === decided.path && fence.body.length > 1) {
    return { ...decided, header: fence.body[0] };
  }
  return decided;
}
