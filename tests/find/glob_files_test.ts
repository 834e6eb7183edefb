/**
 * `globFiles` (`lib/find/warm.ts`) passes exactly the files `globMatches` passes, on every path,
 * for real-world and random globs over generated listings; and each quick test of `globParts`
 * (`lib/glob/parts.ts`) answers as the glob's expression does. The random cases are seeded: a
 * failure names the seed and the glob.
 */
import assert from "node:assert/strict";
import { globFiles } from "../../lib/find/warm.ts";
import { poolListing } from "../../lib/find/pool_listing.ts";
import { globMatches, globParts, type GlobSpec, globSpec } from "../../lib/glob/mod.ts";

/** A small random generator (an LCG), seeded, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Names that globs trip on: dots, extensions within names, unicode, glob characters, spaces. */
const NAMES = [
  "a",
  "b",
  "ab",
  "abc",
  "a.c",
  "a?c",
  "aXc",
  "src",
  "src2",
  "lib",
  "test",
  "tests",
  "deep",
  "x.py",
  "test.py",
  "y.ts",
  "z.tsx",
  "x.ts.bak",
  "README.md",
  "a.md",
  ".hidden",
  ".py",
  "py",
  "é",
  "café.py",
  "日本.ts",
  "😀.py",
  "a b.txt",
  "v1.2.3",
  "[x]",
  "{a,b}",
  "a*b",
  "a,b",
  "-",
  "node_modules",
  "line\nbreak",
];

/** A sorted listing of up to `count` paths, 1 to 5 names deep (the root's own files too). */
function listing(next: () => number, count: number): string[] {
  const paths = new Set<string>();
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  for (let i = 0; i < count; i++) {
    const depth = 1 + Math.floor(next() * next() * 5);
    paths.add(Array.from({ length: depth }, () => pick(NAMES)).join("/"));
  }
  return [...paths].sort();
}

/** The pieces random globs are made of. */
const PIECES = [
  "a",
  "b",
  "c",
  ".",
  "py",
  "ts",
  "é",
  "😀",
  "-",
  "test",
  "src",
  "*",
  "*",
  "?",
  "[abc]",
  "[!a]",
  "[a-c]",
  "[+-0]", // a range that holds "/"
  "{ts,tsx}",
  "{,x}",
  "{a,{b,c}}",
  "{*.py,md}",
  "\\*",
  "\\[",
  "\\?",
  "**",
];

/** A random glob: one to three parts between `/`, now and then `!`, `**\/`, `/**` or `/`. */
function randomGlob(next: () => number): string {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const part = () =>
    Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(PIECES)).join("");
  let glob = Array.from({ length: 1 + Math.floor(next() * next() * 3) }, part).join("/");
  if (next() < 0.15) glob = `**/${glob}`;
  if (next() < 0.1) glob = `${glob}/**`;
  if (next() < 0.1) glob = `${glob}/`;
  if (next() < 0.05) glob = `./${glob}`;
  if (next() < 0.2) glob = `!${glob}`;
  return glob;
}

/** Globs a model asks for. */
const REAL = [
  "*.py",
  "*.{ts,tsx}",
  "*.md",
  "**/*.py",
  "**/test/*.py",
  "src/**",
  "src/**/*.ts",
  "src/*.ts",
  "!*.md",
  "!src/**",
  "lib/",
  "lib",
  "a?c",
  "[abc]*.ts",
  "test*",
  "*test*",
  "test_*.py",
  "ab*b",
  "a*a.c",
  "{a,ab}*{b,c}",
  "*test*",
  "*a*b*",
  "a*b*c",
  "*.*.*",
  "{x,y}*.{py,ts}",
  "README.md",
  "*.tar.gz",
  "x.ts.*",
  "café.py",
  "*.py/*",
  "**",
  "*",
  "src",
  "deep/*",
  "*/deep",
  "{src,lib}/**",
  "{,.}py",
  "日本.ts",
  "*😀*",
  "[x]",
  "\\[x\\]",
  "{a,b}",
  "node_modules/**",
  "**/node_modules",
];

/** The files `globMatches` passes, as `globFiles` gives them. */
async function both(files: string[], spec: GlobSpec): Promise<[string[], string[]]> {
  const re = new RegExp(spec.source);
  const want = files.filter((f) => globMatches(re, spec, f));
  const got = [
    ...await globFiles(poolListing(files, { id: 1, root: "/nowhere", startedAt: 0 }), spec),
  ].map((i) => files[i]);
  return [got, want];
}

Deno.test("globFiles: real-world globs over generated listings pass exactly what globMatches passes", async () => {
  for (const seed of [1, 2, 3]) {
    const files = listing(random(seed), 600);
    for (const glob of REAL) {
      const [got, want] = await both(files, globSpec(glob));
      assert.deepEqual(got, want, `seed ${seed}, glob ${glob}`);
    }
  }
});

Deno.test("globFiles: random globs pass exactly what globMatches passes", async () => {
  for (const seed of [11, 12, 13, 14]) {
    const next = random(seed);
    const files = listing(next, 400);
    for (let k = 0; k < 250; k++) {
      const glob = randomGlob(next);
      const [got, want] = await both(files, globSpec(glob));
      assert.deepEqual(got, want, `seed ${seed}, glob ${glob}`);
    }
  }
});

Deno.test("globFiles: folders that pass span many slices of a large listing, negated too", async () => {
  // Over 4096 paths, yielding between slices; a passing folder's paths are taken at once.
  const files: string[] = [];
  for (let i = 0; i < 12_000; i++) {
    const folder = i % 7 === 0 ? "drop" : i % 5 === 0 ? "keep.py" : "keep";
    files.push(`big/${folder}/s${i % 3}/f${i}.${i % 2 ? "ts" : "py"}`);
  }
  files.push("big.py", "big/keep", "bigger/keep/x.ts", "keep/f.py");
  files.sort();
  const globs = ["keep", "!keep", "big/keep", "!big/keep", "big/**", "*.py", "!*.py", "s1", "f1*"];
  for (const glob of [...globs, "big/keep*/s2", "**/s0", "keep*", "big"]) {
    const [got, want] = await both(files, globSpec(glob));
    assert.deepEqual(got, want, glob);
    assert.ok(want.length > 0 && want.length < files.length, `${glob}: some pass, not all`);
  }
});

Deno.test("globParts: each quick test answers as the glob's expression", () => {
  const next = random(21);
  const strings = listing(next, 300);
  for (const path of [...strings]) strings.push(...path.split("/"), path.slice(1), `${path}/`);
  const globs = [...REAL, ...Array.from({ length: 300 }, () => randomGlob(next))];
  for (const glob of globs) {
    const spec = globSpec(glob);
    const re = new RegExp(spec.source);
    const parts = globParts(spec.source);
    for (const str of strings) {
      const at = `${glob} ~ ${str}`;
      const from = str.lastIndexOf("/") + 1;
      assert.equal(parts.whole(str), re.test(str), `whole: ${at}`);
      assert.equal(parts.name(str, from), re.test(str.slice(from)), `name: ${at}`);
      assert.equal(parts.last(str), re.test(str.slice(from)), `last: ${at}`);
      if (re.test(str) && parts.starts.length) {
        assert.ok(parts.starts.some((s) => str.startsWith(s)), `starts ${parts.starts}: ${at}`);
      }
      if (!parts.slash && str.includes("/")) assert.equal(re.test(str), false, `slash: ${at}`);
      // A leading part, or a folder's name, that matches: `folders` must not rule it out.
      let start = 0;
      for (let slash = str.indexOf("/"); slash >= 0; slash = str.indexOf("/", slash + 1)) {
        if (re.test(str.slice(0, slash)) || re.test(str.slice(start, slash))) {
          assert.ok(parts.folders(str), `folders: ${at}`);
        }
        start = slash + 1;
      }
    }
  }
});
