/**
 * find's worker pool: the workers read the listing from shared memory (paths of any script, across
 * chunks), end when idle so their memory is given back, and start again for the next search.
 */
import assert from "node:assert/strict";
import { compileMatcher } from "../../lib/find/scan.ts";
import { EXTRA_IDLE_MS, SearchPool } from "../../lib/find/search.ts";
import { poolListing } from "../../lib/find/pool_listing.ts";
import { searchAll } from "./pool_helpers.ts";
import { tempProject } from "../helpers/project.ts";
import { callEnded, callStarted } from "../../lib/quiet.ts";

/** 150 files (three chunks), some with names in other scripts; every seventh holds the needle. */
async function project(): Promise<{ root: string; files: string[]; expected: string[] }> {
  const names: Record<string, string> = {};
  const expected: string[] = [];
  for (let i = 0; i < 150; i++) {
    const name = i % 5 === 0 ? `d${i % 3}/ünï-${i}-日本.txt` : `d${i % 3}/plain-${i}.txt`;
    names[name] = i % 7 === 0 ? `first\nneedle ${i}\n` : "nothing here\n";
  }
  const root = await tempProject(names);
  const files = Object.keys(names).sort();
  for (const file of files) {
    if (names[file].includes("needle")) expected.push(`${file}:2:${names[file].split("\n")[1]}`);
  }
  return { root, files, expected };
}

async function until(test: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!test() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
  return test();
}

Deno.test("find's workers read the shared listing, end when idle and start again", async () => {
  const { root, files, expected } = await project();
  const pool = new SearchPool({ maxWorkers: 2, idleMs: 150 });
  try {
    const listing = poolListing(files, { id: 1, root, startedAt: Date.now() - 60_000 });
    const spec = compileMatcher("needle", false);
    const first = await searchAll(pool, root, listing, spec, 1000);
    assert.deepEqual(first.lines, expected);
    assert.deepEqual(first.paths, expected.map((line) => line.split(":")[0]));
    assert.equal(first.files, files.length);
    assert.ok(pool.size > 0, "workers run after a search");

    assert.ok(await until(() => pool.size === 0, 5000), "idle workers end");
    const again = await searchAll(pool, root, listing, spec, 1000);
    assert.deepEqual(again.lines, expected, "new workers find the same lines");

    // A regular expression (other code path in the worker) over the same listing.
    const re = await searchAll(pool, root, listing, compileMatcher("need(le)? 1\\d", false), 1000);
    assert.deepEqual(re.lines, expected.filter((line) => /needle 1\d/.test(line)));
  } finally {
    pool.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("find's workers stay while searches keep coming", async () => {
  const { root, files, expected } = await project();
  const pool = new SearchPool({ maxWorkers: 1, idleMs: 400 });
  try {
    const listing = poolListing(files, { id: 1, root, startedAt: Date.now() - 60_000 });
    const spec = compileMatcher("needle", false);
    for (let i = 0; i < 4; i++) {
      assert.deepEqual((await searchAll(pool, root, listing, spec, 1000)).lines, expected);
      assert.equal(pool.size, 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    pool.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("find's extra workers end soon after their search; the first one stays", async () => {
  const names: Record<string, string> = {};
  for (let i = 0; i < 1200; i++) names[`f${String(i).padStart(4, "0")}.txt`] = `needle ${i}\n`;
  const root = await tempProject(names);
  const pool = new SearchPool({ maxWorkers: 2, idleMs: 60_000 });
  try {
    const listing = poolListing(Object.keys(names).sort(), {
      id: 1,
      root,
      startedAt: Date.now() - 60_000,
    });
    const spec = compileMatcher("needle", false);
    assert.equal((await searchAll(pool, root, listing, spec, 2000)).lines.length, 1200);
    assert.equal(pool.size, 2, "a search of 1,200 files uses both workers");
    assert.ok(await until(() => pool.size === 1, EXTRA_IDLE_MS + 3000), "the extra one ends");
    const one = await searchAll(pool, root, listing, spec, 2000, { workers: 1 });
    assert.equal(one.lines.length, 1200);
    assert.equal(pool.size, 1, "a search capped at one worker starts no other");
  } finally {
    pool.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a pool that keeps its first worker ends only the others when idle", async () => {
  const names: Record<string, string> = {};
  for (let i = 0; i < 1200; i++) names[`f${String(i).padStart(4, "0")}.txt`] = `needle ${i}\n`;
  const root = await tempProject(names);
  const pool = new SearchPool({ maxWorkers: 2, idleMs: 150, keepFirst: true });
  try {
    await pool.warm(1);
    assert.ok(pool.ready(1), "started ahead of a search");
    const listing = poolListing(Object.keys(names).sort(), {
      id: 1,
      root,
      startedAt: Date.now() - 60_000,
    });
    const spec = compileMatcher("needle", false);
    assert.equal((await searchAll(pool, root, listing, spec, 2000)).lines.length, 1200);
    assert.equal(pool.size, 2, "a search of 1,200 files uses both workers");
    assert.ok(await until(() => pool.size === 1, 10_000), "the extra one ends");
    await new Promise((resolve) => setTimeout(resolve, 600)); // four times the idle time
    assert.equal(pool.size, 1, "the first one stays");
    assert.equal((await searchAll(pool, root, listing, spec, 2000)).lines.length, 1200);
  } finally {
    pool.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a search beside another call starts no extra worker (new Worker holds the thread)", async () => {
  const names: Record<string, string> = {};
  for (let i = 0; i < 1200; i++) names[`f${String(i).padStart(4, "0")}.txt`] = `needle ${i}\n`;
  const root = await tempProject(names);
  const pool = new SearchPool({ maxWorkers: 2, idleMs: 60_000 });
  const listing = poolListing(Object.keys(names).sort(), {
    id: 1,
    root,
    startedAt: Date.now() - 60_000,
  });
  const spec = compileMatcher("needle", false);
  callStarted(); // the find
  callStarted(); // a call beside it
  try {
    assert.equal((await searchAll(pool, root, listing, spec, 2000)).lines.length, 1200);
    assert.equal(pool.size, 1, "only the worker a search cannot do without");
    callEnded(); // the other call is answered
    assert.equal((await searchAll(pool, root, listing, spec, 2000)).lines.length, 1200);
    assert.equal(pool.size, 2, "then both");
  } finally {
    callEnded();
    pool.close();
    await Deno.remove(root, { recursive: true });
  }
});
