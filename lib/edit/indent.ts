/**
 * Re-indenting to a file's own style. Small models cannot reliably write tab characters: asked
 * for a tab-indented Go file (or a Makefile), they answer with spaces. When the file is indented
 * with tabs only and the content with spaces only, each `unit` spaces of indentation become a
 * tab; the unit is the one under which most lines of the content are lines of the file. Lines
 * whose indentation is not a whole number of units (a YAML block inside a raw string) are left
 * as written.
 */

function _lead(line: string): string {
  return line.slice(0, line.length - line.trimStart().length);
}

/** `lines` with each `unit` spaces of leading indentation turned into a tab, where it divides. */
export function spacesToTabs(lines: readonly string[], unit: number): string[] {
  return lines.map((l) => {
    const lead = _lead(l);
    if (!l.trim() || !lead || !/^ +$/.test(lead) || lead.length % unit) return l;
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
): string[] | null {
  const before = original.filter((l) => l.trim()).map(_lead).filter((w) => w);
  if (!before.length || before.some((w) => !/^\t+$/.test(w))) return null;
  const after = lines.filter((l) => l.trim()).map(_lead).filter((w) => w);
  if (!after.length || after.some((w) => !/^ +$/.test(w))) return null;
  const had = new Set(original.filter((l) => /^\t/.test(l)));
  let best = 0;
  let hits = 0;
  for (const unit of [4, 2, 8, 3]) {
    const n = spacesToTabs(lines, unit).filter((l) => had.has(l)).length;
    if (n > hits) [best, hits] = [unit, n];
  }
  if (!best) {
    // No line of the file to go by: one level is the smallest indentation, and all must fit it.
    best = Math.min(...after.map((w) => w.length));
    if (best > 8 || after.some((w) => w.length % best)) return null;
  }
  return spacesToTabs(lines, best);
}
