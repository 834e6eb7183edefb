/**
 * The check of ambiguous line pairings: where both sides may change lines near each other and
 * repeated lines pair up with the base in more than one way of git's cost, the merge takes the
 * stretch only when every such pairing (at most 64), slid as git slides it, changes the same
 * lines as ours; together with the plain conflicts, the stretches the merge cannot take.
 */
import type { Region } from "./regions.ts";
import type { Side } from "./side.ts";
import type { Graph } from "./graph.ts";
import { settle } from "./slide.ts";

/** Pairings of one stretch that are tried before the stretch counts as ambiguous. */
const MAX_PAIRINGS = 64;
const MAX_STEPS = 20_000;

/** A stretch of base lines [start, end) the merge cannot take; `ambiguous`: for its pairing. */
export interface Spot {
  start: number;
  end: number;
  ambiguous: boolean;
}

/**
 * The stretches the merge cannot take, in base order: each
 * run of slots where both sides may change lines and the pairing is in doubt (git may pair it
 * otherwise than we did), and each conflict region outside such runs.
 */
export function findSpots(
  regions: Region[],
  { mine, other }: { mine: Side; other: Side },
): Spot[] {
  const spots: Spot[] = [];
  const slots = mine.loose.length;
  for (let s = 0; s < slots;) {
    let e = s;
    let both = 0;
    let unsure = 0;
    while (e < slots && (mine.loose[e] || other.loose[e])) {
      both |= mine.loose[e] | (other.loose[e] << 1);
      if (e & 1) unsure |= mine.unsure[e >> 1] | (other.unsure[e >> 1] << 1);
      e++;
    }
    const [p, q] = [s >> 1, e >> 1];
    if (both === 3 && unsure) {
      const settled = [mine, other].every((side, k) =>
        !(unsure & (1 << k)) || _settled(side, p, q)
      );
      if (!settled) spots.push({ start: p, end: q, ambiguous: true });
    }
    s = Math.max(e, s + 1);
  }
  const clash = (r: Region) => spots.some((s) => r.i0 <= s.end && r.i0 + r.chg0 >= s.start);
  const open = regions.filter((r) => r.mode === 0 && !clash(r));
  spots.push(...open.map((r) => ({ start: r.i0, end: r.i0 + r.chg0, ambiguous: false })));
  return spots.sort((x, y) => x.start - y.start);
}

/**
 * Whether every pairing of git's cost, slid as git slides it, changes the same lines as ours
 * between base lines p and q (base lines p - 1 and q, where they exist, are paired alike by every
 * pairing). False when there are more than `MAX_PAIRINGS` pairings to try.
 */
function _settled(side: Side, p: number, q: number): boolean {
  const { graph, rows, cols, changedA, changedB, paired } = side;
  const js = p === 0 ? 0 : paired[p - 1] + 1;
  const je = q === changedA.length ? changedB.length : paired[q];
  const [iIn, iOut] = [_below(rows, p), _below(rows, q)];
  const [jIn, jOut] = [_below(cols, js), _below(cols, je)];
  const spent = graph.from[iIn * graph.width + jIn - iIn - graph.lo];
  const want = [changedA.slice(p, q), changedB.slice(js, je)];
  const moves: number[] = [];
  let found = 0;
  let steps = 0;
  const check = () => {
    const got = [new Uint8Array(q - p).fill(1), new Uint8Array(je - js).fill(1)];
    let [i, j] = [iIn, jIn];
    for (const move of moves) {
      if (move !== _INSERT) got[0][rows[i++] - p] = move === _DELETE ? 1 : 0;
      if (move !== _DELETE) got[1][cols[j++] - js] = move === _INSERT ? 1 : 0;
    }
    settle(side.idsA.subarray(p, q), { changed: got[0], other: got[1] });
    settle(side.idsB.subarray(js, je), { changed: got[1], other: got[0] });
    return want.every((w, k) => w.every((v, n) => v === got[k][n]));
  };
  const walk = (i: number, j: number, cost: number, inserted: boolean): boolean => {
    if (++steps > MAX_STEPS) return false;
    if (i === iOut && j === jOut) return check() && ++found <= MAX_PAIRINGS;
    const tries: [number, number, number, number][] = [];
    if (i < iOut && j < jOut && graph.a[i] === graph.b[j]) tries.push([_KEEP, i + 1, j + 1, 0]);
    if (i < iOut && !inserted) tries.push([_DELETE, i + 1, j, 1]);
    if (j < jOut) tries.push([_INSERT, i, j + 1, 1]);
    for (const [move, ni, nj, price] of tries) {
      if (spent + cost + price + _toEnd(graph, ni, nj) > graph.cost) continue;
      moves.push(move);
      if (!walk(ni, nj, cost + price, move === _INSERT)) return false;
      moves.pop();
    }
    return true;
  };
  return walk(iIn, jIn, 0, false);
}

const _KEEP = 0;
const _DELETE = 1;
const _INSERT = 2;

/** The shortest cost from point (i, j) to the end of the graph (past the band: too much). */
function _toEnd(graph: Graph, i: number, j: number): number {
  const x = j - i - graph.lo;
  return x < 0 || x >= graph.width ? graph.width : graph.to[i * graph.width + x];
}

/** How many of the sorted `items` are below `value`. */
function _below(items: number[], value: number): number {
  let [lo, hi] = [0, items.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
