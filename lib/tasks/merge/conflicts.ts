/**
 * What a merge that does not go through reports: the number of conflicts git would count, and
 * one short sentence on the first stretch it cannot take.
 */
import type { Budget } from "./budget.ts";
import type { Spot } from "./pairing.ts";
import type { Change, Region } from "./regions.ts";

const AMBIGUOUS = "where repeated lines pair up in more than one way";

/**
 * The number of conflicts git reports: each open region splits into the changes between its two
 * sides, and conflicts at most three lines apart, or apart by lines without a letter or digit,
 * count as one (git's `XDL_MERGE_ZEALOUS_ALNUM`). `lines`: the lines of base, ours and theirs.
 */
export function conflictCount(
  regions: Region[],
  { lines: [, ours, theirs], budget }: { lines: string[][]; budget: Budget },
): number {
  const spans: { mode: number; i1: number; end1: number }[] = [];
  for (const r of regions) {
    const parts = r.mode === 0 && r.chg1 > 0 && r.chg2 > 0
      ? _plainDiff(ours.slice(r.i1, r.i1 + r.chg1), theirs.slice(r.i2, r.i2 + r.chg2), budget)
      : undefined;
    if (parts?.length) {
      spans.push(...parts.map((p) => ({ mode: 0, i1: r.i1 + p.i1, end1: r.i1 + p.i1 + p.chg1 })));
    } else spans.push({ mode: r.mode, i1: r.i1, end1: r.i1 + r.chg1 });
  }
  let count = 0;
  spans.forEach((s, k) => {
    if (s.mode !== 0) return;
    const prev = spans[k - 1];
    const gap = ours.slice(prev?.end1 ?? 0, s.i1);
    const joined = prev?.mode === 0 && (gap.length <= 3 || !gap.some((l) => /[A-Za-z0-9]/.test(l)));
    if (!joined) count++;
  });
  return count;
}

/** The changes from `a` to `b` by the `diff` package alone; undefined when out of time. */
function _plainDiff(a: string[], b: string[], budget: Budget): Change[] | undefined {
  const timeout = budget.deadline - Date.now();
  const parts = timeout > 0 ? budget.diffArrays(a, b, { timeout }) : undefined;
  if (!parts) return undefined;
  const out: Change[] = [];
  let i = 0;
  let j = 0;
  parts.forEach((p, k) => {
    const prev = parts[k - 1];
    if ((p.added || p.removed) && (prev?.added || prev?.removed)) {
      const last = out[out.length - 1];
      if (p.removed) last.chg1 += p.count;
      else last.chg2 += p.count;
    } else if (p.added || p.removed) {
      out.push({ i1: i, chg1: p.removed ? p.count : 0, i2: j, chg2: p.added ? p.count : 0 });
    }
    if (!p.added) i += p.count;
    if (!p.removed) j += p.count;
  });
  return out;
}

/** "both sides changed lines 12-14" for `spot`, in base line numbers. */
export function conflictReason({ start, end, ambiguous }: Spot): string {
  if (start === end) return `both sides inserted lines after line ${start}`;
  const lines = end - start === 1 ? `line ${start + 1}` : `lines ${start + 1}-${end}`;
  return `both sides changed ${lines}${ambiguous ? `, ${AMBIGUOUS}` : ""}`;
}
