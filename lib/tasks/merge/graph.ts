/**
 * The band of the edit graph of base and one side that pairings of git's cost stay in: the
 * shortest costs to and from each point (a dynamic program over the band), and from them the
 * slots and base lines such pairings treat in more than one way.
 */
import { type Budget, TIMED_OUT, TOO_LARGE } from "./budget.ts";

/**
 * The edit graph of `a` (base) and `b` (side) within a band of diagonals: point (i, j) with
 * j = i + lo + x is at index i × width + x, for x in [0, width); `cost` is the most a pairing
 * may cost, `from` and `to` the shortest costs from the start to each point and from each point
 * to the end.
 */
export interface Graph {
  a: number[];
  b: number[];
  lo: number;
  width: number;
  cost: number;
  from: Uint16Array;
  to: Uint16Array;
}

const MAX_BAND_CELLS = 1 << 23;

/**
 * The band of the edit graph of `a` and `b` that pairings costing at most `cost` stay in, with
 * shortest costs; a reason when it is too large to search or out of time.
 */
export function bandGraph(
  a: number[],
  b: number[],
  { cost, budget }: { cost: number; budget: Budget },
): Graph | string {
  const [n, m] = [a.length, b.length];
  const width = cost + 1;
  if ((n + 1) * width > MAX_BAND_CELLS || cost >= 0xffff) return TOO_LARGE;
  const shape = { a, b, lo: (m - n - cost) / 2, width };
  const from = _costsFrom(shape, budget);
  const to = from && _costsTo(shape, budget);
  if (!from || !to) return TIMED_OUT;
  return { ...shape, cost, from, to };
}

type _Shape = Pick<Graph, "a" | "b" | "lo" | "width">;

/**
 * The shortest edit cost (lines inserted plus deleted) from the start of the graph to each point,
 * capped at the band's width; undefined when out of time.
 */
function _costsFrom({ a, b, lo, width }: _Shape, budget: Budget): Uint16Array | undefined {
  const out = new Uint16Array((a.length + 1) * width).fill(width);
  for (let i = 0; i <= a.length; i++) {
    if ((i & 1023) === 0 && Date.now() > budget.deadline) return undefined;
    const row = i * width;
    for (let x = 0; x < width; x++) {
      const j = i + lo + x;
      if (j < 0 || j > b.length) continue;
      let v = i === 0 && j === 0 ? 0 : width;
      if (i > 0 && x + 1 < width) v = Math.min(v, out[row - width + x + 1] + 1);
      if (j > 0 && x > 0) v = Math.min(v, out[row + x - 1] + 1);
      if (i > 0 && j > 0 && a[i - 1] === b[j - 1]) v = Math.min(v, out[row - width + x]);
      out[row + x] = Math.min(v, width);
    }
  }
  return out;
}

/** The shortest edit cost from each point of the graph to its end, as {@linkcode _costsFrom}. */
function _costsTo({ a, b, lo, width }: _Shape, budget: Budget): Uint16Array | undefined {
  const out = new Uint16Array((a.length + 1) * width).fill(width);
  for (let i = a.length; i >= 0; i--) {
    if ((i & 1023) === 0 && Date.now() > budget.deadline) return undefined;
    const row = i * width;
    for (let x = width - 1; x >= 0; x--) {
      const j = i + lo + x;
      if (j < 0 || j > b.length) continue;
      let v = i === a.length && j === b.length ? 0 : width;
      if (i < a.length && x > 0) v = Math.min(v, out[row + width + x - 1] + 1);
      if (j < b.length && x + 1 < width) v = Math.min(v, out[row + x + 1] + 1);
      if (i < a.length && j < b.length && a[i] === b[j]) v = Math.min(v, out[row + width + x]);
      out[row + x] = Math.min(v, width);
    }
  }
  return out;
}

/**
 * Which slots and base lines pairings of the graph's cost treat in more than one way, in the
 * slots of the whole files (slot 2p is the gap before base line p, slot 2r + 1 is base line r):
 * `rows` and `cols` place the graph's lines there, and every line left out of the graph is
 * changed by every pairing. `loose` is 1 on each slot some pairing changes, `unsure` 1 on each
 * base line pairings treat differently (see `Side` in side.ts).
 */
export function looseSlots(
  graph: Graph,
  { rows, cols, base, side }: {
    rows: number[];
    cols: number[];
    base: Int32Array;
    side: Int32Array;
  },
): { loose: Uint8Array; unsure: Uint8Array } {
  const { a, b, lo, width, cost, from, to } = graph;
  const [n, m] = [a.length, b.length];
  const loose = new Uint8Array(2 * base.length + 1);
  const unsure = new Uint8Array(base.length);
  const gap = (p: number) => 2 * (p < n ? rows[p] : base.length);
  const cheap = (p: number, x: number, step: number, q: number, y: number) =>
    from[p * width + x] + step + to[q * width + y] <= cost;
  let next = 0;
  for (let r = 0; r < base.length; r++) {
    if (rows[next] === r) next++;
    else loose.fill(1, 2 * r, 2 * r + 3);
  }
  for (let p = 0; p <= n; p++) {
    let kept = 0;
    let dropped = false;
    for (let x = 0; x < width; x++) {
      const j = p + lo + x;
      if (j < 0 || j > m || !cheap(p, x, 0, p, x)) continue;
      if (x + 1 < width && j < m && cheap(p, x, 1, p, x + 1)) loose[gap(p)] = 1;
      if (p === n) continue;
      if (x > 0 && cheap(p, x, 1, p + 1, x - 1)) dropped = true;
      if (j < m && a[p] === b[j] && cheap(p, x, 0, p + 1, x)) kept++;
    }
    if (p < n && (dropped || kept !== 1)) loose.fill(1, 2 * rows[p], 2 * rows[p] + 3);
    if (p < n && kept > 0 && (dropped || kept > 1)) unsure[rows[p]] = 1;
  }
  let before = 0;
  for (let j = 0; j < side.length; j++) {
    if (cols[before] === j) {
      before++;
      continue;
    }
    for (let p = Math.max(0, before - lo - cost); p <= Math.min(n, before - lo); p++) {
      if (cheap(p, before - p - lo, 0, p, before - p - lo)) loose[gap(p)] = 1;
    }
  }
  return { loose, unsure };
}
