/**
 * parseReply: turns a model's reply into edits, a question, or a problem to send back (docs/ARCHITECTURE.md, "Delegation").
 *
 * Accepted: SEARCH/REPLACE blocks after a path line (`path`, `path:`, `### path`, `**path**`,
 * `` `path` ``, `File: path`, `# path`), fenced or not, or with the path as the fence's first
 * line; a path followed by one fenced block holding the whole new file (the path may also stand
 * alone in a fence of its own before it, or only in the sentence before it); `QUESTION:` as the
 * first line. Reasoning in `<think>…</think>` is dropped first; CRLF replies are read as LF. The
 * shapes come from replies local models really wrote (README, "Reply formats").
 */
import { joinLines } from "./lines.ts";
import { dropCopies } from "./copies.ts";
import { looksLikeDiff, noEdits } from "./no_edits.ts";
import { readQuestion, stripReasoning } from "./reasoning.ts";
import { normalizePath, pathFromLine } from "./path_line.ts";
import { type RawBlock, type RawCode, scanReply } from "./scan.ts";
import type { Edit, ParseResult } from "./types.ts";

/** Options for {@linkcode parseReply}. */
export interface ParseOptions {
  /**
   * The files the model was asked to edit. Used to recognise paths (`calc.py` for
   * `src/calc.py`) and to attribute a block with no path when there is exactly one.
   */
  knownPaths: readonly string[];
  /** The fence the prompt asked for. */
  fence?: string;
}

const SHELL_INFO = /^(bash|sh|shell|zsh|console|terminal|cmd|powershell|ps|text|txt|output|log)$/i;
const DIFF_INFO = /^(diff|patch|udiff)$/i;

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
  sh: ["bash", "sh", "shell", "zsh"],
};

/** Takes a fence line off the start and a closing fence off the end of a SEARCH or REPLACE part. */
function _unwrapFence(part: string[]): string[] {
  let out = part;
  if (out.length && /^\s*(`{3,}|~{3,})[^`~]*$/.test(out[0])) out = out.slice(1);
  if (out.length && /^\s*(`{3,}|~{3,})\s*$/.test(out[out.length - 1])) out = out.slice(0, -1);
  return out;
}

function _blockEdit(block: RawBlock, path: string, warnings: string[]): Edit {
  let { search, replace } = block;
  if (!/\.(md|markdown|mdx)$/i.test(path)) {
    const s = _unwrapFence(search);
    const r = _unwrapFence(replace);
    if (s !== search || r !== replace) {
      warnings.push(`Took the code fences out of the block at line ${block.line + 1}`);
    }
    search = s;
    replace = r;
  }
  const blankSearch = search.every((l) => !l.trim());
  return {
    type: "replace",
    path,
    search: blankSearch ? "" : joinLines(search),
    replace: joinLines(replace),
    line: block.line + 1,
  };
}

function _header(body: string[], known: readonly string[]): string | null {
  const first = body[0]?.trim() ?? "";
  if (!first) return null;
  return pathFromLine(first, known);
}

function _langFits(info: string, path: string): boolean {
  const lang = info.split(/\s/)[0].toLowerCase();
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  if (!lang || !LANGS[ext]) return true;
  return LANGS[ext].includes(lang);
}

function _wholeEdit(code: RawCode, path: string, header: string | null, inferred: boolean): Edit {
  let body = header ? code.body.slice(1) : code.body;
  // The blank line after a path label belongs to the label (the applier restores both).
  if (header && body.length > 1 && !body[0].trim()) body = body.slice(1);
  while (body.length && !body[body.length - 1].trim()) body = body.slice(0, -1);
  return {
    type: "whole",
    path,
    content: joinLines(body),
    line: code.line + 1,
    ...(header && { header: code.body[0] }),
    ...(inferred && { inferred: true }),
  };
}

/**
 * Parses a model reply. Returns the edits in reply order (with warnings about what was guessed
 * or ignored), the question the model asked, or the problem that makes the reply unusable — a
 * message written to be sent back to the model.
 */
export function parseReply(text: string, options: ParseOptions): ParseResult {
  const known = [...new Set(options.knownPaths.map(normalizePath))];
  const reasoning = stripReasoning(text.replace(/\r\n?/g, "\n"));
  const reply = reasoning.text;
  const scan = scanReply(reply, known);
  if (scan.problem) return { kind: "invalid", problem: scan.problem };
  const warnings = [...scan.warnings];
  if (reasoning.unclosed) warnings.push("The reply opened <think> and never closed it");
  const edits: Edit[] = [];
  const pathless: RawCode[] = [];
  let lastPath: string | null = null;
  for (const item of scan.items) {
    if (item.kind === "block") {
      const path: string | null = item.path ?? lastPath ?? (known.length === 1 ? known[0] : null);
      if (!path) {
        return {
          kind: "invalid",
          problem:
            `The SEARCH/REPLACE block at line ${item.line + 1} has no file path; write the ` +
            `file's path alone on the line before "<<<<<<< SEARCH"`,
        };
      }
      if (!item.path && !lastPath) {
        warnings.push(`The block at line ${item.line + 1} names no file; applied it to "${path}"`);
      }
      edits.push(_blockEdit(item, path, warnings));
      lastPath = path;
      continue;
    }
    const header = _header(item.body, known);
    const path = item.path ?? header;
    if (!path) {
      pathless.push(item);
      continue;
    }
    if (looksLikeDiff(item.body) || DIFF_INFO.test(item.info) && !/\.(diff|patch)$/.test(path)) {
      return {
        kind: "invalid",
        problem: `The code block at line ${item.line + 1} is a unified diff, which cannot be ` +
          `applied; use SEARCH/REPLACE blocks or the whole file instead`,
      };
    }
    const strip = header !== null && header === path && item.body.length > 1;
    edits.push(_wholeEdit(item, path, strip ? header : null, item.mentioned));
  }
  const candidates = pathless.filter((c) => !SHELL_INFO.test(c.info.split(/\s/)[0]));
  const asks = readQuestion(reply) !== null;
  if (!edits.length && !asks && known.length === 1 && candidates.length === 1) {
    const code = candidates[0];
    if (
      _langFits(code.info, known[0]) && !looksLikeDiff(code.body) && !DIFF_INFO.test(code.info)
    ) {
      warnings.push(
        `Took the code block at line ${code.line + 1}, which names no file, as the whole of ` +
          `"${known[0]}"`,
      );
      edits.push(_wholeEdit(code, known[0], null, true));
      pathless.length = 0;
    }
  }
  if (pathless.length && edits.length) {
    warnings.push(`Ignored ${pathless.length} code block(s) that name no file`);
  }
  if (!edits.length) return noEdits(reply, pathless, reasoning.unclosed, known);
  const problem = dropCopies(edits, warnings);
  if (problem) return { kind: "invalid", problem };
  if (asks) {
    warnings.push("The reply starts with QUESTION: but also edits; applied the edits");
  }
  return { kind: "edits", edits, warnings };
}
