/**
 * parseReply: turns a model's reply into edits, a question, or a problem to send back
 * (docs/REPLIES.md). Three steps, each with one job: `tokenize` (tokens.ts) splits the reply into
 * prose, code blocks and SEARCH/REPLACE blocks; `resolvePathOf` (resolve.ts), the one place that
 * decides a path, names each block's file; then the whole reply is reconciled here before any of
 * it is applied:
 *
 * - code that no path claims (or a diff), next to edits, refuses the whole reply, never half of it;
 *   a shell, console or output block is not code for a file and is left aside;
 * - identical edits count once; two different whole-file blocks for one file are refused unless
 *   exactly one of them has a strong source (the others only mention the file in prose);
 * - a code block that ends with the name of a file to edit was left unclosed, and is refused.
 *
 * With no edits at all, a lone code block is the only file to edit when there is one and its
 * language fits; otherwise `noEdits` says what the reply is (a question, a diff, a request).
 */
import { joinLines } from "./lines.ts";
import { looksLikeDiff, noEdits } from "./no_edits.ts";
import { harmonyAnswer, readQuestion } from "./reasoning.ts";
import { readOwnShapes } from "./formats/mod.ts";
import { mentionedPaths, normalizePath, pathFromLine } from "./path_line.ts";
import {
  isLabel,
  isShellOrOutput,
  isWeak,
  langFits,
  type PathSource,
  resolvePathOf,
  SOURCES,
} from "./resolve.ts";
import { type BlockToken, type FenceToken, parseFence, type Token, tokenize } from "./tokens.ts";
import type { ParseResult, ReadEdit, WholeEdit } from "./types.ts";

/** Options for {@linkcode parseReply}. */
export interface ParseOptions {
  /**
   * The files the model was asked to edit. Used to recognise paths (`calc.py` for
   * `src/calc.py`) and to attribute a block with no path when there is exactly one.
   */
  knownPaths: readonly string[];
  /** The fence the prompt asked for (`chooseFence`); a reply that opens a shorter one is read by nesting. */
  fence?: string;
  /** The files' current contents: code that only quotes them is not an edit. */
  current?: ReadonlyMap<string, string | null>;
}

const DIFF_INFO = /^(diff|patch|udiff)$/i;
const HUNK = /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/;
const MARKDOWN = /\.(md|markdown|mdx)$/i;

/** Takes a fence line off the start and a closing fence off the end of a SEARCH or REPLACE part. */
function _unwrapFence(part: string[]): string[] {
  let out = part;
  if (out.length && parseFence(out[0])) out = out.slice(1);
  const last = out.length ? parseFence(out[out.length - 1]) : null;
  if (last && !last.info) out = out.slice(0, -1);
  return out;
}

function _blockEdit(
  block: BlockToken,
  path: string,
  source: PathSource,
  warnings: string[],
): ReadEdit {
  let { search, replace } = block;
  let written: { search: string; replace: string } | undefined;
  if (!MARKDOWN.test(path)) {
    const s = _unwrapFence(search);
    const r = _unwrapFence(replace);
    if (s !== search || r !== replace) {
      warnings.push(`Took the code fences out of the block at line ${block.line + 1}`);
      if (s !== search) written = { search: joinLines(search), replace: joinLines(replace) };
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
    source,
    ...(written && { written }),
  };
}

function _wholeEdit(
  code: FenceToken,
  path: string,
  source: PathSource,
  header?: string,
): WholeEdit {
  let body = header !== undefined ? code.body.slice(1) : code.body;
  // The blank line after a path label belongs to the label (the applier restores both).
  if (header !== undefined && body.length > 1 && !body[0].trim()) body = body.slice(1);
  while (body.length && !body[body.length - 1].trim()) body = body.slice(0, -1);
  return {
    type: "whole",
    path,
    content: joinLines(body),
    line: code.line + 1,
    source,
    ...(header !== undefined && { header }),
    ...(code.loose && { looseEnd: code.end + 1 }),
  };
}

function _isDiff(code: FenceToken): boolean {
  return DIFF_INFO.test(code.info.split(/\s/)[0]) || looksLikeDiff(code.body) ||
    code.body.some((l) => HUNK.test(l));
}

function _tie(what: string, paths: string[]): ParseResult {
  const names = paths.map((p) => JSON.stringify(p)).join(" and ");
  return {
    kind: "invalid",
    problem: `${what} could be for ${names}: the reply names both, so which file it changes is ` +
      "unclear and nothing was applied; write the file's path alone on the line before each block",
  };
}

/**
 * Identical edits count once (the copy with the stronger source stands for both); whole-file
 * blocks for one file that differ are refused. Changes `edits` in place; returns a problem or null.
 */
function _reconcileCopies(edits: ReadEdit[], warnings: string[]): string | null {
  const seen = new Map<string, ReadEdit>();
  for (let i = 0; i < edits.length; i++) {
    const e = edits[i];
    const key = JSON.stringify(
      e.type === "whole" ? [e.path, e.content] : [e.path, e.search, e.replace],
    );
    const kept = seen.get(key);
    if (!kept) {
      seen.set(key, e);
      continue;
    }
    warnings.push(`The edit at line ${e.line} repeats an earlier one; applied it once`);
    // The copy with the stronger source stands for both.
    if (SOURCES.indexOf(e.source ?? "only") < SOURCES.indexOf(kept.source ?? "only")) {
      edits[edits.indexOf(kept)] = e;
      seen.set(key, e);
    }
    edits.splice(i--, 1);
  }
  const byPath = new Map<string, WholeEdit[]>();
  for (const e of edits) {
    if (e.type === "whole") byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
  }
  for (const [path, copies] of byPath) {
    if (copies.length < 2) continue;
    const lines = copies.map((c) => c.line).join(", ");
    const count = copies.length === 2 ? "two" : String(copies.length);
    return `The reply holds ${count} whole-file blocks for "${path}" that differ (code ` +
      `blocks at lines ${lines}), so which one is meant is unclear; send the file once:\n` +
      `${path}\n\`\`\`\n(the complete file)\n\`\`\``;
  }
  return null;
}

/**
 * A whole file named only weakly (a mention in prose) for a file that a strong source already
 * edits is not an edit of its own: it goes back to the code no path claims (a preview, a
 * restatement, a command or its output — or another version, which `_competes` refuses).
 */
function _demoteWeak(
  edits: ReadEdit[],
  fences: Map<ReadEdit, FenceToken>,
  unclaimed: FenceToken[],
) {
  const strong = new Set(edits.filter((e) => e.source && !isWeak(e.source)).map((e) => e.path));
  for (let i = edits.length - 1; i >= 0; i--) {
    const e = edits[i];
    if (e.type !== "whole" || !e.source || !isWeak(e.source) || !strong.has(e.path)) continue;
    unclaimed.push(fences.get(e)!);
    edits.splice(i, 1);
  }
  unclaimed.sort((a, b) => a.line - b.line);
}

/** A definition line (`def f`, `class A`, `function f`, `fn f`, `func (r T) f`, …): its name. */
const DEFINES =
  /^\s*(?:export\s+)?(?:default\s+)?(?:pub(?:\([\w\s]+\))?\s+)?(?:async\s+)?(?:def|class|function\*?|fn|interface|type|enum|struct|trait|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)/;

function _defines(lines: readonly string[]): string[] {
  return lines.flatMap((l) => {
    const m = l.length < 300 ? l.match(DEFINES) : null;
    return m ? [m[1]] : [];
  });
}

function _lines(text: string): string[] {
  return text.split("\n").map((l) => l.trim()).filter((l) => l);
}

/**
 * Whether code no path claims competes with the reply's edits (then the reply is refused whole):
 * a diff always does. Code that only restates what the edits write or quotes the files as they
 * are (`quoted`), or a draft whose every
 * definition an edit later in the reply makes again, does not; nor does code that defines nothing
 * and shares little with the edits (a call, a command, an example). Otherwise code that defines
 * something, or rewrites the lines the edits touch, is another version of a file: it competes.
 */
function _competes(code: FenceToken, edits: readonly ReadEdit[], quoted: Set<string>): boolean {
  if (_isDiff(code)) return true;
  const body = code.body.map((l) => l.trim()).filter((l) => l);
  if (!body.length) return false;
  const written = new Set(edits.flatMap((e) => _lines(e.type === "whole" ? e.content : e.replace)));
  if (body.every((l) => written.has(l) || quoted.has(l))) return false;
  const later = new Set(
    edits.filter((e) => (e.line ?? 0) > code.line + 1).flatMap((e) =>
      _defines((e.type === "whole" ? e.content : e.replace).split("\n"))
    ),
  );
  const defines = _defines(code.body);
  if (defines.length) return defines.some((name) => !later.has(name));
  const searched = new Set(edits.flatMap((e) => (e.type === "replace" ? _lines(e.search) : [])));
  const shared = body.filter((l) => written.has(l) || searched.has(l)).length;
  return shared >= 2 && shared * 2 >= body.length;
}

/**
 * A code block that holds the name of another file to edit on a line of its own, last or right
 * before a fence line: its fence was left open before that file's block.
 */
function _unclosed(
  code: FenceToken,
  path: string | null,
  known: readonly string[],
  followed = true,
): string | null {
  const body = code.body;
  for (let k = 0; k < body.length; k++) {
    if (!body[k].trim() || k === 0) continue;
    const named = pathFromLine(body[k], known);
    if (!named || named === path || !known.includes(named)) continue;
    const next = body.slice(k + 1).find((l) => l.trim());
    if (next !== undefined && !parseFence(next)) continue;
    // A file's name as the last line of the reply's last block is content (a .dockerignore
    // that lists the Dockerfile): a fence left open leaves something after it.
    if (next === undefined && !followed) continue;
    return `The code block at line ${code.line + 1} holds the line ${
      JSON.stringify(body[k].trim())
    }, a file's name, ${
      next === undefined ? "as its last line" : "before a fence"
    }: its fence was likely never closed, so nothing was applied; close each code block before ` +
      "the next file's name";
  }
  return null;
}

/** True when anything but blank prose follows token `at`. */
function _followed(tokens: readonly Token[], at: number): boolean {
  return tokens.slice(at + 1).some((t) => t.kind !== "prose" || t.text.trim());
}

/** What the reply's blocks resolve to, before the reply is reconciled. */
interface Read {
  edits: ReadEdit[];
  /** The code block each whole-file edit came from. */
  fences: Map<ReadEdit, FenceToken>;
  /** Code blocks no path claims. */
  unclaimed: FenceToken[];
  /** Shell, console and output blocks no path claims. */
  commands: FenceToken[];
}

function _diffProblem(code: FenceToken): ParseResult {
  return {
    kind: "invalid",
    problem: `The code block at line ${code.line + 1} is a unified diff, which cannot be ` +
      `applied; use SEARCH/REPLACE blocks or the whole file instead`,
  };
}

/** Resolves every block's file (`resolve.ts`); a block no file can be given to stops the reply. */
function _read(tokens: Token[], known: readonly string[], warnings: string[]): Read | ParseResult {
  const read: Read = { edits: [], fences: new Map(), unclaimed: [], commands: [] };
  let previous: string | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === "block") {
      const r = resolvePathOf(tokens, i, known, previous);
      if (r.path === null) {
        if (r.tie) return _tie(`The SEARCH/REPLACE block at line ${t.line + 1}`, r.tie);
        return {
          kind: "invalid",
          problem: `The SEARCH/REPLACE block at line ${t.line + 1} has no file path; write the ` +
            `file's path alone on the line before "<<<<<<< SEARCH"`,
        };
      }
      if (r.source === "only") {
        warnings.push(`The block at line ${t.line + 1} names no file; applied it to "${r.path}"`);
      }
      read.edits.push(_blockEdit(t, r.path, r.source, warnings));
      previous = r.path;
      continue;
    }
    if (t.kind !== "fence") continue;
    if (isLabel(tokens, i, known)) {
      warnings.push(
        `Took the block at line ${t.line + 1}, which holds only a file name, as a path`,
      );
      continue;
    }
    const r = resolvePathOf(tokens, i, known, null);
    if (_isDiff(t) && (r.path !== null || r.tie) && !/\.(diff|patch)$/.test(r.path ?? "")) {
      return _diffProblem(t);
    }
    if (r.path === null) {
      const command = isShellOrOutput(t.info) && !_isDiff(t);
      if (r.tie && !command) return _tie(`The code block at line ${t.line + 1}`, r.tie);
      (command ? read.commands : read.unclaimed).push(t);
      continue;
    }
    const open = _unclosed(t, r.path, known, _followed(tokens, i));
    if (open) return { kind: "invalid", problem: open };
    const whole = _wholeEdit(t, r.path, r.source, "header" in r ? r.header : undefined);
    const others = "alternatives" in r ? r.alternatives?.filter((p) => langFits(t.info, p)) : [];
    if (others?.length) whole.alternatives = others;
    read.fences.set(whole, t);
    read.edits.push(whole);
  }
  return read;
}

/**
 * Judges the whole reply before any of it is applied (docs/REPLIES.md, "Reconciling"): a diff
 * hunk or competing code next to the edits refuses it; repeated edits count once. Returns the
 * problem, or null with `read.edits` final.
 */
function _reconcile(
  read: Read,
  tokens: Token[],
  current: ReadonlyMap<string, string | null> | undefined,
  warnings: string[],
): string | null {
  const { edits, unclaimed } = read;
  _demoteWeak(edits, read.fences, unclaimed);
  const hunk = tokens.find((t) => t.kind === "prose" && HUNK.test(t.text));
  if (hunk) {
    return `Line ${hunk.line + 1} starts a unified diff hunk, next to the reply's edits; a diff ` +
      "cannot be applied and applying only the rest could be wrong, so nothing was applied; " +
      "use SEARCH/REPLACE blocks or the whole file for every change";
  }
  const quoted = new Set([...(current?.values() ?? [])].flatMap((t) => _lines(t ?? "")));
  const competing = unclaimed.filter((c) => _competes(c, edits, quoted));
  if (unclaimed.length > competing.length) {
    warnings.push(`Ignored ${unclaimed.length - competing.length} code block(s) that name no file`);
  }
  if (competing.length) {
    const at = competing.map((c) => c.line + 1).join(", ");
    const diff = competing.some(_isDiff) ? " (a diff, which cannot be applied)" : "";
    return `The reply holds code that names no file at line ${at}${diff}, next to its ` +
      "edits; nothing was applied, since applying only part of the reply could be wrong. " +
      "Write the file's path alone on the line before every block you mean as an edit, " +
      "and leave out code that is not one";
  }
  return _reconcileCopies(edits, warnings);
}

const NO_CHANGE_SAID =
  /\b(no (code )?changes? (is |are )?(needed|required|necessary)|nothing (needs|has) to (change|be changed)|(does not|doesn't|do not|don't) need (any )?(changes?|to (be )?change)|(is|are) already (correct|right|fine|in place|implemented|done))\b/i;

/**
 * A reply whose prose before its first edit says no change is needed, about the files it edits (or
 * none named): its code is a quotation ("for reference, here is the file"), and a copy that
 * differs from the file is not an edit anybody asked for. Refused, asking the model to choose.
 */
function _saidUnchanged(tokens: readonly Token[], edits: readonly ReadEdit[], known: string[]) {
  const first = Math.min(...edits.map((e) => e.line ?? Infinity));
  const edited = new Set(edits.map((e) => e.path));
  for (const t of tokens) {
    if (t.line + 1 >= first) break;
    if (t.kind !== "prose" || !NO_CHANGE_SAID.test(t.text)) continue;
    const named = mentionedPaths(t.text, known, "plain");
    if (named.some((p) => !edited.has(p))) continue;
    return "The reply says no change is needed, yet sends new content for " +
      `${[...edited].map((p) => JSON.stringify(p)).join(", ")}, so nothing was written. If ` +
      "nothing needs to change, reply with QUESTION: and say so; if it does, send the edit " +
      "without saying that nothing changes";
  }
  return null;
}

/**
 * A `QUESTION:` line between a reply's edits ("QUESTION: should submit() retry too? I've assumed
 * yes below"): the edits after it depend on the answer, so the reply asks. Its text, or `null`.
 */
function _asksMidway(tokens: readonly Token[]): string | null {
  const at = tokens.find((t) => t.kind === "prose" && /^[\s*_#>]*QUESTION[\s*_]*:/.test(t.text));
  return at && at.kind === "prose" ? readQuestion(at.text) : null;
}

const UNASKED_SAID =
  /\b(while I was at it|while I'm at it|while at it|as a bonus|took the liberty|unrelated (fix|bug|change|issue|improvement)s?|(this|that) (is|was) not part of (the|your) (task|request))\b/i;

/**
 * A reply whose prose says it also made a change the task does not ask for ("while I was at it I
 * also fixed median()"): a reply is applied whole or not at all, so it is refused, asking for the
 * task's change alone.
 */
function _saidUnasked(tokens: readonly Token[]): string | null {
  const said = tokens.find((t) => t.kind === "prose" && UNASKED_SAID.test(t.text));
  if (!said || said.kind !== "prose") return null;
  const words = said.text.match(UNASKED_SAID)![0];
  return `The reply says it also makes a change the task does not ask for ("${words}"); a ` +
    "reply is applied whole or not at all, so nothing was written. Send only the change the " +
    "task asks for; if the other one is needed, ask with QUESTION: first";
}

/**
 * Parses a model reply. Returns the edits in reply order (with warnings about what was guessed
 * or ignored), the question the model asked, or the problem that makes the reply unusable — a
 * message written to be sent back to the model.
 */
export function parseReply(text: string, options: ParseOptions): ParseResult {
  const known = [...new Set(options.knownPaths.map(normalizePath))];
  const answer = harmonyAnswer(text);
  const own = readOwnShapes(answer.text, known);
  if (own) return { kind: "edits", edits: own, warnings: [] };
  const tk = tokenize(answer.text, options.fence, (l) => pathFromLine(l, known) !== null);
  if (tk.problem) return { kind: "invalid", problem: tk.problem };
  const warnings = [...tk.warnings];
  if (answer.dropped) warnings.push("Dropped the reply's reasoning channel; read its answer only");
  if (tk.unclosedThink) warnings.push("The reply opened <think> and never closed it");
  const asks = readQuestion(tk.visible) !== null || _asksMidway(tk.tokens);
  const read = _read(tk.tokens, known, warnings);
  if ("kind" in read) return read;
  const { edits, unclaimed } = read;
  if (!edits.length && !asks && unclaimed.length === 1) {
    // The reply's one code block, with no file named: the only file to edit, if it fits.
    const code = unclaimed[0];
    const r = resolvePathOf(tk.tokens, tk.tokens.indexOf(code), known, null, true);
    if (r.path !== null && !_isDiff(code) && !_unclosed(code, null, known)) {
      warnings.push(
        `Took the code block at line ${code.line + 1}, which names no file, as the whole of ` +
          `"${r.path}"`,
      );
      edits.push(_wholeEdit(code, r.path, r.source));
      unclaimed.length = 0;
    }
  }
  if (!edits.length) {
    return noEdits(tk.visible, unclaimed, tk.unclosedThink, known, read.commands);
  }
  const problem = _reconcile(read, tk.tokens, options.current, warnings) ??
    _saidUnchanged(tk.tokens, edits, known) ?? _saidUnasked(tk.tokens);
  if (problem) return { kind: "invalid", problem };
  // A reply that opens with a question asks before it edits: its edits wait for the answer
  // (an edit offered "if that is what you want" answers the question on the caller's behalf).
  if (asks) {
    return { kind: "question", question: readQuestion(tk.visible) ?? _asksMidway(tk.tokens)! };
  }
  return { kind: "edits", edits, warnings };
}
