/**
 * What the next rung of the ladder is told about the previous one (docs/ARCHITECTURE.md,
 * "Delegation"): which model tried, its last change as a diff and how it failed, each cut to a
 * budget so the note stays a note. The next rung starts from the task's original files.
 */

/** Most characters of the previous rung's diff shown. */
export const EARLIER_DIFF_CHARS = 2_000;
/** Most characters of its failure shown. */
export const EARLIER_FAILURE_CHARS = 1_200;

/** `text` cut to about `max` characters at a line end, with a marker when cut. */
function _cut(text: string, max: number): string {
  const t = text.trimEnd();
  if (t.length <= max) return t;
  const at = t.lastIndexOf("\n", max);
  const kept = t.slice(0, at > max / 2 ? at : max);
  return `${kept}\n⋯ ${t.length - kept.length} more characters not shown ⋯`;
}

/** The prompt section for the rung after the one that used `model` for `attempts` attempts. */
export function earlierNote(
  model: string,
  attempts: number,
  diff: string,
  failure: string,
): string {
  const tried = diff.trim()
    ? `Its last change was:\n\`\`\`diff\n${_cut(diff, EARLIER_DIFF_CHARS)}\n\`\`\``
    : "It left no change in the files.";
  return `## An earlier model did not manage this task\n` +
    `Another model (${model}) tried it in ${attempts} attempt${attempts === 1 ? "" : "s"}. ` +
    `The files to edit above are the original ones again. ${tried}\n` +
    `How it failed: ${_cut(failure, EARLIER_FAILURE_CHARS)}\n` +
    "Do not repeat its mistake; make the change the task asks for.";
}
