/**
 * Lines as the merge sees them, and git's preparation of them: text split into lines that keep
 * their endings, lines numbered so equal lines share a number, and which lines git's diff works
 * on (it sets aside the common start and end, lines with no equal on the other side, and lines
 * with many equals there amid such lines: `xdl_cleanup_records`).
 */

/** The lines of `text`, each with its own ending (`\n`, `\r\n`, or none on a last line). */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Each file's lines as numbers, equal lines as equal numbers; `size`: how many differ. */
export function lineIds(files: string[][]): { ids: Int32Array[]; size: number } {
  const known = new Map<string, number>();
  const ids = files.map((lines) =>
    Int32Array.from(lines, (l) => {
      let id = known.get(l);
      if (id === undefined) known.set(l, id = known.size);
      return id;
    })
  );
  return { ids, size: known.size };
}

/**
 * What git's diff does with each line of `a` against `b`: 2 for the common start and end (left
 * as they are), 1 for a line it diffs, 0 for a line it counts as changed without diffing it: one
 * that does not occur in `b`, or one that occurs often in `b` and sits amid such lines (git's
 * `xdl_cleanup_records`). `inB` counts each line's occurrences in `b`.
 */
export function lineRoles(a: Int32Array, b: Int32Array, { inB }: { inB: Int32Array }): Uint8Array {
  const roles = new Uint8Array(a.length).fill(2);
  let first = 0;
  while (first < a.length && first < b.length && a[first] === b[first]) first++;
  let tail = 0;
  const room = Math.min(a.length, b.length) - first;
  while (tail < room && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const last = a.length - tail - 1;
  const often = Math.min(_bogoSqrt(a.length), 1024);
  const kinds = new Uint8Array(a.length);
  for (let i = first; i <= last; i++) {
    const n = inB[a[i]];
    kinds[i] = n === 0 ? _NONE : n >= often ? _MANY : _SOME;
  }
  for (let i = first; i <= last; i++) {
    const keep = kinds[i] === _SOME || (kinds[i] === _MANY && !_amidNone(kinds, i, first, last));
    roles[i] = keep ? 1 : 0;
  }
  return roles;
}

const _NONE = 0;
const _SOME = 1;
const _MANY = 2;

/** A power of two near the square root of `n`, as git rounds it (`xdl_bogosqrt`). */
function _bogoSqrt(n: number): number {
  let root = 1;
  for (let rest = n; rest > 0; rest >>= 2) root <<= 1;
  return root;
}

/**
 * Whether line `i`, which occurs often on the other side, sits in a run of lines that occur
 * there often or not at all, with some of the latter on both sides of it, and those make up more
 * than three quarters of the run, line `i` counted twice as git counts it (looking at most 100
 * lines each way, within [first, last]).
 */
function _amidNone(kinds: Uint8Array, i: number, first: number, last: number): boolean {
  const count = (step: number, stop: number) => {
    let none = 0;
    let many = 0;
    for (let k = i + step; step < 0 ? k >= stop : k <= stop; k += step) {
      if (kinds[k] === _SOME) break;
      if (kinds[k] === _NONE) none++;
      else many++;
    }
    return { none, many };
  };
  const before = count(-1, Math.max(first, i - 100));
  if (before.none === 0) return false;
  const after = count(1, Math.min(last, i + 100));
  if (after.none === 0) return false;
  const many = 2 + before.many + after.many;
  return many * 4 < many + before.none + after.none;
}
