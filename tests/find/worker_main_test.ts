import assert from "node:assert/strict";
// Type-only: the worker's entry runs when imported (it is the worker), but `deno check` of the
// tests then checks it and everything it imports like any module.
import type { WorkerScope } from "../../lib/find/worker_main.ts";
import source from "../../lib/find/worker.gen.js" with { type: "text" };

Deno.test("the worker's source is its entry module bundled, loading node:vm only inside the worker", () => {
  const port: WorkerScope = { onmessage: null, postMessage: () => {} };
  assert.equal(port.onmessage, null);
  // Every module the entry imports is in the bundle: nothing is listed by hand.
  for (
    const f of ["worker_main.ts", "worker.ts", "scan.ts", "read.ts", "sketch.ts", "weights.ts"]
  ) {
    assert.ok(source.includes(`// lib/find/${f}\n`), f);
  }
  assert.match(source, /^import vm from "node:vm";$/m);
});
