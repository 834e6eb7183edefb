/** Whole-file copies of one file in a reply: which one counts. */
import type { Edit, WholeEdit } from "./types.ts";

/**
 * Small models often show the file twice: a preview (named only in the sentence before it, or
 * not at all) and then the copy under its path, or the same copy twice. Identical copies count
 * once; when they differ, the one under a path line wins over previews named only in prose;
 * otherwise the reply is ambiguous. Removes the dropped copies from `edits` in place.
 */
export function dropCopies(edits: Edit[], warnings: string[]): string | null {
  const byPath = new Map<string, WholeEdit[]>();
  for (const e of edits) {
    if (e.type === "whole") byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
  }
  const drop = new Set<Edit>();
  for (const [path, copies] of byPath) {
    if (copies.length < 2) continue;
    const same = copies.every((c) => c.content === copies[0].content);
    const named = copies.filter((c) => !c.inferred);
    const keep = same ? (named[0] ?? copies[0]) : named.length === 1 ? named[0] : null;
    if (!keep) {
      const lines = copies.map((c) => c.line).join(", ");
      const count = copies.length === 2 ? "two" : String(copies.length);
      return `The reply holds ${count} whole-file blocks for "${path}" that differ (code ` +
        `blocks at lines ${lines}), so which one is meant is unclear; send the file once:\n` +
        `${path}\n\`\`\`\n(the complete file)\n\`\`\``;
    }
    for (const c of copies) if (c !== keep) drop.add(c);
    warnings.push(
      same
        ? `The reply holds ${copies.length} identical copies of "${path}"; applied one`
        : `Took the copy of "${path}" under its path line (line ${keep.line}); ignored the ` +
          `preview(s) named only in prose`,
    );
  }
  for (let i = edits.length - 1; i >= 0; i--) if (drop.has(edits[i])) edits.splice(i, 1);
  return null;
}
