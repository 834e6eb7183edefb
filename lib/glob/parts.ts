/**
 * A glob's compiled expression (`globSource`) read back into its parts, for tests of many paths
 * that are cheaper than the expression and give exactly its answer: the literal text every match
 * starts or ends with (`*.py` ends with `.py`, `src/**\/*.ts` starts with `src/`), and, for a name
 * glob made of literal text around at most one `*` (`*.py`, `*.{ts,tsx}`, `test_*`, `README.md`),
 * a test with `startsWith` / `endsWith` alone (no `slice` per path). Anything else is left to the
 * expression itself.
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
      if (body.startsWith("(?:.*/)?", i)) {
        out.push({ other: true, slash: true });
        i += 8;
      } else if (body.startsWith(".*", i)) {
        out.push({ other: true, slash: true });
        i += 2;
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

/** The longest text that all of `set` start with. */
function _common(set: string[]): string {
  let out = set[0] ?? "";
  for (const s of set) {
    let n = 0;
    while (n < out.length && n < s.length && out[n] === s[n]) n++;
    out = out.slice(0, n);
  }
  return out;
}

/** Quick tests of a compiled glob (see the module comment); each answers as its expression does. */
export interface GlobParts {
  /** Text every string the expression matches starts with (anchored globs: a range of paths). */
  prefix: string;
  /** The expression may match a string holding `/`. */
  slash: boolean;
  /** Whether the expression matches `str` from `from` to its end (a name: no `/` in it). */
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

/** The quick tests of the expression `src` (a glob spec's `source`; see {@linkcode GlobParts}). */
export function globParts(src: string): GlobParts {
  const re = new RegExp(src);
  // A sticky expression run from `from` took twice as long as this on the 59k-file tree.
  const byRegex: NameTest = (str, from) => re.test(from ? str.slice(from) : str);
  const parts = src.startsWith("^") && src.endsWith("$") ? _parse(src.slice(1, -1)) : undefined;
  if (!parts) {
    const whole = (str: string) => re.test(str);
    return {
      prefix: "",
      slash: true,
      name: byRegex,
      last: _lastOf(byRegex),
      whole,
      folders: () => true,
    };
  }
  // What every match starts and ends with; a set holding "" says nothing.
  const starts = _ends(parts, false).set;
  const known = (set: string[]) => set.includes("") ? [] : set;
  const ends = known(_ends(parts, true).set);
  const after = known(starts);
  const ending = (str: string, from: number): boolean => {
    const len = str.length - from;
    for (const s of ends) if (s.length <= len && str.endsWith(s)) return true;
    return false;
  };
  const filtered = (test: NameTest): NameTest =>
    ends.length ? (str, from) => ending(str, from) && test(str, from) : test;
  const shaped = _nameShape(parts);
  const name = shaped?.name ?? filtered(byRegex);
  const last = shaped?.last ?? _lastOf(name);
  const whole = filtered(byRegex);
  // A leading part or a folder's name ends with one of `ends` and a `/` follows it; or it starts
  // with one of the starts, at the start or after a `/`.
  const before = ends.map((e) => `${e}/`);
  const within = after.map((e) => `/${e}`);
  const folders = before.length
    ? (path: string) => {
      for (const e of before) if (path.includes(e)) return true;
      return false;
    }
    : after.length
    ? (path: string) => {
      for (let k = 0; k < after.length; k++) {
        if (path.startsWith(after[k]) || path.includes(within[k])) return true;
      }
      return false;
    }
    : () => true;
  return {
    prefix: _common(starts),
    slash: _slashes(parts),
    name,
    last,
    whole: (str) => whole(str, 0),
    folders,
  };
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
 * Tests of a name (no `/` in it) by `startsWith` / `endsWith` alone, for literal text around at
 * most one `[^/]*`; undefined for any other expression. Literal text holds no `/` here, so a
 * string that ends with it ends with a name that does.
 */
function _nameShape(
  parts: Part[],
): { name: NameTest; last: (str: string) => boolean } | undefined {
  const stars = parts.flatMap((part, k) => "star" in part ? [k] : []);
  if (stars.length > 1 || _slashes(parts)) return undefined;
  if (stars.length === 0) {
    const all = _ends(parts, false);
    if (!all.whole) return undefined;
    const words = all.set;
    return {
      name: (str, from) => {
        const len = str.length - from;
        for (const w of words) if (w.length === len && str.startsWith(w, from)) return true;
        return false;
      },
      last: (str) => {
        for (const w of words) {
          const at = str.length - w.length;
          if (str.endsWith(w) && (at === 0 || str.charCodeAt(at - 1) === 47)) return true;
        }
        return false;
      },
    };
  }
  const head = _ends(parts.slice(0, stars[0]), false);
  const tail = _ends(parts.slice(stars[0] + 1), true);
  if (!head.whole || !tail.whole) return undefined;
  if (head.set.length === 1 && head.set[0] === "") {
    // `*.py`, `*.{ts,tsx}`: the commonest globs.
    const ends = tail.set;
    return {
      name: (str, from) => {
        const len = str.length - from;
        for (const s of ends) if (s.length <= len && str.endsWith(s)) return true;
        return false;
      },
      last: (str) => {
        for (const s of ends) if (str.endsWith(s)) return true;
        return false;
      },
    };
  }
  const pairs = head.set.flatMap((p) => tail.set.map((s) => ({ p, s, min: p.length + s.length })));
  const name: NameTest = (str, from) => {
    const len = str.length - from;
    for (const { p, s, min } of pairs) {
      if (min <= len && str.startsWith(p, from) && str.endsWith(s)) return true;
    }
    return false;
  };
  return { name, last: _lastOf(name) };
}
