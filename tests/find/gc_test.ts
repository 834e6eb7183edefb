/**
 * find gives back the heap a cold listing leaves behind: one full collection after the answer, at
 * a quiet moment (never while calls keep coming); its workers collect their searches' garbage the
 * same way.
 */
import assert from "node:assert/strict";
import { evalExits } from "../helpers/proc.ts";
import { collections, collectPending, collectSoon } from "../../lib/find/gc.ts";
import { callEnded, callStarted } from "../../lib/quiet.ts";
import { garbageKeeper } from "../../lib/find/worker.ts";
import {
  COLLECT_AFTER_BYTES,
  COLLECT_NOW_BYTES,
  YOUNG_AFTER_BYTES,
} from "../../lib/find/protocol.ts";

Deno.test("collectSoon frees garbage that V8 would otherwise keep until its heap grows", async () => {
  // Old-generation garbage, like a listing's paths: kept across collections, then dropped.
  let paths: string[] | undefined = [];
  for (let i = 0; i < 400_000; i++) paths.push(`src/module-${i}/file-${i}.ts`.padEnd(60, "x"));
  await new Promise((resolve) => setTimeout(resolve, 10)); // survives into the old generation
  paths = undefined;
  const before = Deno.memoryUsage().heapUsed;
  collectSoon(0);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const after = Deno.memoryUsage().heapUsed;
  assert.ok(
    before - after > 20e6,
    `heap in use ${(before / 1e6).toFixed(0)} MB → ${(after / 1e6).toFixed(0)} MB`,
  );
});

Deno.test("a pending collection does not keep the process up (a one-shot `call` exits at once)", async () => {
  const gc = new URL("../../lib/find/gc.ts", import.meta.url).href;
  const code = `import { collectSoon } from ${JSON.stringify(gc)}; collectSoon(600_000);`;
  await evalExits(code); // killed after 60 s if the ten-minute timer held it
});

Deno.test("a collection waits while a call runs; the next find runs it when it is alone", async () => {
  callStarted(); // the find that listed, still answering
  try {
    collectSoon(0, true);
    await new Promise((resolve) => setTimeout(resolve, 200)); // gc is loaded meanwhile
    const count = collections();
    callStarted(); // another call beside it: the next find does not collect either
    collectPending();
    assert.equal(collections(), count, "no collection while two calls run");
    callEnded();
    collectPending(); // the next find, alone
    assert.equal(collections(), count + 1);
    collectPending(); // nothing pending any more: a no-op
    assert.equal(collections(), count + 1);
  } finally {
    callEnded();
  }
});

Deno.test("a collection runs once the server is quiet, not while calls keep coming", async () => {
  const count = collections();
  // Calls one after another (a burst): the collection waits for 100 ms without one.
  collectSoon(100, true);
  for (let i = 0; i < 8; i++) {
    callStarted();
    await new Promise((resolve) => setTimeout(resolve, 30));
    callEnded();
    assert.equal(collections(), count, `collected during the burst (after call ${i + 1})`);
  }
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.equal(collections(), count + 1, "collected once the calls stopped");
});

Deno.test("a worker collects a search's garbage at a quiet moment, not before the next search", async () => {
  const runs: string[] = [];
  let trims = 0;
  const keeper = garbageKeeper(
    () => (options?: { type: "minor" }) => void runs.push(options?.type ?? "full"),
    () => trims++,
    30,
  );
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const collected = async (count: number) => {
    for (const end = Date.now() + 5000; runs.length < count && Date.now() < end;) await wait(10);
  };
  keeper.searched(0); // a search that made nothing: nothing to collect
  keeper.made(YOUNG_AFTER_BYTES); // the paths of many files read
  keeper.searched(0);
  assert.deepEqual(runs, [], "collected right after the search");
  keeper.busy(); // the next search comes before the quiet moment
  await wait(100);
  assert.deepEqual(runs, [], "collected while a search ran");
  keeper.searched(COLLECT_AFTER_BYTES); // much text decoded: a full collection is due
  assert.deepEqual(runs, []);
  await collected(1);
  assert.deepEqual(runs, ["full"], "one full collection once quiet");
  assert.equal(trims, 1);
  keeper.made(YOUNG_AFTER_BYTES);
  keeper.searched(0);
  await collected(2);
  assert.deepEqual(runs, ["full", "minor"], "a young-generation one for paths alone");
  // A burst that leaves much garbage collects at once.
  keeper.searched(COLLECT_NOW_BYTES);
  assert.deepEqual(runs, ["full", "minor", "full"]);
  await wait(100);
  assert.equal(runs.length, 3, "nothing more was due");
});

Deno.test("a worker without V8's gc collects nothing and does not fail", async () => {
  const keeper = garbageKeeper(
    () => undefined,
    () => assert.fail("trimmed without a collection"),
    10,
  );
  keeper.searched(COLLECT_NOW_BYTES);
  keeper.searched(COLLECT_AFTER_BYTES);
  await new Promise((resolve) => setTimeout(resolve, 40));
});
