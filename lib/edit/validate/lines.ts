/**
 * The two texts every validator reads, as lines: split once per text (kept for the next validator)
 * and the span where they differ.
 */

const _split = new Map<string, string[]>();

/** The lines of `text` (kept for the next validator: each reads the same two texts). */
export function linesOf(text: string | null): string[] {
  if (text === null) return [];
  let lines = _split.get(text);
  if (!lines) {
    lines = text.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
    _split.set(text, lines);
    if (_split.size > 4) _split.delete(_split.keys().next().value!);
  }
  return lines;
}

/** The lines where `after` differs from `before`: [from, to) of each, past a common start and end. */
export function changedLines(
  before: readonly string[],
  after: readonly string[],
): { head: number; beforeTo: number; afterTo: number } {
  let head = 0;
  const most = Math.min(before.length, after.length);
  while (head < most && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < most - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) tail++;
  return { head, beforeTo: before.length - tail, afterTo: after.length - tail };
}
