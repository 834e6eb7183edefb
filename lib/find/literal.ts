/**
 * Literal analysis of find's patterns: a pattern with no regex syntax is searched with `indexOf`,
 * and a regex that contains a run of plain characters every match must include (`Error\(` in
 * `\w+Error\(`) is only run on the lines that contain it. This is what keeps regex searches fast,
 * and it spares long minified lines a regex that would crawl over them.
 *
 * The analysis is conservative: whatever it cannot read (alternation at the top level, unknown
 * escapes) yields no literal, and the full regex is used.
 */

const META = /[\\^$.|?*+()[\]{}]/;

/** The literal a pattern stands for when it uses no regex syntax (escaped punctuation allowed). */
export function literalOf(pattern: string): string | undefined {
  if (pattern.includes("\n")) return undefined;
  const unescaped = pattern.replace(/\\([^\w\s])/g, "\0$1");
  if (META.test(unescaped.replace(/\0./g, ""))) return undefined;
  return unescaped.replace(/\0(.)/g, "$1");
}

/** Index just after the `]` closing the class that starts at `i`, or -1. */
function _skipClass(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === "^") j++;
  if (p[j] === "]") j++; // a leading ] is literal (outside u mode)
  for (; j < p.length; j++) {
    if (p[j] === "\\") j++;
    else if (p[j] === "]") return j + 1;
  }
  return -1;
}

/** Index just after the `)` closing the group that starts at `i`, or -1. */
function _skipGroup(p: string, i: number): number {
  let depth = 0;
  for (let j = i; j < p.length; j++) {
    const ch = p[j];
    if (ch === "\\") j++;
    else if (ch === "[") {
      j = _skipClass(p, j) - 1;
      if (j < 0) return -1;
    } else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return j + 1;
  }
  return -1;
}

/** Length of the escape at `i` (`\x41`, `\u{1F600}`, `\p{L}`, `\k<n>`, `\12` …), or -1. */
function _escapeLength(p: string, i: number): number {
  const next = p[i + 1];
  if (next === undefined) return -1;
  const braced = (open: string, close: string) => {
    const end = p.indexOf(close, i + 2);
    return p[i + 2] === open && end > 0 ? end + 1 - i : -1;
  };
  switch (next) {
    case "x":
      return 4;
    case "u":
      return p[i + 2] === "{" ? braced("{", "}") : 6;
    case "c":
      return 3;
    case "p":
    case "P":
      return braced("{", "}");
    case "k":
      return p[i + 2] === "<" ? braced("<", ">") : 2;
    default: {
      let j = i + 1;
      if (/\d/.test(next)) { while (/\d/.test(p[j] ?? "")) j++; }
      else j++;
      return j - i;
    }
  }
}

/** How a quantifier at `i` affects the atom before it, and where it ends. */
function _quantifier(p: string, i: number): { optional: boolean; repeats: boolean; end: number } {
  const ch = p[i];
  let end = i;
  let optional = false;
  let repeats = false;
  if (ch === "*" || ch === "?" || ch === "+") {
    optional = ch !== "+";
    repeats = ch !== "?";
    end = i + 1;
  } else if (ch === "{") {
    const m = /^\{(\d+)(,\d*)?\}/.exec(p.slice(i));
    if (m) {
      optional = Number(m[1]) === 0;
      repeats = true;
      end = i + m[0].length;
    }
  }
  if (end > i && p[end] === "?") end++; // lazy
  return { optional, repeats, end };
}

/**
 * The longest run of plain characters that every match of `pattern` contains, or undefined when
 * there is none of at least `minLength` characters (or the pattern is beyond this simple reading).
 */
export function requiredLiteral(pattern: string, minLength = 3): string | undefined {
  let best = "";
  let run = "";
  const commit = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (let i = 0; i < pattern.length;) {
    const ch = pattern[i];
    let atom: string | undefined; // the character this atom matches, when it is plain
    let next: number;
    if (ch === "\\") {
      const len = _escapeLength(pattern, i);
      if (len < 0) return undefined;
      const escaped = pattern[i + 1];
      if (len === 2 && /[^\w\s]/.test(escaped)) atom = escaped;
      next = i + len;
    } else if (ch === "[") {
      next = _skipClass(pattern, i);
    } else if (ch === "(") {
      next = _skipGroup(pattern, i);
    } else if (ch === "|" || ch === ")") {
      return undefined; // alternation at the top level: nothing is required
    } else if (ch === "^" || ch === "$" || ch === ".") {
      next = i + 1;
    } else if (ch === "*" || ch === "+" || ch === "?" || ch === "\n") {
      return undefined;
    } else if (/[\ud800-\udbff]/.test(ch) && /[\udc00-\udfff]/.test(pattern[i + 1] ?? "")) {
      // A character beyond U+FFFF is one atom (with the `u` flag, which such a pattern gets, a
      // quantifier after it applies to the whole character: `ab😀?` requires only "ab").
      atom = pattern.slice(i, i + 2);
      next = i + 2;
    } else {
      atom = ch;
      next = i + 1;
    }
    if (next < 0) return undefined;
    const q = _quantifier(pattern, next);
    if (q.end > next) {
      if (!q.optional && atom !== undefined) run += atom;
      commit();
      i = q.end;
      continue;
    }
    if (atom === undefined) commit();
    else run += atom;
    i = next;
  }
  commit();
  return best.length >= minLength ? best : undefined;
}
