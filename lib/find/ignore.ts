/**
 * `.gitignore` rules, as git reads them: comments, `!` negation, `/`-anchored and directory-only
 * patterns, `**`. Used by find's own walk when git's listing cannot be used.
 *
 * Precedence follows git: within one file the last matching rule wins; a file in a deeper folder
 * wins over its parents'; `.git/info/exclude` comes below the root's `.gitignore`. A folder that
 * is ignored is not entered, so nothing below it can be re-included (as in git).
 */
import { globSource } from "../glob/mod.ts";

/** One compiled pattern. */
interface Rule {
  re: RegExp;
  negate: boolean;
  dirOnly: boolean;
  /** Matched against the path relative to the file's folder; otherwise against the name. */
  anchored: boolean;
}

/** The rules of one ignore file, which applies to its folder `base` (`""` for the root). */
export interface IgnoreFile {
  base: string;
  rules: Rule[];
}

/** Parses one line; undefined for blanks and comments. */
function _rule(line: string): Rule | undefined {
  let text = line.replace(/\r$/, "");
  if (!text || text.startsWith("#")) return undefined;
  // Trailing spaces are dropped unless escaped.
  text = text.replace(/(?<!\\)\s+$/, "");
  let negate = false;
  if (text.startsWith("!")) {
    negate = true;
    text = text.slice(1);
  } else if (text.startsWith("\\!") || text.startsWith("\\#")) {
    text = text.slice(1);
  }
  // A pattern ending in a lone backslash never matches in git (it escapes nothing).
  if (/(^|[^\\])(\\\\)*\\$/.test(text)) return undefined;
  const dirOnly = text.endsWith("/");
  if (dirOnly) text = text.replace(/\/+$/, "");
  if (!text) return undefined;
  const anchored = text.includes("/");
  if (text.startsWith("/")) text = text.slice(1);
  try {
    return { re: new RegExp(globSource(text)), negate, dirOnly, anchored };
  } catch {
    return undefined; // a pattern git would not match anything with
  }
}

/** Compiles the text of an ignore file for the folder `base` (relative, `""` for the root). */
export function parseIgnore(base: string, text: string): IgnoreFile {
  const rules: Rule[] = [];
  for (const line of text.split("\n")) {
    const rule = _rule(line);
    if (rule) rules.push(rule);
  }
  return { base, rules };
}

/**
 * Decides whether `rel` (relative to the root, `/`-separated) is ignored by `stack`, which holds
 * the ignore files that apply to its folder, outermost first: true when the rule that decides (the
 * last match in the deepest file that has one) ignores it, false when none matches or a negation
 * re-includes it.
 */
export function isIgnored(stack: readonly IgnoreFile[], rel: string, isDir: boolean): boolean {
  const name = rel.slice(rel.lastIndexOf("/") + 1);
  for (let f = stack.length - 1; f >= 0; f--) {
    const file = stack[f];
    if (!file.rules.length) continue;
    const local = file.base ? rel.slice(file.base.length + 1) : rel;
    for (let r = file.rules.length - 1; r >= 0; r--) {
      const rule = file.rules[r];
      if (rule.dirOnly && !isDir) continue;
      if (rule.re.test(rule.anchored ? local : name)) return !rule.negate;
    }
  }
  return false;
}
