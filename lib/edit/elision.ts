/**
 * Spotting code a model left out instead of writing it: `...`, `# rest unchanged`,
 * `// existing code`, `/* ... *\/`, `# ... (rest of file)`, `{ ... }` and the like.
 *
 * Legitimate code is not refused: Python's `...` as the body of a new stub (or of one that was a
 * stub already), a JavaScript spread `...args`, and any line that already stood in the original
 * file (or in the SEARCH part being replaced).
 */

/** A line that stands in for code the model did not write. */
export interface Elision {
  /** 1-based line within the checked text. */
  line: number;
  text: string;
}

const PYTHON = /\.(py|pyi|pyw)$/i;
const PROSE = /\.(md|markdown|mdx|txt|rst|adoc|org)$/i;
/** Longer lines are code or prose, never a marker for left-out code (and keep the regexes cheap). */
const MAX_LINE = 300;
const BARE_DOTS = /^(\.\.\.|…|\. \. \.)$/;
const STRONG = [
  /\b(rest|remainder)\s+of\s+(the\s+|this\s+|your\s+)?(file|code|class|function|module|implementation|methods?|functions|body|component|tests?|imports|script|program|logic|content|lines|source|definitions?|page|template)\b/i,
  /\b(omitted|elided|for brevity|snipped|as before|same as (before|above|the original))\b/i,
  /^(the\s+)?(existing|previous|original|other|remaining|old|unchanged)\s+(code|implementation|methods?|functions?|content|logic|imports|lines|tests?|class(es)?|definitions|fields|properties|routes|handlers|cases)\b/i,
  /\bkeep(ing)?\s+(the\s+)?(rest|existing|remaining|other|original)\b/i,
  /^(\(?\s*)?(unchanged|no changes?|snip)\s*\)?$/i,
  /\b(rest|remaining|other|everything else|all else|same|imports|code|file|functions?|methods?|class|body)\b.*\bunchanged\s*[)\].]*$/i,
  /^(your|the)?\s*(code|implementation)\s+(continues|goes here|here)\b/i,
];

function _commentText(line: string, prose: boolean): string | null {
  const t = line.trim();
  const html = t.match(/^<!--(.*?)(-->)?$/);
  if (html) return html[1];
  if (prose) return null;
  const m = t.match(/^(#+|\/\/+|\/\*+|\*(?!\/)|--|;+|%+|'(?=\s))(.*?)(\*+\/)?$/);
  return m ? m[2] : null;
}

function _isElisionComment(comment: string): boolean {
  const c = comment.trim().replace(/^[\s*\-–—:]+|[\s*\-–—:]+$/g, "");
  if (!c) return false;
  const words = c.split(/\s+/).length;
  if (/^(\.\.\.|…)/.test(c)) return true;
  if (words > 14) return false;
  const core = c.replace(/\.\.\.|…/g, " ").trim();
  if (/(\.\.\.|…)$/.test(c) && STRONG.some((r) => r.test(core))) return true;
  return STRONG.some((r) => r.test(core));
}

function _bracketed(t: string): boolean {
  if (!/^[\[(<{]/.test(t) || !/[\])>}]$/.test(t)) return false;
  const inner = t.slice(1, -1).trim();
  return /^(\.\.\.|…)/.test(inner) || STRONG.some((r) => r.test(inner.replace(/\.\.\./g, "")));
}

/** Line `i` trimmed, then the header of each block around it, innermost first. */
function _chain(lines: readonly string[], i: number): string[] {
  const out = [lines[i].trim()];
  let indent = _indent(lines[i]);
  for (let k = i - 1; k >= 0 && indent > 0; k--) {
    if (lines[k].trim() && _indent(lines[k]) < indent) {
      out.push(lines[k].trim());
      indent = _indent(lines[k]);
    }
  }
  return out;
}

/**
 * True when the definition at `chain` (`def f(x):` inside its class) exists in the original with
 * a real body: its first statement, after any docstring, is neither `...` nor `pass`.
 */
function _hadBody(chain: readonly string[], original: readonly string[]): boolean {
  for (let i = 0; i < original.length; i++) {
    if (original[i].trim() !== chain[0]) continue;
    // A REPLACE part may show a method without its class: its chain is a prefix of the file's.
    const full = _chain(original, i);
    if (chain.some((line, k) => full[k] !== line)) continue;
    let k = i + 1;
    while (k < original.length && !original[k].trim()) k++;
    const doc = original[k]?.trim().match(/^[rbuf]*("""|\'\'\')/i);
    if (doc) {
      const rest = original[k].trim().slice(doc[0].length);
      if (!rest.includes(doc[1])) {
        while (++k < original.length && !original[k].includes(doc[1]));
      }
      k++;
      while (k < original.length && !original[k].trim()) k++;
    }
    const next = original[k]?.trim();
    if (next === undefined || _indent(original[k]) <= _indent(original[i])) continue;
    if (!BARE_DOTS.test(next.replace(/\s*#.*$/, "")) && next !== "pass") return true;
  }
  return false;
}

/**
 * Python's `...` is code, not an elision, unless it stands where the original had real code: at
 * module level, or as the body of a definition that the original gives a real body.
 */
function _pythonEllipsis(
  lines: readonly string[],
  i: number,
  original: readonly string[],
): boolean {
  const indent = _indent(lines[i]);
  for (let k = i - 1; k >= 0; k--) {
    if (lines[k].trim() && _indent(lines[k]) < indent) return _hadBody(_chain(lines, k), original);
  }
  return true;
}

function _indent(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * The first line of `lines` that elides code, or `null`. `path` picks the language rules;
 * `original` is the file as it is now (empty for a new file); `exempt` holds further lines that
 * are fine to repeat (the SEARCH part of a block); `only` limits the lines looked at (0-based,
 * `to` excluded), the others still read as context.
 */
export function findElision(
  lines: readonly string[],
  path: string,
  original: readonly string[],
  exempt: readonly string[] = [],
  only?: { from: number; to: number },
): Elision | null {
  const python = PYTHON.test(path);
  const prose = PROSE.test(path);
  // The lines that stood already are looked up only for a line that would otherwise be refused.
  let known: Set<string> | null = null;
  const stood = (t: string) =>
    (known ??= new Set([...original, ...exempt].map((l) => l.trim()))).has(t);
  for (let i = only?.from ?? 0; i < (only?.to ?? lines.length); i++) {
    const t = lines[i].trim();
    if (!t || (t.length > MAX_LINE && !BARE_DOTS.test(t))) continue;
    let elided = false;
    if (python && BARE_DOTS.test(t.replace(/\s*#.*$/, ""))) {
      elided = _pythonEllipsis(lines, i, original);
    } else if (BARE_DOTS.test(t)) {
      elided = python ? _pythonEllipsis(lines, i, original) : !prose && !stood(t);
    } else {
      if (python) {
        const stub = t.match(/^((async\s+)?(def|class)\b.*:)\s*(\.\.\.|…)\s*(#.*)?$/);
        elided = stub ? _hadBody([stub[1], ..._chain(lines, i).slice(1)], original) : false;
      } else if (!prose) {
        elided = /[{(\[]\s*(\.\.\.|…)\s*[})\]]/.test(t);
      }
      if (!elided) {
        const comment = _commentText(t, prose);
        elided = comment !== null ? _isElisionComment(comment) : _bracketed(t);
      }
      if (elided && stood(t)) continue;
    }
    if (elided) return { line: i + 1, text: t };
  }
  return null;
}
