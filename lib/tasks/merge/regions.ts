/**
 * The merge's stretches by git's rules, from the two sides' changes, and the merged text when no
 * stretch conflicts.
 */
import type { Side } from "./side.ts";
import { runEnd } from "./slide.ts";

/** Base lines [i1, i1 + chg1) became side lines [i2, i2 + chg2). */
export interface Change {
  i1: number;
  chg1: number;
  i2: number;
  chg2: number;
}

/**
 * One stretch of the merge: base lines [i0, i0 + chg0) read as ours lines [i1, i1 + chg1) and
 * theirs lines [i2, i2 + chg2). Mode 1 takes ours, 2 takes theirs, 0 is a conflict, 4 a
 * conflict resolved because both sides read the same.
 */
export interface Region {
  mode: number;
  i0: number;
  chg0: number;
  i1: number;
  chg1: number;
  i2: number;
  chg2: number;
}

/** A side's changes in base order: runs of changed lines, paired through the unchanged ones. */
export function sideChanges({ changedA, changedB }: Side): Change[] {
  const out: Change[] = [];
  let i = 0;
  let j = 0;
  while (i < changedA.length || j < changedB.length) {
    if (!changedA[i] && !changedB[j]) {
      i++;
      j++;
      continue;
    }
    const [i1, i2] = [i, j];
    i = runEnd(changedA, i);
    j = runEnd(changedB, j);
    out.push({ i1, chg1: i - i1, i2, chg2: j - i2 });
  }
  return out;
}

/**
 * The merge's stretches by git's rules: the very same change on both sides is taken once;
 * changes whose base ranges meet (closed ranges: touching counts) group together, and a group
 * with changes of both sides is a conflict, resolved (mode 4) when its two sides read the same.
 * `lines`: the lines of base, ours and theirs.
 */
export function buildRegions(
  mine: Change[],
  other: Change[],
  { lines: [, ours, theirs] }: { lines: string[][] },
): Region[] {
  const out: Region[] = [];
  let [a, b, shiftO, shiftT] = [0, 0, 0, 0];
  const first = () => {
    const [x, y] = [mine[a], other[b]];
    if (x && (!y || x.i1 <= y.i1)) return { c: x, side: 1 };
    return y ? { c: y, side: 2 } : undefined;
  };
  for (let head = first(); head; head = first()) {
    const [x, y] = [mine[a], other[b]];
    if (x && y && _sameChange(x, y, ours, theirs)) {
      [a, b, shiftO, shiftT] = [a + 1, b + 1, shiftO + x.chg2 - x.chg1, shiftT + y.chg2 - y.chg1];
      continue;
    }
    const start = head.c.i1;
    let [end, sides, growO, growT] = [start, 0, 0, 0];
    for (let next: typeof head | undefined = head; next && next.c.i1 <= end; next = first()) {
      end = Math.max(end, next.c.i1 + next.c.chg1);
      sides |= next.side;
      if (next.side === 1) [a, growO] = [a + 1, growO + next.c.chg2 - next.c.chg1];
      else [b, growT] = [b + 1, growT + next.c.chg2 - next.c.chg1];
    }
    const r = {
      mode: sides === 3 ? 0 : sides,
      i0: start,
      chg0: end - start,
      i1: start + shiftO,
      chg1: end - start + growO,
      i2: start + shiftT,
      chg2: end - start + growT,
    };
    [shiftO, shiftT] = [shiftO + growO, shiftT + growT];
    if (r.mode === 0 && r.chg1 > 0 && r.chg2 > 0) {
      if (_same(ours.slice(r.i1, r.i1 + r.chg1), theirs.slice(r.i2, r.i2 + r.chg2))) r.mode = 4;
    }
    out.push(r);
  }
  return out;
}

function _same(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/** Whether ours' change `x` and theirs' change `y` replace the same base lines alike. */
function _sameChange(x: Change, y: Change, ours: string[], theirs: string[]): boolean {
  return x.i1 === y.i1 && x.chg1 === y.chg1 && x.chg2 === y.chg2 &&
    _same(ours.slice(x.i2, x.i2 + x.chg2), theirs.slice(y.i2, y.i2 + y.chg2));
}

/** The merged text from the lines of base, ours and theirs: ours, with theirs' lines wherever only theirs changed. */
export function mergedText(regions: Region[], [, ours, theirs]: string[][]): string {
  const out: string[] = [];
  let i = 0;
  for (const r of regions) {
    if (r.mode !== 2) continue;
    out.push(ours.slice(i, r.i1).join(""), theirs.slice(r.i2, r.i2 + r.chg2).join(""));
    i = r.i1 + r.chg1;
  }
  out.push(ours.slice(i).join(""));
  return out.join("");
}
