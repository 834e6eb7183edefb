/**
 * What an edit keeps without being told: the imports the file still uses, the indentation of the
 * lines it does not change, and lockfiles, which only their package manager writes.
 */
import { quoteValue } from "../refusal.ts";
import { changedLines, linesOf } from "./lines.ts";
import type { Validator } from "./types.ts";

const PY_IMPORT = /^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)\s*$/;
const PY_FROM = /^\s*from\s+[\w.]+\s+import\s+\(?([\w\s,]+?)\)?\s*$/;
const JS_IMPORT =
  /^\s*import\s+(?:type\s+)?([\w$]+)?\s*,?\s*(?:\{([^}]*)\})?\s*from\s+['"][^'"]+['"]/;

/** Longer lines are never an import or a case label (and keep the regexes cheap). */
const MAX_LINE = 400;

/** The names a file's import lines bind (Python and JavaScript/TypeScript; one line each). */
function _imported(lines: readonly string[], path: string): Set<string> {
  const names = new Set<string>();
  const py = /\.pyi?$/.test(path);
  const js = /\.(m?[jt]sx?|cjs|cts|mts)$/.test(path);
  for (const line of lines) {
    if (line.length > MAX_LINE) continue;
    if (py) {
      const m = line.match(PY_IMPORT) ?? line.match(PY_FROM);
      for (const part of m?.[1].split(",") ?? []) {
        const bits = part.trim().split(/\s+as\s+/);
        const bound = bits[1] ?? bits[0].split(".")[0];
        if (bound && bound !== "*") names.add(bound.trim());
      }
    } else if (js) {
      const m = line.match(JS_IMPORT);
      if (m?.[1]) names.add(m[1]);
      for (const part of m?.[2]?.split(",") ?? []) {
        const bound = part.trim().split(/\s+as\s+/).pop()?.replace(/^type\s+/, "").trim();
        if (bound) names.add(bound);
      }
    }
  }
  return names;
}

function _uses(lines: readonly string[], name: string): boolean {
  const word = new RegExp(`(^|[^\\w$.])${name.replace(/\$/g, "\\$")}\\s*[.(\\[]`);
  return lines.some((l) => !/^\s*(import|from)\s/.test(l) && word.test(l));
}

/** An import the edit removes while the file still uses the name. */
export const IMPORTS: Validator = {
  name: "imports",
  reason: "destructive",
  check(change) {
    if (change.before === null) return null;
    const before = linesOf(change.before);
    const after = linesOf(change.after);
    const had = _imported(before, change.path);
    if (!had.size) return null;
    const has = _imported(after, change.path);
    const lost = [...had].filter((n) => !has.has(n) && _uses(after, n));
    if (!lost.length) return null;
    return `The edit removes the import of ${lost.map((n) => quoteValue(n)).join(", ")} from ` +
      `${quoteValue(change.path)}, which the file still uses, so nothing was written; keep the ` +
      "import lines the file needs";
  },
};

const ABOUT_INDENT =
  /\b(indent\w*|reformat\w*|format\w*|prettier|black|gofmt|style|tabs?|spaces)\b/i;

/**
 * The lines the edit does not change keep their indentation: a whole file sent back with every
 * line re-indented (4 spaces to 2) rewrites what nobody asked, unless the task's words are about
 * indentation or formatting.
 */
export const INDENTATION: Validator = {
  name: "indentation",
  reason: "destructive",
  check(change, task) {
    if (change.before === null || ABOUT_INDENT.test(task.spec)) return null;
    const before = linesOf(change.before);
    const after = linesOf(change.after);
    const m = changedLines(before, after);
    if (m.beforeTo - m.head < 10) return null;
    const indent = (l: string) => l.slice(0, l.length - l.trimStart().length);
    const at = new Map<string, string[]>();
    for (const l of before.slice(m.head, m.beforeTo)) {
      if (indent(l)) at.set(l.trim(), [...(at.get(l.trim()) ?? []), indent(l)]);
    }
    // Lines outside the changed span kept their indentation.
    let same = before.slice(0, m.head).filter(indent).length +
      before.slice(m.beforeTo).filter(indent).length;
    let moved = 0;
    const shifts = new Set<number>();
    for (const l of after.slice(m.head, m.afterTo)) {
      const was = at.get(l.trim());
      if (!was?.length || !indent(l)) continue;
      if (was.includes(indent(l))) same++;
      else {
        moved++;
        shifts.add(indent(l).length - was[0].length);
      }
    }
    // One shift for every moved line is a block wrapped or unwrapped, not a re-indented file.
    if (shifts.size <= 1 || moved < 8 || moved < (same + moved) * 0.6) return null;
    return `The edit re-indents ${moved} lines of ${quoteValue(change.path)} that it does not ` +
      "otherwise change, which the task does not ask for, so nothing was written; keep the " +
      "file's indentation and change only the lines the task needs";
  },
};

const LOCKFILE =
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|poetry\.lock|Pipfile\.lock|uv\.lock|composer\.lock|Gemfile\.lock|go\.sum|flake\.lock|deno\.lock)$/;

/** A lockfile is written by its package manager (hashes a model cannot know), not by a reply. */
export const LOCKFILES: Validator = {
  name: "lockfile",
  reason: "not-allowed",
  check(change, task) {
    const name = change.path.slice(change.path.lastIndexOf("/") + 1);
    if (!LOCKFILE.test(change.path) || task.spec.includes(name)) return null;
    return `The edit writes ${quoteValue(change.path)}, a lockfile its package manager writes ` +
      "(with hashes nobody can type), so nothing was written; change the manifest only, and " +
      "the caller runs the package manager";
  },
};

const SWITCH = /^(\s*)(?:\w+\s*:=\s*)?(?:switch|match)\b.*\{\s*$/;
const CASE = /^\s*case\s+(.+?)\s*(?::|=>)\s*(?:\/\/.*|#.*)?$/;

/** Each `switch` block's case labels that appear more than once (C, Go, Java, C#, JS, PHP). */
function _repeatedLabels(lines: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].length <= MAX_LINE ? lines[i].match(SWITCH) : null;
    if (!open) continue;
    const seen = new Set<string>();
    for (let k = i + 1; k < lines.length; k++) {
      const l = lines[k];
      if (l.trim() === "}" && l.length - l.trimStart().length <= open[1].length) break;
      if (l.length > MAX_LINE) continue;
      const m = l.match(CASE);
      if (!m || l.length - l.trimStart().length > open[1].length + 8) continue;
      for (const label of m[1].split(",").map((x) => x.trim()).filter(Boolean)) {
        if (seen.has(label)) out.add(label);
        seen.add(label);
      }
    }
  }
  return out;
}

/** A case label the edit writes a second time into one switch (a compile error in most languages). */
export const CASE_LABELS: Validator = {
  name: "case-labels",
  reason: "syntax",
  check(change) {
    const had = _repeatedLabels(linesOf(change.before));
    const twice = [..._repeatedLabels(linesOf(change.after))].filter((l) => !had.has(l));
    if (!twice.length) return null;
    return `The edit writes the case ${quoteValue(twice[0])} a second time into one switch of ` +
      `${quoteValue(change.path)}, so nothing was written; each case label may appear once`;
  },
};
