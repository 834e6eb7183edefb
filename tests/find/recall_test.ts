/**
 * A large listing remembers, per pattern, the files where its latest search found matches, and
 * the next search of the same pattern reads them first: far fewer files read, every line still
 * read from the file as it is now, the uncut answer unchanged, the memory bounded and dropped
 * with the listing.
 */
import assert from "node:assert/strict";
import { compileMatcher } from "../../lib/find/scan.ts";
import { SPREAD_MIN_FILES } from "../../lib/find/protocol.ts";
import { Recall, RECALL_FILES, RECALL_PATTERNS, recallKey } from "../../lib/find/recall.ts";
import { SearchPool } from "../../lib/find/search.ts";
import { type PoolListing, poolListing } from "../../lib/find/pool_listing.ts";
import { searchAll } from "./pool_helpers.ts";
import { globSpec } from "../../lib/glob/mod.ts";
import { findInProject, resetFind } from "../../lib/find/mod.ts";
import { git, tempProject } from "../helpers/project.ts";

interface RareTree {
  root: string;
  names: string[];
  /** The files that hold the word. */
  holding: string[];
  pool: SearchPool;
  /** The listing of `names`, made as a kept one is. */
  listing: PoolListing;
}

/**
 * Runs `body` over a listing past the spread threshold where a rare word sits in 12 files far
 * apart (most listed files are absent: read as nothing, but read), with a pool of one worker.
 */
async function _withRareTree(body: (tree: RareTree) => Promise<void>): Promise<void> {
  const count = SPREAD_MIN_FILES + 1000;
  const names: string[] = [];
  for (let i = 0; i < count; i++) names.push(`d${String(i).padStart(5, "0")}.txt`);
  const holding = names.filter((_, i) => i % 766 === 700);
  const files = Object.fromEntries(holding.map((n) => [n, `x\nrare ${n}\ny\nrare again\n`]));
  const root = await tempProject(files);
  const pool = new SearchPool({ maxWorkers: 1, idleMs: 1000 });
  try {
    await body({ root, names, holding, pool, listing: listingOf(1, root, names) });
  } finally {
    pool.close();
    await Deno.remove(root, { recursive: true });
  }
}

const listingOf = (id: number, root: string, names: string[]) =>
  poolListing(names, { id, root, startedAt: Date.now() - 60_000 });

Deno.test("a repeated search of a rare word reads the files where it matched first", async () => {
  await _withRareTree(async ({ root, holding, pool, listing }) => {
    const spec = compileMatcher("rare", false);
    const once = await searchAll(pool, root, listing, spec, 5);
    const again = await searchAll(pool, root, listing, spec, 5);
    for (const few of [once, again]) {
      assert.equal(few.lines.length, 5);
      assert.deepEqual(few.lines, [...few.lines].sort(), "sorted");
      assert.ok(few.found > 5 && few.found <= 2 * holding.length, `found ${few.found}`);
      for (const [k, line] of few.lines.entries()) {
        const [path, no, text] = line.split(":");
        assert.equal(path, few.paths[k]);
        assert.equal(text, no === "2" ? `rare ${path}` : "rare again", line);
      }
    }
    assert.ok(once.read > 500, `the first search read ${once.read} files`);
    assert.ok(again.read <= holding.length, `the second read ${again.read} files`);
    // Another pattern is remembered apart: its first search reads whole chunks, those where
    // the word matched first (searchOrder).
    const other = await searchAll(pool, root, listing, compileMatcher("again", false), 5);
    assert.ok(other.read > 64, `another pattern read ${other.read} files`);
    const otherAgain = await searchAll(pool, root, listing, compileMatcher("again", false), 5);
    assert.ok(otherAgain.read <= holding.length, `read ${otherAgain.read} the second time`);
  });
});

Deno.test("a pattern searched for the first time reads first the files of patterns whose text holds its own", async () => {
  await _withRareTree(async ({ root, holding, pool, listing }) => {
    const spread = await searchAll(pool, root, listing, compileMatcher("rare again", false), 5);
    assert.ok(spread.read > 64, `read ${spread.read} files`);
    // "again" is in every file that holds "rare again"; so is "RARE" with ignore_case.
    for (const [pattern, fold] of [["again", false], ["RARE", true]] as const) {
      const few = await searchAll(pool, root, listing, compileMatcher(pattern, fold), 5);
      assert.equal(few.lines.length, 5);
      assert.ok(few.read <= holding.length, `${pattern}: read ${few.read} files`);
      for (const path of few.paths) assert.ok(holding.includes(path), path);
    }
    // Not the other way round: "arE" (case matters) is not implied by a case-folded search.
    const other = await searchAll(pool, root, listing, compileMatcher("arE", false), 5);
    assert.equal(other.lines.length, 0);
  });
});

Deno.test("a remembered file edited since is searched as it is now", async () => {
  await _withRareTree(async ({ root, holding, pool, listing }) => {
    const spec = compileMatcher("rare", false);
    const once = await searchAll(pool, root, listing, spec, 5);
    const edited = once.paths[0];
    await Deno.writeTextFile(`${root}/${edited}`, "x\nnothing here now\n");
    const again = await searchAll(pool, root, listing, spec, 5);
    assert.ok(!again.paths.includes(edited), `${edited} no longer matches`);
    assert.equal(again.lines.length, 5);
    for (const path of again.paths) assert.ok(holding.includes(path), path);
    // And it is no longer among the files read first.
    const third = await searchAll(pool, root, listing, spec, 5);
    assert.ok(!third.paths.includes(edited));
    assert.ok(third.read <= holding.length, `read ${third.read}`);
  });
});

Deno.test("the uncut answer is the same with the files remembered; a new listing forgets them", async () => {
  await _withRareTree(async ({ root, names, holding, pool, listing }) => {
    const every = holding.flatMap((n) => [`${n}:2:rare ${n}`, `${n}:4:rare again`]);
    const spec = compileMatcher("rare", false);
    const all = await searchAll(pool, root, listing, spec, 1000);
    assert.deepEqual(all.lines, every);
    await searchAll(pool, root, listing, spec, 3); // remembers a few of the files
    for (const max of [1000, every.length]) {
      const again = await searchAll(pool, root, listing, spec, max);
      assert.deepEqual(again.lines, every);
      assert.deepEqual([again.found, again.complete, again.truncated], [every.length, true, false]);
      assert.deepEqual([again.files, again.read], [all.files, all.read], "each file once");
    }
    // One line short: every line but the last file's last one, its count honest.
    const short = await searchAll(pool, root, listing, spec, every.length - 1);
    assert.deepEqual(short.lines, every.slice(0, -1));
    assert.deepEqual([short.found, short.truncated], [every.length, true]);
    // The listing made again (same files): nothing remembered, the spread is read again.
    const anew = await searchAll(pool, root, listingOf(2, root, names), spec, 5);
    assert.ok(anew.read > 500, `a new listing read ${anew.read} files`);
    // The listing kept after a cold search of the same files (sharing their packed paths, as
    // engine.ts does) keeps what that search learnt.
    const cold = listingOf(3, root, names);
    await searchAll(pool, root, cold, spec, 5);
    const kept = poolListing(names, {
      id: 4,
      root,
      startedAt: Date.now() - 60_000,
      summarize: true,
      packed: cold,
    });
    const warm = await searchAll(pool, root, kept, spec, 5);
    assert.ok(warm.read <= holding.length, `the kept listing read ${warm.read} files`);
  });
});

Deno.test("the memory is bounded: the latest patterns, the files with the most lines", async () => {
  const recall = new Recall();
  const line = (at: number, bytes = 100) => ({ at, bytes });
  for (let p = 0; p < RECALL_PATTERNS + 20; p++) recall.remember(`p${p}`, [line(p), line(p + 1)]);
  assert.equal(recall.size, RECALL_PATTERNS);
  assert.equal(recall.files("p0"), undefined, "the oldest is forgotten");
  assert.deepEqual([...recall.files("p20")!], [20, 21]);
  // A search over many files: at most RECALL_FILES of them, those with the most lines per byte.
  const lines = [];
  for (let i = 0; i < 1000; i++) lines.push(line(i));
  lines.push(line(500), line(500), line(999), line(1000, 1 << 20), line(1000, 1 << 20));
  recall.remember("wide", lines);
  const wide = recall.files("wide")!;
  assert.equal(wide.length, RECALL_FILES);
  assert.deepEqual([...wide.subarray(0, 3)], [500, 999, 0]);
  assert.ok(!wide.includes(1000), "two lines in a large file come after one in a small one");
  recall.remember("wide", []); // a search that found nothing forgets the pattern
  assert.equal(recall.files("wide"), undefined);
  // Related patterns: text that holds this pattern's, case folded only for ignore_case.
  const related = new Recall();
  related.remember("k1", [line(1)], compileMatcher("fooBar\\(", false));
  related.remember("k2", [line(2)], compileMatcher("foobar", true));
  related.remember("k3", [line(3)], compileMatcher("\\d+", false));
  assert.deepEqual([...related.related(compileMatcher("fooBar", false))!], [1]);
  assert.deepEqual([...related.related(compileMatcher("FOOB", true))!], [2, 1]);
  assert.equal(related.related(compileMatcher("foob", false)), undefined);
  assert.equal(related.related(compileMatcher("\\w+", false)), undefined, "no text required");
  // Keys: flags, pattern and glob apart.
  const keys = new Set([
    recallKey(compileMatcher("a", false)),
    recallKey(compileMatcher("a", true)),
    recallKey(compileMatcher("a", false), globSpec("*.ts")),
    recallKey(compileMatcher("a", false), globSpec("!*.ts")),
  ]);
  assert.equal(keys.size, 4);

  // On a pool's listing: many patterns searched, at most RECALL_PATTERNS remembered.
  await _withRareTree(async ({ root, pool, listing }) => {
    for (let p = 0; p < RECALL_PATTERNS + 6; p++) {
      await searchAll(pool, root, listing, compileMatcher(`rare|d0${p}`, false), 1);
    }
    assert.equal(listing.recall!.size, RECALL_PATTERNS);
  });
});

Deno.test("the files git's route found are read first by the next search of the pattern", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < SPREAD_MIN_FILES + 500; i++) {
    files[`src/d${i % 50}/f${String(i).padStart(5, "0")}.txt`] = i % 700 === 350
      ? "x\nrare word\n"
      : "x\n";
  }
  const root = await tempProject(files);
  try {
    await git(root, "init", "-q");
    await git(root, "add", "-A");
    await git(root, "commit", "-qm", "init");
    await new Promise((resolve) => setTimeout(resolve, 60)); // no folder changed as it is listed
    resetFind();
    const ask = { pattern: "rare", maxResults: 5, ignoreCase: false };
    await findInProject(root, { ...ask, pattern: "zzz-none" }); // cold: lists and keeps
    const helped = await findInProject(root, { ...ask, grepAfterMs: 0 });
    assert.deepEqual([helped.warm, helped.count, helped.truncated], [true, 5, true]);
    // No git this time: the files of git's answer come first, then the others it named (the
    // answer's 5 files hold 5 lines: a sixth says there are more).
    const again = await findInProject(root, { ...ask, grepAfterMs: 60_000 });
    assert.deepEqual(again.matches, helped.matches);
    assert.deepEqual([again.truncated, again.found], [true, 6]);
    assert.ok(again.read <= 13, `read ${again.read} files`);
    // A cold search (no git): the listing kept after it keeps what it found.
    resetFind();
    const word = { ...ask, pattern: "word", grepAfterMs: 60_000 };
    const cold = await findInProject(root, word);
    const warm = await findInProject(root, word);
    assert.deepEqual([cold.warm, warm.warm], [false, true]);
    assert.ok(cold.read > 64, `the cold search read ${cold.read} files`);
    assert.ok(warm.read <= 13, `the warm one read ${warm.read} files`);
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});
