/**
 * Work for a quiet moment runs only once no call has run for the time asked, never while one runs;
 * a process that serves no calls is always quiet.
 */
import assert from "node:assert/strict";
import { evalExits } from "./helpers/proc.ts";
import {
  callEnded,
  callsRunning,
  callStarted,
  idleMsFromEnv,
  quietMs,
  whenQuiet,
} from "../lib/quiet.ts";

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("whenQuiet waits while calls keep coming and runs once they stop", async () => {
  const order: string[] = [];
  callStarted();
  whenQuiet(60, () => order.push("work"));
  await tick(120);
  order.push("first call ends");
  callEnded();
  for (let i = 0; i < 4; i++) {
    await tick(20); // less than 60 ms apart: still a burst
    callStarted();
    await tick(10);
    callEnded();
    order.push(`call ${i}`);
  }
  await tick(300);
  assert.deepEqual(order, ["first call ends", "call 0", "call 1", "call 2", "call 3", "work"]);
  assert.equal(callsRunning(), 0);
  assert.ok(quietMs() > 0);
});

Deno.test("whenQuiet can be cancelled, and never keeps the process up", async () => {
  let ran = false;
  callStarted();
  const cancel = whenQuiet(10, () => (ran = true));
  callEnded();
  cancel();
  await tick(100);
  assert.equal(ran, false);
  const quiet = new URL("../lib/quiet.ts", import.meta.url).href;
  const code = `import { callStarted, whenQuiet } from ${JSON.stringify(quiet)};
    callStarted(); whenQuiet(10, () => {});`; // a call that never ends: it would wait for ever
  await evalExits(code);
});

Deno.test("an idle time from the environment is taken only when it is a number of at least 0", () => {
  const name = "LOCALEXEC_TEST_IDLE_MS";
  const cases: [string | undefined, number][] = [
    [undefined, 40_000],
    ["300", 300],
    ["0", 0],
    ["", 40_000],
    ["-5", 40_000],
    ["soon", 40_000],
    ["Infinity", 40_000],
  ];
  try {
    for (const [set, want] of cases) {
      if (set === undefined) Deno.env.delete(name);
      else Deno.env.set(name, set);
      assert.equal(idleMsFromEnv(name, 40_000), want, `${name}=${set}`);
    }
  } finally {
    Deno.env.delete(name);
  }
});
