/**
 * Git's slides: after its diff, git moves each run of changed lines over equal lines
 * (`xdl_change_compact`, without the indent heuristic), and a diff must be slid alike before it
 * can match git's.
 */

/** A run of changed lines [start, end) of one file; empty between two unchanged lines. */
interface _Run {
  start: number;
  end: number;
}

/**
 * Slides each run of changed lines of one file over equal lines the way git does after its diff
 * (`xdl_change_compact`, without the indent heuristic): up as far as it goes, then down as far as
 * it goes, taking in runs it meets, until it stops growing; then, if it passed a place where it
 * faced changed lines of the other file, back up to the lowest such place. `other` marks the
 * other file's changed lines; the k-th run of one file (empty runs included) faces the k-th run
 * of the other.
 */
export function settle(
  ids: Int32Array,
  { changed, other }: { changed: Uint8Array; other: Uint8Array },
): void {
  const run = { start: 0, end: runEnd(changed, 0) };
  const facing = { start: 0, end: runEnd(other, 0) };
  while (true) {
    if (run.end > run.start) _settleRun(ids, changed, other, run, facing);
    if (run.end === changed.length) return;
    _nextRun(changed, run);
    _nextRun(other, facing);
  }
}

function _settleRun(
  ids: Int32Array,
  changed: Uint8Array,
  other: Uint8Array,
  run: _Run,
  facing: _Run,
): void {
  let size: number;
  let highest: number;
  let faced: boolean;
  do {
    size = run.end - run.start;
    while (_slideUp(ids, changed, run)) _previousRun(other, facing);
    highest = run.end;
    faced = facing.end > facing.start;
    while (_slideDown(ids, changed, run)) {
      _nextRun(other, facing);
      faced ||= facing.end > facing.start;
    }
  } while (size !== run.end - run.start);
  if (run.end === highest || !faced) return;
  while (facing.end === facing.start) {
    _slideUp(ids, changed, run);
    _previousRun(other, facing);
  }
}

/** The first unchanged line at or after `i` (reads past the end are undefined: unchanged). */
export function runEnd(changed: Uint8Array, i: number): number {
  let end = i;
  while (changed[end]) end++;
  return end;
}

function _nextRun(changed: Uint8Array, run: _Run): void {
  run.start = run.end + 1;
  run.end = runEnd(changed, run.start);
}

function _previousRun(changed: Uint8Array, run: _Run): void {
  run.end = run.start - 1;
  run.start = run.end;
  while (changed[run.start - 1]) run.start--;
}

/** Moves `run` one line down when the line after it equals its first, taking in a run it meets. */
function _slideDown(ids: Int32Array, changed: Uint8Array, run: _Run): boolean {
  if (run.end >= ids.length || ids[run.start] !== ids[run.end]) return false;
  changed[run.start++] = 0;
  changed[run.end] = 1;
  run.end = runEnd(changed, run.end);
  return true;
}

/** Moves `run` one line up when the line before it equals its last, taking in a run it meets. */
function _slideUp(ids: Int32Array, changed: Uint8Array, run: _Run): boolean {
  if (run.start === 0 || ids[run.start - 1] !== ids[run.end - 1]) return false;
  changed[--run.start] = 1;
  changed[--run.end] = 0;
  while (changed[run.start - 1]) run.start--;
  return true;
}
