/**
 * The destructive-edit guard: an edit that would empty a file, or delete most of it, is not
 * written unless the task asks for a deletion. Small models do this when they rewrite a file they
 * misread (real logs: a whole-file "update" that keeps 1 of 5 lines, a rewrite that keeps 2 of 14,
 * a first SEARCH/REPLACE block whose SEARCH is the whole module and whose REPLACE is empty).
 *
 * Threshold: a whole-file replacement, or one SEARCH/REPLACE block with an empty REPLACE part, is
 * refused when the file has at least {@linkcode GUARD_MIN_LINES} non-blank lines and the edit
 * removes more than {@linkcode GUARD_SHARE} of them (counted as lines of the file, trimmed, that
 * the new content no longer holds); any edit that leaves a file with content empty is refused.
 * SEARCH/REPLACE blocks that quote what they remove and put something back are never refused:
 * they are the narrower edit the refusal asks for.
 */
import { quoteValue } from "./refusal.ts";

/** Files with fewer non-blank lines than this are small enough to rewrite freely. */
export const GUARD_MIN_LINES = 4;
/** An edit that removes more than this share of a file's non-blank lines is refused. */
export const GUARD_SHARE = 0.5;

const DELETION =
  /\b(delete|deletes|deleting|remove|removes|removing|drop|dropping|strip|empty|clear|truncate|prune|purge|rewrite|rewriting|reimplement|start over|from scratch|replace (the )?(whole|entire|full|text|contents?)|wipe)\b/i;

const EMPTYING =
  /\b(empty|clear|truncate|wipe)\b|\bdelete (the |its |all |every )?(file|contents?|everything|lines)\b/i;

/** What the task's words allow an edit to delete. */
export interface DeletionAllowance {
  /** The task asks for something to be deleted, or the file to be rewritten. */
  most: boolean;
  /** The task asks for a file to be emptied. */
  all: boolean;
}

/** What the task's words (`spec`) allow an edit to delete. */
export function deletionAllowance(spec: string): DeletionAllowance {
  return { most: DELETION.test(spec), all: EMPTYING.test(spec) };
}

/** Share of a line that an edited version of it keeps (its start and end together). */
const KEPT_SHARE = 0.6;
/** Shorter lines are too short to tell an edit of one from another line (`return a - b`). */
const MIN_EDITED = 16;
/** Beyond this many lines each way, edited lines are not looked for (the count stays exact). */
const MAX_PAIRED = 2000;

function _common(a: string, b: string): number {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  return head + tail;
}

/**
 * The lines of `before` (non-blank, trimmed, counted with repeats) that `after` no longer holds.
 * With `edited`, also as they were edited: a line of `after` that keeps most of one (its start and
 * its end, as a column added in the middle of a CSV row does) is that line, changed, not removed.
 */
export function removedLines(
  before: readonly string[],
  after: readonly string[],
  edited = false,
): string[] {
  const left = new Map<string, number>();
  for (const l of after) {
    const t = l.trim();
    if (t) left.set(t, (left.get(t) ?? 0) + 1);
  }
  const gone: string[] = [];
  for (const l of before) {
    const t = l.trim();
    if (!t) continue;
    const n = left.get(t) ?? 0;
    if (n > 0) left.set(t, n - 1);
    else gone.push(t);
  }
  const fresh = [...left].flatMap(([t, n]) => Array<string>(n).fill(t));
  if (
    !edited || !gone.length || !fresh.length || gone.length > MAX_PAIRED ||
    fresh.length > MAX_PAIRED
  ) {
    return gone;
  }
  const used = new Set<number>();
  return gone.filter((g) => {
    if (g.length < MIN_EDITED) return true;
    const k = fresh.findIndex((f, i) => !used.has(i) && _common(g, f) >= g.length * KEPT_SHARE);
    if (k < 0) return true;
    used.add(k);
    return false;
  });
}

/**
 * The refusal for an edit that would take `before` to `after` in `path`, or `null` when the edit
 * is not destructive. `how` names the edit in the message ("The whole-file content", "Block 1").
 */
export function destructiveMessage(
  path: string,
  before: readonly string[],
  after: readonly string[],
  how: string,
  allow: DeletionAllowance = { most: false, all: false },
): string | null {
  const had = before.filter((l) => l.trim()).length;
  if (!had) return null;
  const gone = removedLines(before, after);
  const emptied = after.every((l) => !l.trim());
  if (emptied ? allow.all : allow.most) return null;
  // Whether it is destructive counts edited lines as kept; the message names what is not there.
  const lost = removedLines(before, after, true).length;
  if (!emptied && (had < GUARD_MIN_LINES || lost <= had * GUARD_SHARE)) return null;
  const file = quoteValue(path);
  const sample = gone.slice(0, 3).map((l) => quoteValue(l)).join(", ");
  const what = emptied
    ? `would leave ${file} empty`
    : `would remove ${gone.length} of the ${had} lines of ${file} (${sample}${
      gone.length > 3 ? ", …" : ""
    })`;
  return `${how} ${what}, and the task does not ask for a deletion, so nothing was written. ` +
    `If those lines must go, confirm it with a narrower edit: SEARCH/REPLACE blocks for ${file} ` +
    `that quote the lines to change and write what replaces them. Otherwise send the complete ` +
    `file with every line it keeps.`;
}
