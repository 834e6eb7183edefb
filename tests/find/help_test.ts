/**
 * find's main thread helps its worker with plain text (`lib/find/help.ts`), and the answer is the
 * one the worker alone gives; a glob that passes few files of a large listing searches those
 * files alone (`globFiles` in `lib/find/warm.ts`), exactly the files `globMatches` passes.
 */
import assert from "node:assert/strict";
import { compileMatcher } from "../../lib/find/scan.ts";
import { SPREAD_MIN_FILES } from "../../lib/find/protocol.ts";
import { SearchPool } from "../../lib/find/search.ts";
import { poolListing } from "../../lib/find/pool_listing.ts";
import { helpedChunks, linearRegex } from "../../lib/find/help.ts";
import { planTuning } from "../../lib/find/plan.ts";
import { searchAll, tune } from "./pool_helpers.ts";
import { globFiles, searchKept } from "../../lib/find/warm.ts";
import { globMatches, globSpec } from "../../lib/glob/mod.ts";
import { tempProject } from "../helpers/project.ts";

/**
 * A listing of `count` paths in 8 folders, over the spread threshold; one in 7 is a file holding
 * `Needle` (and `NEEDLE` or `Café`), a binary one too; the others are absent (read as nothing).
 */
async function _project(count: number): Promise<{ root: string; names: string[] }> {
  const files: Record<string, string> = {};
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `d${i % 8}/f${String(i).padStart(5, "0")}.${i % 3 ? "ts" : "py"}`;
    names.push(name);
    if (i % 7 === 0) files[name] = `x\nNeedle ${i}\ny\n${i % 2 ? "NEEDLE" : "Café"} again\n`;
  }
  files["d1/bin.ts"] = "Needle Café\0binary\n";
  names.push("d1/bin.ts");
  const root = await tempProject(files);
  return { root, names: names.sort() };
}

Deno.test("the main thread searches plain text beside the worker; the answer is the worker's own", async () => {
  const { root, names } = await _project(SPREAD_MIN_FILES + 1000);
  const pool = new SearchPool({ maxWorkers: 1, idleMs: 1000 });
  const restore = tune("helpAfterMs", 0); // at once: these searches end within milliseconds
  try {
    // A listing of its own for each search: nothing remembered from the one before (recall.ts;
    // a search that reads remembered files first is not helped).
    let id = 0;
    const fresh = () => poolListing(names, { id: ++id, root, startedAt: Date.now() - 60_000 });
    for (const [pattern, fold] of [["Needle", false], ["needle", true], ["café", true]] as const) {
      const spec = compileMatcher(pattern, fold);
      planTuning.help = false;
      const before = helpedChunks();
      const alone = await searchAll(pool, root, fresh(), spec, 5000);
      assert.equal(helpedChunks(), before, "help off: none");
      planTuning.help = true;
      const helped = await searchAll(pool, root, fresh(), spec, 5000);
      assert.ok(helpedChunks() > before, `${pattern}: the main thread searched some chunks`);
      assert.deepEqual(helped, alone, pattern);
      assert.ok(alone.found > 0 && alone.complete && alone.skipped.binary === 1, pattern);
    }
    // A regular expression that cannot backtrack much is searched by both; any other stays with
    // the worker (it can stop one that backtracks).
    const before = helpedChunks();
    const linear = compileMatcher("[A-Z]{6}", false);
    planTuning.help = false;
    const alone = await searchAll(pool, root, fresh(), linear, 5000);
    planTuning.help = true;
    assert.deepEqual(await searchAll(pool, root, fresh(), linear, 5000), alone);
    assert.ok(helpedChunks() > before && alone.found > 0);
    const after = helpedChunks();
    await searchAll(pool, root, fresh(), compileMatcher("Need+le \\d+", false), 5000);
    assert.equal(helpedChunks(), after);
  } finally {
    restore();
    pool.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the main thread helps a narrow glob's search in path order; the answer is the worker's own", async () => {
  const { root, names } = await _project(SPREAD_MIN_FILES + 1000);
  const pool = new SearchPool({ maxWorkers: 1, idleMs: 1000 });
  const restore = tune("helpAfterMs", 0);
  try {
    let id = 0;
    const glob = globSpec("*.py"); // a third of the files: searched alone, in path order
    for (const [pattern, fold, max] of [["Needle", false, 5], ["needle", true, 5000]] as const) {
      const spec = compileMatcher(pattern, fold);
      const search = () =>
        searchKept(
          pool,
          root,
          { listing: poolListing(names, { id: ++id, root, startedAt: Date.now() - 60_000 }) },
          spec,
          {
            maxResults: max,
            glob,
          },
        );
      planTuning.help = false;
      const alone = await search();
      planTuning.help = true;
      const before = helpedChunks();
      const helped = await search();
      // (A cut search may end before this thread's first slice.)
      if (max > 5) {
        assert.ok(helpedChunks() > before, `${pattern}: the main thread searched some chunks`);
      }
      assert.deepEqual(helped.lines, alone.lines, pattern);
      // A cut answer's count is a lower bound (a second reader may finish more chunks past it).
      if (alone.complete) assert.deepEqual([helped.found, helped.complete], [alone.found, true]);
      else assert.ok(!helped.complete && helped.truncated && helped.found > max, pattern);
      const py = names.filter((n) => n.endsWith(".py"));
      assert.ok(alone.lines.every((l) => py.includes(l.split(":")[0])));
      if (max === 5) {
        assert.deepEqual(alone.lines, [...alone.lines].sort(), "the first in path order");
      }
    }
  } finally {
    restore();
    pool.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("linearRegex passes only regular expressions that cannot backtrack much", () => {
  const linear = [
    "[A-Z]{12}",
    "\\bfoo\\d+",
    "\\d{4}-\\d{2}-\\d{2}",
    "console\\.log\\(\\w+",
    "^a.c$",
    "[a-z]+?",
  ];
  const not = [
    "\\w+Error",
    "(a+)+",
    "a|b",
    "a*b",
    "(x)\\1",
    "a?b",
    "[a]{1,3}x",
    "a{1000}",
    "x\\d+\\b",
  ];
  for (const p of linear) assert.equal(linearRegex(p), true, p);
  for (const p of not) assert.equal(linearRegex(p), false, p);
});

Deno.test("globFiles passes exactly the files globMatches passes", async () => {
  const files = [
    "README.md",
    "a.py",
    "src/a.ts",
    "src/deep/b.ts",
    "src/deep/c.py",
    "test/src/x.ts",
    "lib/test/y.md",
    "node/test.py/z.txt",
    "docs/guide/intro.md",
  ].sort();
  const listing = poolListing(files, { id: 1, root: "/nowhere", startedAt: 0 });
  const globs = ["*.py", "src/**/*.ts", "test", "src", "!*.md", "**/deep/*", "*.{ts,md}", "te?t"];
  globs.push("**", "[!a]*.ts", "*.py/*", "deep");
  for (const glob of globs) {
    const spec = globSpec(glob);
    const re = new RegExp(spec.source);
    const want = files.filter((f) => globMatches(re, spec, f));
    const got = [...await globFiles(listing, spec)].map((i) => files[i]);
    assert.deepEqual(got, want, glob);
    assert.equal(await globFiles(listing, spec), await globFiles(listing, spec), "kept");
  }
});

/**
 * The names of a listing over the spread threshold (`d00000.txt`…, one in `pyEvery` a `.py`), and
 * a project holding `word <i>` in the files `holds` picks (the others are never read).
 */
async function _spread(pyEvery: number, holds: (i: number) => boolean) {
  const names: string[] = [];
  const holding: Record<string, string> = {};
  for (let i = 0; i < SPREAD_MIN_FILES + 1000; i++) {
    const name = `d${String(i).padStart(5, "0")}.${i % pyEvery === 0 ? "py" : "txt"}`;
    names.push(name);
    if (holds(i)) holding[name] = `word ${i}\n`;
  }
  return { names, root: await tempProject(holding) };
}

Deno.test("a glob that passes few files of a large listing searches them alone, in path order", async () => {
  // Over the spread threshold; one file in 100 is a .py file holding the word, one per chunk.
  const { names, root } = await _spread(100, (i) => i % 100 === 0 || i % 100 === 50);
  const pool = new SearchPool({ maxWorkers: 1, idleMs: 1000 });
  try {
    const listing = poolListing(names, { id: 1, root, startedAt: Date.now() - 60_000 });
    const spec = compileMatcher("word", false);
    const glob = globSpec("*.py");
    const py = names.filter((n) => n.endsWith(".py"));
    const out = await searchKept(pool, root, { listing }, spec, { maxResults: 5, glob });
    assert.deepEqual(out.lines, py.slice(0, 5).map((n) => `${n}:1:word ${Number(n.slice(1, 6))}`));
    assert.deepEqual([out.truncated, out.complete], [true, false]);
    const all = await searchKept(pool, root, { listing }, spec, { maxResults: 1000, glob });
    assert.deepEqual([all.found, all.complete, all.files], [py.length, true, py.length]);
    // An answer that is not cut checks every folder: a file added since makes the listing stale.
    // (A folder sorting after every file: only the check of the whole tree looks at it.)
    await Deno.mkdir(`${root}/zz`);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const watched = poolListing(names, {
      id: 2,
      root,
      startedAt: Date.now(),
      checks: [`${root}/zz`],
    });
    const before = await searchKept(pool, root, { listing: watched }, spec, {
      maxResults: 1000,
      glob,
    });
    assert.equal(before.stale, false);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await Deno.writeTextFile(`${root}/zz/new.py`, "word\n");
    const after = await searchKept(pool, root, { listing: watched }, spec, {
      maxResults: 1000,
      glob,
    });
    assert.equal(after.stale, true);
  } finally {
    pool.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a glob search again reads first the files where it matched last time", async () => {
  const { names, root } = await _spread(10, (i) => i % 10 === 0 && i >= 8000);
  const pool = new SearchPool({ maxWorkers: 1, idleMs: 1000 });
  try {
    const listing = poolListing(names, { id: 1, root, startedAt: Date.now() - 60_000 });
    const spec = compileMatcher("word", false);
    const glob = globSpec("*.py");
    const first = await searchKept(pool, root, { listing }, spec, { maxResults: 5, glob });
    assert.ok(first.read > 800, `read ${first.read}`);
    const again = await searchKept(pool, root, { listing }, spec, { maxResults: 5, glob });
    assert.deepEqual(again.lines, first.lines);
    assert.ok(again.read <= 6 && again.truncated, `read ${again.read}`);
  } finally {
    pool.close();
    await Deno.remove(root, { recursive: true });
  }
});
