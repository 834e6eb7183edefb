/**
 * A cold listing's long work on the main thread (walk, sort, folder checks, packing) runs in slices
 * and, while another call runs, lets that call finish first: a call whose steps each wait for a
 * turn of the event loop (as `list_files`' file operations do) waited one slice per step.
 */
import assert from "node:assert/strict";
import { yielding } from "../../lib/find/walk.ts";
import { callEnded, callStarted } from "../../lib/quiet.ts";

/** About `ms` of work on this thread. */
function busy(ms: number): void {
  for (const end = performance.now() + ms; performance.now() < end;) {
    // spin
  }
}

Deno.test("a listing's sliced work lets a call beside it finish first", async () => {
  const order: string[] = [];
  function* listing(): Generator<void, void> {
    for (let i = 0; i < 60; i++) {
      busy(4);
      yield;
    }
  }
  callStarted(); // the find
  try {
    const work = yielding(listing()).then(() => order.push("listing"));
    await Promise.resolve();
    callStarted(); // a call beside it: 30 steps, each waiting for a turn of the event loop
    const call = (async () => {
      try {
        for (let i = 0; i < 30; i++) await new Promise((resolve) => setTimeout(resolve, 0));
      } finally {
        callEnded();
      }
      order.push("call");
    })();
    await Promise.all([work, call]);
    assert.deepEqual(order, ["call", "listing"]);
  } finally {
    callEnded();
  }
});
