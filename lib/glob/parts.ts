/**
 * A glob's compiled expression (`globSource`) read back into its parts, for tests of many paths
 * that are cheaper than the expression and give exactly its answer (find's `globFiles` runs them
 * over a whole listing): the literal text every match starts with, ends with or holds (`*.py`
 * ends with `.py`, `src/**\/*.ts` starts with `src/`), which rules most strings out before the
 * expression runs; and, for a name glob of literal text around `*` (`*.py`, `*.{ts,tsx}`,
 * `test_*`, `*foo*`, `README.md`), a test by `startsWith` / `endsWith` / `indexOf` alone, no
 * `slice` per path. Anything it does not know is left to the expression.
 */

/** A part of an expression: literal text, `[^/]*`, `{a,b}` alternatives, or anything else. */
type Part =
  | { lit: string }
  | { star: true }
  | { alt: Part[][] }
  | { other: true; slash: boolean };

/** More alternatives than this (`{a,b}{c,d}…` multiplies them) are not spelt out. */
const MAX_STRINGS = 64;

/** The parts of `body` (an expression's source without `^` and `$`), or undefined if unknown. */
function _parse(body: string): Part[] | undefined {
  let i = 0;
  const seq = (inGroup: boolean): Part[] | undefined => {
    const out: Part[] = [];
    while (i < body.length) {
      const ch = body[i];
      if (ch === "|" || ch === ")") return inGroup ? out : undefined;
      if (body.startsWith("(?:[^]*/)?", i)) {
        out.push({ other: true, slash: true });
        i += 10;
      } else if (body.startsWith("[^]*", i)) {
        out.push({ other: true, slash: true });
        i += 4;
      } else if (body.startsWith("(?:", i)) {
        i += 3;
        const alt: Part[][] = [];
        for (;;) {
          const one = seq(true);
          if (!one) return undefined;
          alt.push(one);
          if (body[i++] === ")") break;
          if (body[i - 1] !== "|") return undefined;
        }
        out.push({ alt });
      } else if (ch === "[") {
        let j = i + 1;
        while (j < body.length && body[j] !== "]") j += body[j] === "\\" ? 2 : 1;
        if (j >= body.length) return undefined;
        const cls = body.slice(i, j + 1);
        i = j + 1;
        const many = body[i] === "*";
        if (many) i++;
        if (many && cls === "[^/]") out.push({ star: true });
        else out.push({ other: true, slash: new RegExp(cls).test("/") });
      } else if (ch === "\\") {
        // globSource escapes only punctuation: `\d` or `\w` would be a class, not a letter.
        if (i + 1 >= body.length || /[A-Za-z0-9]/.test(body[i + 1])) return undefined;
        out.push({ lit: body[i + 1] });
        i += 2;
      } else if ("^$.*+?(){}[]".includes(ch)) {
        return undefined;
      } else {
        out.push({ lit: ch });
        i++;
      }
    }
    return inGroup ? undefined : out;
  };
  const parts = seq(false);
  return parts && i === body.length ? parts : undefined;
}

/**
 * The literal texts every match of `seq` starts with (`fromEnd`: ends with), and whether `seq` is
 * literal text alone (then `set` is every string it matches). `[""]`: nothing is known.
 */
function _ends(seq: Part[], fromEnd: boolean): { set: string[]; whole: boolean } {
  let acc = [""];
  for (let k = 0; k < seq.length; k++) {
    const part = seq[fromEnd ? seq.length - 1 - k : k];
    if ("lit" in part) {
      acc = acc.map((s) => fromEnd ? part.lit + s : s + part.lit);
    } else if ("alt" in part) {
      const subs = part.alt.map((one) => _ends(one, fromEnd));
      const next = new Set<string>();
      for (const sub of subs) {
        for (const x of sub.set) for (const s of acc) next.add(fromEnd ? x + s : s + x);
      }
      if (next.size > MAX_STRINGS) return { set: acc, whole: false };
      acc = [...next];
      if (!subs.every((sub) => sub.whole)) return { set: acc, whole: false };
    } else {
      return { set: acc, whole: false };
    }
  }
  return { set: acc, whole: true };
}

/** Quick tests of a compiled glob (see the module comment); each answers as its expression does. */
export interface GlobParts {
  /** Every string the expression matches starts with one of these (none: nothing known). */
  starts: string[];
  /** The expression may match a string holding `/`. */
  slash: boolean;
  /** Whether the expression matches `str` from `from` (0, or just after its last `/`) on. */
  name(str: string, from: number): boolean;
  /** `name(str, str.lastIndexOf("/") + 1)`, most often without looking for the `/`. */
  last(str: string): boolean;
  /** Whether the expression matches the whole of `str`. */
  whole(str: string): boolean;
  /**
   * False when no part of the path `path` that ends before a `/` (a leading part, or a folder's
   * name) can match: a test of the path as it is, without cutting it (it may say true wrongly).
   */
  folders(path: string): boolean;
}

/** A test of a name within a string: from `from` to the end. */
type NameTest = (str: string, from: number) => boolean;

/** `name` on the part of a string after its last `/`. */
function _lastOf(name: NameTest): (str: string) => boolean {
  return (str) => name(str, str.lastIndexOf("/") + 1);
}

/** The longest run of literal text in `parts` (outside alternatives): every match holds it. */
function _within(parts: Part[]): string {
  let best = "";
  let run = "";
  for (const part of parts) {
    run = "lit" in part ? run + part.lit : "";
    if (run.length > best.length) best = run;
  }
  return best;
}

/** The longest text that all of `texts` start with. */
function _common(texts: string[]): string {
  let out = texts[0];
  for (const t of texts) {
    let n = 0;
    while (n < out.length && n < t.length && out[n] === t[n]) n++;
    out = out.slice(0, n);
  }
  return out;
}

/** A string test. */
type Test = (str: string) => boolean;

/**
 * Whether a string ends with (`how` "ends"), holds ("holds") or starts with ("starts") one of
 * `texts`. One or two texts (the common case) are tested without a loop: a new server runs
 * these before V8 has compiled them, and a loop over an array costs there (a first `*.py` on the
 * 59k-file tree: 14 ms with `for…of`, 4 without).
 */
function _any(texts: string[], how: "ends" | "holds" | "starts"): Test {
  const one = (t: string): Test =>
    how === "ends"
      ? (str) => str.endsWith(t)
      : how === "holds"
      ? (str) => str.includes(t)
      : (str) => str.startsWith(t);
  if (texts.length === 1) return one(texts[0]);
  const common = _common(texts);
  if (how === "holds" && common) {
    // `.ts/` or `.tsx/`: one look for `.ts`, then each text where it is.
    return (str) => {
      for (let at = str.indexOf(common); at >= 0; at = str.indexOf(common, at + 1)) {
        for (let k = 0; k < texts.length; k++) if (str.startsWith(texts[k], at)) return true;
      }
      return false;
    };
  }
  const [a, b] = texts;
  if (texts.length === 2 && how === "ends") return (str) => str.endsWith(a) || str.endsWith(b);
  if (texts.length === 2 && how === "starts") {
    return (str) => str.startsWith(a) || str.startsWith(b);
  }
  if (texts.length === 2) return (str) => str.includes(a) || str.includes(b);
  const tests = texts.map(one);
  return (str) => {
    for (let k = 0; k < tests.length; k++) if (tests[k](str)) return true;
    return false;
  };
}

/** The quick tests of the expression `src` (a glob spec's `source`; see {@linkcode GlobParts}). */
export function globParts(src: string): GlobParts {
  const re = new RegExp(src);
  // A sticky expression run from `from` took twice as long as this on the 59k-file tree.
  const byRegex: NameTest = (str, from) => re.test(from ? str.slice(from) : str);
  const parts = src.startsWith("^") && src.endsWith("$") ? _parse(src.slice(1, -1)) : undefined;
  if (!parts) {
    const whole = (str: string) => re.test(str);
    return {
      starts: [],
      slash: true,
      name: byRegex,
      last: _lastOf(byRegex),
      whole,
      folders: () => true,
    };
  }
  // What every match starts with, ends with and holds; a set holding "" says nothing.
  const known = (set: string[]) => set.includes("") ? [] : set;
  const starts = known(_ends(parts, false).set);
  const ends = known(_ends(parts, true).set);
  const mid = _within(parts);
  // Tests a string must pass to hold a match that ends at its end (it may pass wrongly).
  const ending = ends.length ? _any(ends, "ends") : undefined;
  const holding = mid ? _any([mid], "holds") : undefined;
  const may: Test = ending && holding
    ? (str) => ending(str) && holding(str)
    : ending ?? holding ?? (() => true);
  const filtered: NameTest = (str, from) => may(str) && byRegex(str, from);
  const shaped = _nameShape(parts);
  return {
    starts,
    slash: _slashes(parts),
    name: shaped?.name ?? filtered,
    last: shaped?.last ?? ((str) => may(str) && byRegex(str, str.lastIndexOf("/") + 1)),
    whole: (str) => filtered(str, 0),
    folders: _folders(starts, ends, mid),
  };
}

/**
 * `folders` of {@linkcode GlobParts}: a leading part or a folder's name that matches ends with one
 * of `ends`, a `/` after it; starts with one of `starts`, at the start or after a `/`; and holds
 * `mid`. Each known, in that order (an extension rules out the most).
 */
function _folders(starts: string[], ends: string[], mid: string): Test {
  const tests: Test[] = [];
  if (ends.length) tests.push(_any(ends.map((e) => `${e}/`), "holds"));
  if (starts.length) {
    const first = _any(starts, "starts");
    const after = _any(starts.map((e) => `/${e}`), "holds");
    tests.push((path) => first(path) || after(path));
  }
  if (mid.length > 1 || !tests.length && mid) tests.push(_any([mid], "holds"));
  const [a, b, c] = tests;
  if (!a) return () => true;
  if (!b) return a;
  return c ? (path) => a(path) && b(path) && c(path) : (path) => a(path) && b(path);
}

/** Whether any part may match `/`. */
function _slashes(parts: Part[]): boolean {
  return parts.some((part) =>
    "lit" in part
      ? part.lit === "/"
      : "alt" in part
      ? part.alt.some(_slashes)
      : "other" in part && part.slash
  );
}

/**
 * Tests of a name (no `/` in it) by `startsWith`, `endsWith` and `indexOf` alone, for literal
 * text around `[^/]*` (`*.py`, `test_*`, `*foo*`; `{a,b}` alternatives at either end); undefined
 * for any other expression. Literal text holds no `/` here, so a string that ends with it ends
 * with a name that does.
 */
function _nameShape(parts: Part[]): { name: NameTest; last: Test } | undefined {
  if (_slashes(parts)) return undefined;
  // The literal pieces between the stars, each spelt out.
  const pieces: { set: string[]; whole: boolean }[] = [];
  let from = 0;
  for (let k = 0; k <= parts.length; k++) {
    if (k < parts.length && !("star" in parts[k])) continue;
    pieces.push(_ends(parts.slice(from, k), false));
    from = k + 1;
  }
  if (pieces.some((piece) => !piece.whole)) return undefined;
  if (pieces.length === 1) {
    const words = pieces[0].set;
    const ending = _any(words, "ends");
    const name: NameTest = (str, from) => {
      const len = str.length - from;
      for (let k = 0; k < words.length; k++) {
        if (words[k].length === len && str.startsWith(words[k], from)) return true;
      }
      return false;
    };
    return { name, last: (str) => ending(str) && name(str, str.lastIndexOf("/") + 1) };
  }
  const heads = pieces[0].set;
  const tails = pieces[pieces.length - 1].set;
  const middle = pieces.slice(1, -1);
  if (middle.length === 0 && heads.length === 1 && heads[0] === "") {
    // `*.py`, `*.{ts,tsx}`: the commonest globs. A name ends with a text when its string does.
    const ending = _any(tails, "ends");
    return { name: (str) => ending(str), last: ending };
  }
  // `*foo*`: each middle piece one text, found leftmost after the one before (as `*` may skip).
  if (middle.some((piece) => piece.set.length !== 1)) return undefined;
  const mids = middle.map((piece) => piece.set[0]);
  const midLength = mids.reduce((sum, m) => sum + m.length, 0);
  const pairs = heads.flatMap((p) => tails.map((s) => ({ p, s, min: p.length + s.length })));
  // Before the name is cut out: the string ends with a tail and holds the longest middle piece.
  const need = mids.reduce((a, b) => b.length > a.length ? b : a, "");
  const holds = need ? _any([need], "holds") : () => true;
  const ends = tails.includes("") ? () => true : _any(tails, "ends");
  const may: Test = (str) => ends(str) && holds(str);
  const name: NameTest = (str, from) => {
    const len = str.length - from;
    for (let k = 0; k < pairs.length; k++) {
      const { p, s, min } = pairs[k];
      if (min + midLength > len || !str.startsWith(p, from) || !str.endsWith(s)) continue;
      let at = from + p.length;
      const end = str.length - s.length;
      let found = true;
      for (let j = 0; found && j < mids.length; j++) {
        const hit = str.indexOf(mids[j], at);
        found = hit >= 0 && hit + mids[j].length <= end;
        at = hit + mids[j].length;
      }
      if (found) return true;
    }
    return false;
  };
  return { name, last: (str) => may(str) && name(str, str.lastIndexOf("/") + 1) };
}

/**
 * The texts a name glob of the form `*SUFFIX` ends with (`*.py`: `.py`; `*.{ts,tsx}`: `.ts` and
 * `.tsx`), read from its expression (`^[^/]*` then literal text, one group of literal
 * alternatives at most, `$`); undefined for any other. Such a glob passes a path exactly when its
 * name, or one of its folders' names, ends with one of them: find tests that on a listing's bytes
 * (`PathNames.withSuffix`), without a string per path. `anchored` (a glob with a `/`): only
 * `**\/*SUFFIX` (`^(?:[^]*\/)?[^/]*` then the same), which passes exactly the same paths: a
 * folder that passes takes in the paths below it, and a path passes when its name does.
 */
export function nameSuffixes(source: string, anchored = false): string[] | undefined {
  const head = anchored ? "^(?:[^]*/)?[^/]*" : "^[^/]*";
  if (!source.startsWith(head) || !source.endsWith("$")) return undefined;
  const body = source.slice(head.length, -1);
  let out = [""];
  for (let i = 0; i < body.length;) {
    if (body.startsWith("(?:", i)) {
      const alts: string[] = [];
      let at = i + 3;
      for (;;) {
        const [text, next] = _literal(body, at);
        alts.push(text);
        if (body[next] === "|") at = next + 1;
        else if (body[next] === ")") {
          i = next + 1;
          break;
        } else return undefined;
      }
      out = out.flatMap((s) => alts.map((a) => s + a));
      continue;
    }
    const [text, next] = _literal(body, i);
    if (next === i) return undefined; // (a character that is not literal text)
    out = out.map((s) => s + text);
    i = next;
  }
  if (out.some((s) => s === "" || s.includes("/"))) return undefined;
  return [...new Set(out)];
}

/** The literal text of `body` from `from`: plain characters and escaped punctuation. */
function _literal(body: string, from: number): [string, number] {
  let text = "";
  let i = from;
  while (i < body.length) {
    const c = body[i];
    if (c === "\\") {
      const next = body[i + 1];
      // `\d`, `\w`, `\b`…: a class or an assertion, not text.
      if (next === undefined || /[A-Za-z0-9]/.test(next)) break;
      text += next;
      i += 2;
    } else if ("^$.*+?()[]{}|".includes(c)) break;
    else {
      text += c;
      i++;
    }
  }
  return [text, i];
}
