/**
 * find gives back the heap a cold listing leaves behind: one full collection after the answer.
 */
import assert from "node:assert/strict";
import { collectPending, collectSoon } from "../../lib/find/gc.ts";

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
  // Killed after 60 s if the ten-minute timer held it: a natural exit is code 0, a kill is not.
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "null",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.equal(out.signal, null);
});

Deno.test("a cold listing's collection still waiting for its timer runs when the next call comes", async () => {
  let paths: string[] | undefined = [];
  for (let i = 0; i < 400_000; i++) paths.push(`src/module-${i}/file-${i}.ts`.padEnd(60, "x"));
  await new Promise((resolve) => setTimeout(resolve, 10)); // survives into the old generation
  paths = undefined;
  collectSoon(600_000, true); // a timer that would fire long after a burst of calls
  await new Promise((resolve) => setTimeout(resolve, 50)); // gc is loaded meanwhile
  const before = Deno.memoryUsage().heapUsed;
  collectPending();
  const after = Deno.memoryUsage().heapUsed;
  assert.ok(
    before - after > 20e6,
    `heap in use ${(before / 1e6).toFixed(0)} MB → ${(after / 1e6).toFixed(0)} MB`,
  );
  collectPending(); // nothing pending any more: a no-op
});
