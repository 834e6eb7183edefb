/**
 * The main thread reads a listing's paths from the packed bytes the workers read: each path as it
 * was, found by a search in the listing's own order (JavaScript's, which is not UTF-8's beyond
 * the Basic Multilingual Plane), from any starting point; a name glob (`*.py`) is tested on the
 * bytes themselves.
 */
import assert from "node:assert/strict";
import { packPaths, PathNames } from "../../lib/find/packed.ts";
import { atOnce } from "../../lib/find/walk.ts";
import { poolListing } from "../../lib/find/pool_listing.ts";
import { globFiles } from "../../lib/find/warm.ts";
import { globMatches, globSpec, nameSuffixes } from "../../lib/glob/mod.ts";

const PARTS = ["a", "b", "src", "ü", "é", "\u{1F600}", "\uFF5E", "z", ".", "-", "日本", "x y"];

/** A deterministic list of `count` distinct paths, sorted as a listing is. */
function _paths(count: number, seed: number): string[] {
  let s = seed;
  const rand = (n: number) => Math.floor(((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * n);
  const out = new Set<string>();
  while (out.size < count) {
    const depth = 1 + rand(4);
    const parts: string[] = [];
    for (let d = 0; d < depth; d++) {
      parts.push(PARTS[rand(PARTS.length)] + PARTS[rand(PARTS.length)]);
    }
    out.add(parts.join("/"));
  }
  return [...out].sort();
}

Deno.test("PathNames gives back every path and finds each in the listing's order", () => {
  for (const [count, seed] of [[0, 1], [1, 2], [7, 3], [500, 4], [3000, 5]]) {
    const paths = _paths(count, seed);
    const names = new PathNames(atOnce(packPaths(paths)));
    assert.equal(names.length, paths.length);
    assert.deepEqual(names.all(), paths);
    for (const [i, path] of paths.entries()) {
      assert.equal(names.at(i), path);
      assert.equal(names.indexOf(path), i, path);
      // From any earlier point, and from the very next index (as git names files in order).
      assert.equal(names.indexOf(path, Math.floor(i / 2)), i);
      assert.equal(names.indexOf(path, i), i);
    }
    // Not listed: -1; where it would sort: after every smaller path.
    for (const absent of ["", "0", "a/zzz", "\u{1F600}\u{1F600}/new", "\uFFFF"]) {
      if (paths.includes(absent)) continue;
      assert.equal(names.indexOf(absent), -1, absent);
      const at = names.seek(absent);
      assert.ok(
        paths.slice(0, at).every((p) => p < absent) && paths.slice(at).every((p) => p > absent),
      );
    }
    // Asked from past its place (out of order): not found from there.
    if (count > 2) assert.equal(names.indexOf(paths[0], 1), -1);
    // Any range at once; the end of the paths with a prefix, from where the prefix sorts.
    for (const [lo, hi] of [[0, count], [0, 1], [count >> 2, count >> 1], [count - 1, count]]) {
      if (lo < 0 || hi > count) continue;
      assert.deepEqual(names.slice(lo, hi), paths.slice(lo, hi), `${lo}..${hi}`);
    }
    assert.deepEqual(names.slice(3, 3), []);
    for (const prefix of ["a", "ab/", "ü", "\u{1F600}", "日本", "x y/", "zz", "", "\uFFFF"]) {
      const lo = names.seek(prefix);
      const hi = names.prefixEnd(prefix, lo);
      const want = paths.filter((p) => p.startsWith(prefix));
      assert.deepEqual(paths.slice(lo, hi), want, prefix);
    }
  }
});

Deno.test("a name glob's suffixes, tested on the packed bytes, pass exactly what globMatches passes", async () => {
  const names = [
    "x.py",
    ".py",
    "py",
    "a.py.b",
    "café.py",
    "日本.ts",
    "a.tsx",
    "b.d.ts",
    "d.ts",
    "c++",
    "t.c++",
  ];
  const more = [
    "x_test.go",
    "test.go",
    "é.py",
    "src",
    "a.ts",
    "ts",
    "\u{1F600}.md",
    "m.md.ts",
    "s",
    "a\nb.py",
    "c\u2028.py",
  ];
  const pool = [...names, ...more];
  let s = 7;
  const rand = (n: number) => Math.floor(((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * n);
  const set = new Set<string>();
  while (set.size < 3000) {
    const depth = 1 + rand(4);
    set.add(Array.from({ length: depth }, () => pool[rand(pool.length)]).join("/"));
  }
  const paths = [...set].sort();
  const globs = [
    "*.py",
    "*.{ts,tsx}",
    "*.d.ts",
    "!*.py",
    "*.c++",
    "*_test.go",
    "*é.py",
    "*.md",
    "*s",
    // The same with a leading `**/` (anchored: a folder whose name holds a line break too).
    "**/*.py",
    "**/*.{ts,tsx}",
    "!**/*.py",
    "./**/*.d.ts",
  ];
  for (const text of globs) {
    const glob = globSpec(text);
    assert.ok(nameSuffixes(glob.source, glob.anchored), `${text} is read as suffixes`);
    const listing = poolListing(paths, { id: 1, root: "/nowhere", startedAt: 0 });
    const re = new RegExp(glob.source);
    const want = paths.flatMap((p, i) => globMatches(re, glob, p) ? [i] : []);
    assert.deepEqual([...await globFiles(listing, glob)], want, text);
  }
});

Deno.test("nameSuffixes reads only globs of literal text after a leading star", () => {
  const cases: [string, string[] | undefined][] = [
    ["*.py", [".py"]],
    ["*.{ts,tsx}", [".ts", ".tsx"]],
    ["*.spec.{js,ts}", [".spec.js", ".spec.ts"]],
    ["*.c++", [".c++"]],
    ["*", undefined],
    ["*.py*", undefined],
    ["*.[ch]", undefined],
    ["src/*.py", undefined],
    ["a*.py", undefined],
    ["*.{a,{b,c}}", undefined],
    // Anchored (a `/`): only a leading `**/` then a name glob as above.
    ["**/*.py", [".py"]],
    ["**/*.{ts,tsx}", [".ts", ".tsx"]],
    ["**/**/*.py", undefined],
    ["**/test/*.py", undefined],
    ["src/**/*.py", undefined],
    ["**/a*.py", undefined],
    ["**/*", undefined],
  ];
  for (const [text, want] of cases) {
    const glob = globSpec(text);
    assert.deepEqual(nameSuffixes(glob.source, glob.anchored), want, text);
  }
  // Read as the other kind, neither passes.
  assert.equal(nameSuffixes(globSpec("**/*.py").source), undefined);
  assert.equal(nameSuffixes(globSpec("*.py").source, true), undefined);
});
