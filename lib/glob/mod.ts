/**
 * The project's one glob dialect, compiled to regular expressions over `/`-separated paths: used
 * by `.gitignore` files and find's `glob` filter (`lib/find/`) and by a check's `files_filter`
 * (`lib/checks.ts`). Anything else that takes a glob uses it too.
 *
 * `*` and `?` stay within one path segment (a negated class never matches `/` either: `a[!x]b`
 * does not match `a/b`), `**` spans segments when it is a whole segment (`src/**\/*.ts` also matches
 * `src/a.ts`; elsewhere it is `*`, as in git), `[abc]` / `[!a-z]` / `[^a-z]` are classes,
 * `{a,b}` alternatives (not in `.gitignore` files), `\x` a literal x.
 */

export { type GlobParts, globParts, nameSuffixes } from "./parts.ts";

function _escape(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

/** Reads a `[...]` class starting at `glob[i] === "["`; returns its regex and the next index. */
function _class(glob: string, i: number): [string, number] | undefined {
  let j = i + 1;
  let negate = false;
  if (glob[j] === "!" || glob[j] === "^") {
    negate = true;
    j++;
  }
  let body = "";
  let first = true;
  for (; j < glob.length; j++) {
    const ch = glob[j];
    if (ch === "]" && !first) {
      return [`[${negate ? "^/" : ""}${body}]`, j + 1];
    }
    first = false;
    if (ch === "\\" && j + 1 < glob.length) {
      body += `\\${glob[++j]}`;
    } else if (ch === "-" && body && glob[j + 1] !== "]") {
      body += "-";
    } else {
      body += /[\\\]^[-]/.test(ch) ? `\\${ch}` : ch;
    }
  }
  return undefined; // unterminated: the caller treats "[" literally
}

/**
 * Translates a glob to the source of an anchored regular expression over a `/`-separated path.
 * A leading `**` followed by `/` matches any (or no) leading folders; a trailing `/**` matches
 * everything inside.
 */
export function globSource(glob: string, braces = false): string {
  let out = "";
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        let j = i;
        while (glob[j] === "*") j++;
        if (atStart && glob[j] === "/") {
          out += "(?:[^]*/)?"; // (`[^]`: any character, a line break too)
          i = j;
          continue;
        }
        if (atStart && j === glob.length) {
          out += "[^]*";
          i = j - 1;
          continue;
        }
        out += "[^/]*";
        i = j - 1;
        continue;
      }
      out += "[^/]*";
    } else if (ch === "?") {
      out += "[^/]";
    } else if (ch === "[") {
      const cls = _class(glob, i);
      if (cls) {
        out += cls[0];
        i = cls[1] - 1;
      } else {
        out += "\\[";
      }
    } else if (ch === "\\" && i + 1 < glob.length) {
      out += _escape(glob[++i]);
    } else if (braces && ch === "{") {
      depth++;
      out += "(?:";
    } else if (braces && ch === "}" && depth > 0) {
      depth--;
      out += ")";
    } else if (braces && ch === "," && depth > 0) {
      out += "|";
    } else {
      out += _escape(ch);
    }
  }
  while (depth-- > 0) out += ")";
  return `^${out}$`;
}

/**
 * A glob as one anchored regular expression over a whole path (`{a,b}` alternatives included); a
 * leading `./` or `/` is dropped. A check's `files_filter` matches names or paths with it.
 */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(globSource(glob.replace(/^\.\//, "").replace(/^\/+/, ""), true));
}

/** A compiled `glob` filter for find. */
export interface PathFilter {
  /** True when `rel` (a file path with `/`) passes the filter. */
  test(rel: string): boolean;
}

/** find's `glob` parameter, compiled to plain data (it is sent to the search workers). */
export interface GlobSpec {
  /** Source of the anchored regular expression for a path, a folder or a name. */
  source: string;
  /** The glob has a `/`: it matches from the project root, else a name at any depth. */
  anchored: boolean;
  /** A leading `!` inverts the filter. */
  negate: boolean;
}

/**
 * Compiles find's `glob` parameter. A glob without `/` (`*.ts`) matches a file or folder name at
 * any depth; one with `/` (`src/**\/*.py`) matches from the project root. A glob that matches a
 * folder takes in everything below it. A leading `!` inverts the filter. `{a,b}` alternatives work.
 */
export function globSpec(glob: string): GlobSpec {
  let g = glob.trim();
  const negate = g.startsWith("!");
  if (negate) g = g.slice(1);
  g = g.replace(/^\.\//, "").replace(/^\/+/, "").replace(/\/+$/, "");
  const source = globSource(g, true);
  new RegExp(source); // throws when the glob cannot be read
  return { source, anchored: g.includes("/"), negate };
}

/**
 * True when `rel` (a file path with `/`) passes the glob `spec`, whose expression is `re`. Also
 * written into find's worker source: it may use nothing but its arguments.
 */
export function globMatches(re: RegExp, spec: GlobSpec, rel: string): boolean {
  let hit = re.test(rel);
  // Folders: each leading part of the path, or each folder name.
  let slash = rel.indexOf("/");
  let from = 0;
  while (!hit && slash >= 0) {
    hit = re.test(spec.anchored ? rel.slice(0, slash) : rel.slice(from, slash));
    from = slash + 1;
    slash = rel.indexOf("/", from);
  }
  if (!hit && !spec.anchored) hit = re.test(rel.slice(from));
  return hit !== spec.negate;
}

/** {@linkcode globSpec} as a ready filter. */
export function compileGlob(glob: string): PathFilter {
  const spec = globSpec(glob);
  const re = new RegExp(spec.source);
  return { test: (rel) => globMatches(re, spec, rel) };
}
