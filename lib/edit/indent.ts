/**
 * Re-indenting whole-file content to the file's own style. Small models cannot reliably write tab
 * characters: asked for a tab-indented Go file (or a Makefile), they answer with 4 spaces a level.
 * When the file is indented with tabs only and the content with spaces only, in whole levels, each
 * level becomes a tab again; anything less clear-cut is left as written.
 */

function _lead(line: string): string {
  return line.slice(0, line.length - line.trimStart().length);
}

/**
 * `lines` re-indented with tabs when `original` is indented with tabs only and `lines` with
 * spaces only, in levels of a fixed width; otherwise `null`.
 */
export function tabsForSpaces(
  lines: readonly string[],
  original: readonly string[],
): string[] | null {
  const before = original.filter((l) => l.trim()).map(_lead).filter((w) => w);
  if (!before.length || before.some((w) => !/^\t+$/.test(w))) return null;
  const after = lines.filter((l) => l.trim()).map(_lead).filter((w) => w);
  if (!after.length || after.some((w) => !/^ +$/.test(w))) return null;
  const unit = Math.min(...after.map((w) => w.length));
  if (unit > 8 || after.some((w) => w.length % unit)) return null;
  return lines.map((l) => {
    const lead = _lead(l);
    return l.trim() && lead ? "\t".repeat(lead.length / unit) + l.slice(lead.length) : l;
  });
}
