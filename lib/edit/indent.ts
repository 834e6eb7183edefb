/**
 * Re-indenting to a file's own style. Small models cannot reliably write tab characters: asked
 * for a tab-indented Go file (or a Makefile), they answer with spaces. When the file is indented
 * with tabs only and the content with spaces only, each `unit` spaces of indentation become a
 * tab; the unit is the one under which most lines of the content are lines of the file. Lines
 * inside a multi-line string literal (a YAML block in a Go raw string), and lines whose
 * indentation is not a whole number of units, are left as written.
 */

function _lead(line: string): string {
  return line.slice(0, line.length - line.trimStart().length);
}

/** Delimiters of multi-line string literals, by file extension. */
const MULTILINE: Record<string, string[]> = {
  go: ["`"],
  py: ['"""', "'''"],
  pyi: ['"""', "'''"],
  js: ["`"],
  mjs: ["`"],
  cjs: ["`"],
  jsx: ["`"],
  ts: ["`"],
  tsx: ["`"],
};

/**
 * For each line of `lines` (a file named `path`), whether it starts inside a multi-line string
 * literal (a Go raw string, a Python triple-quoted string, a template literal): its indentation
 * is the string's content, never the code's.
 */
export function inString(lines: readonly string[], path: string): boolean[] {
  const delims = MULTILINE[path.slice(path.lastIndexOf(".") + 1).toLowerCase()];
  if (!delims) return lines.map(() => false);
  let open: string | null = null;
  return lines.map((line) => {
    const inside = open !== null;
    for (let i = 0; i < line.length;) {
      if (open !== null) {
        const j = line.indexOf(open, i);
        if (j < 0) break;
        i = j + open.length;
        open = null;
        continue;
      }
      let next = -1;
      for (const d of delims) {
        const j = line.indexOf(d, i);
        if (j >= 0 && (next < 0 || j < next)) [next, open] = [j, d];
      }
      if (next < 0) break;
      i = next + open!.length;
    }
    return inside;
  });
}

/**
 * `lines` with each `unit` spaces of leading indentation turned into a tab, where it divides;
 * lines marked in `keep` (inside a string literal) stay as written.
 */
export function spacesToTabs(
  lines: readonly string[],
  unit: number,
  keep: readonly boolean[] = [],
): string[] {
  return lines.map((l, i) => {
    const lead = _lead(l);
    if (keep[i] || !l.trim() || !lead || !/^ +$/.test(lead) || lead.length % unit) return l;
    return "\t".repeat(lead.length / unit) + l.slice(lead.length);
  });
}

/**
 * `lines` re-indented with tabs when `original` is indented with tabs only and `lines` with
 * spaces only; otherwise `null`.
 */
export function tabsForSpaces(
  lines: readonly string[],
  original: readonly string[],
  path = "",
): string[] | null {
  const keep = inString(lines, path);
  const was = inString(original, path);
  const before = original.filter((l, i) => l.trim() && !was[i]).map(_lead).filter((w) => w);
  if (!before.length || before.some((w) => !/^\t+$/.test(w))) return null;
  const after = lines.filter((l, i) => l.trim() && !keep[i]).map(_lead).filter((w) => w);
  if (!after.length || after.some((w) => !/^ +$/.test(w))) return null;
  const had = new Set(original.filter((l) => /^\t/.test(l)));
  let best = 0;
  let hits = 0;
  for (const unit of [4, 2, 8, 3]) {
    const n = spacesToTabs(lines, unit, keep).filter((l) => had.has(l)).length;
    if (n > hits) [best, hits] = [unit, n];
  }
  if (!best) {
    // No line of the file to go by: one level is the smallest indentation, and all must fit it.
    best = Math.min(...after.map((w) => w.length));
    if (best > 8 || after.some((w) => w.length % best)) return null;
  }
  return spacesToTabs(lines, best, keep);
}
