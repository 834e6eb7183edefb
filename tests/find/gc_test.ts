/**
 * find gives back the heap a cold listing leaves behind: one full collection after the answer.
 */
import assert from "node:assert/strict";
import { collectSoon } from "../../lib/find/gc.ts";

Deno.test("collectSoon frees garbage that V8 would otherwise keep until its heap grows", async () => {
  // Old-generation garbage, like a listing's paths: kept across collections, then dropped.
  let paths: string[] | undefined = [];
  for (let i = 0; i < 400_000; i++) paths.push(`src/module-${i}/file-${i}.ts`.padEnd(60, "x"));
  await new Promise((resolve) => setTimeout(resolve, 10)); // survives into the old generation
  paths = undefined;
  const before = Deno.memoryUsage().heapUsed;
  collectSoon();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const after = Deno.memoryUsage().heapUsed;
  assert.ok(
    before - after > 20e6,
    `heap in use ${(before / 1e6).toFixed(0)} MB → ${(after / 1e6).toFixed(0)} MB`,
  );
});
