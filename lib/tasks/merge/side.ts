/**
 * One side's diff against the base, the way git's diff comes out: the `diff` package on the lines
 * git's diff works on, slid as git slides, plus where other pairings of git's cost could change
 * lines instead.
 */
import { type Budget, TIMED_OUT, TOO_LARGE } from "./budget.ts";
import { bandGraph, type Graph, looseSlots } from "./graph.ts";
import { lineRoles } from "./lines.ts";
import { settle } from "./slide.ts";

/** Git's Myers diff is exact up to an edit cost of 2 × 256 (then `xdl_split` cuts it short). */
const MAX_MYERS_COST = 500;

/**
 * One side's diff against the base, and where other pairings of git's cost could change lines.
 * Slots number the base's gaps and lines: slot 2p is the gap before base line p, slot 2r + 1 is
 * base line r.
 */
export interface Side {
  /** The lines of base (A) and side (B), as numbers. */
  idsA: Int32Array;
  idsB: Int32Array;
  /** Changed lines of base and side in our pairing, slid as git slides them. */
  changedA: Uint8Array;
  changedB: Uint8Array;
  /** For each base line, the side line our pairing pairs it with, or -1 when changed. */
  paired: Int32Array;
  /**
   * 1 on each slot some pairing changes: a changed line with the gaps around it, or a gap with
   * lines inserted.
   */
  loose: Uint8Array;
  /** 1 on each base line that pairings treat differently (kept as different lines, or deleted). */
  unsure: Uint8Array;
  graph: Graph;
  /** The graph's base lines and side lines, as indexes into `base` and `side`. */
  rows: number[];
  cols: number[];
}

/**
 * The diff of `base` → `side` and where other pairings of git's cost could change lines; a
 * reason string when the merge must give up. `size`: the number of distinct lines.
 */
export function diffSide(
  base: Int32Array,
  side: Int32Array,
  { size, budget }: { size: number; budget: Budget },
): Side | string {
  const inSide = _tally(side, size);
  const inBase = _tally(base, size);
  const roleA = lineRoles(base, side, { inB: inSide });
  const roleB = lineRoles(side, base, { inB: inBase });
  const changedA = Uint8Array.from(roleA, (r) => r === 0 ? 1 : 0);
  const changedB = Uint8Array.from(roleB, (r) => r === 0 ? 1 : 0);
  const keptA = _where(roleA, (r) => r === 1);
  const keptB = _where(roleB, (r) => r === 1);
  const timeout = budget.deadline - Date.now();
  const options = { timeout, maxEditLength: MAX_MYERS_COST };
  const parts = timeout > 0
    ? budget.diffArrays(keptA.map((i) => base[i]), keptB.map((j) => side[j]), options)
    : undefined;
  if (!parts) return Date.now() < budget.deadline ? TOO_LARGE : TIMED_OUT;
  let i = 0;
  let j = 0;
  for (const p of parts) {
    if (p.removed) keptA.slice(i, i + p.count).forEach((r) => changedA[r] = 1);
    if (p.added) keptB.slice(j, j + p.count).forEach((r) => changedB[r] = 1);
    if (!p.added) i += p.count;
    if (!p.removed) j += p.count;
  }
  const total = changedA.reduce((n, c) => n + c, 0) + changedB.reduce((n, c) => n + c, 0);
  const rows = _where(base, (id) => inSide[id] > 0);
  const cols = _where(side, (id) => inBase[id] > 0);
  const left = base.length - rows.length + side.length - cols.length;
  const graph = bandGraph(rows.map((r) => base[r]), cols.map((c) => side[c]), {
    cost: total - left,
    budget,
  });
  if (typeof graph === "string") return graph;
  settle(base, { changed: changedA, other: changedB });
  settle(side, { changed: changedB, other: changedA });
  const paired = _paired(changedA, changedB);
  const { loose, unsure } = looseSlots(graph, { rows, cols, base, side });
  return { idsA: base, idsB: side, changedA, changedB, paired, loose, unsure, graph, rows, cols };
}

/** How many times each line occurs in `ids`, by line number. */
function _tally(ids: Int32Array, size: number): Int32Array {
  const out = new Int32Array(size);
  for (const id of ids) out[id]++;
  return out;
}

/** The indexes `i` of `items` for which `test(items[i])` holds. */
function _where<T>(items: ArrayLike<T>, test: (item: T) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < items.length; i++) if (test(items[i])) out.push(i);
  return out;
}

/** For each base line, the side line it is paired with, or -1 when changed. */
function _paired(changedA: Uint8Array, changedB: Uint8Array): Int32Array {
  const out = new Int32Array(changedA.length).fill(-1);
  let j = 0;
  for (let i = 0; i < changedA.length; i++) {
    if (changedA[i]) continue;
    while (changedB[j]) j++;
    out[i] = j++;
  }
  return out;
}
