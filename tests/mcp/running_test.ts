/**
 * The registry of background tasks on its own: several tasks at once, `mode` "any" and "all",
 * what counts as reported, and a cancelled call whose task still reaches wait_tasks.
 */
import assert from "node:assert/strict";
import { RunningTasks, type TaskResult } from "../../lib/mcp/mod.ts";

/** A task's work that ends when `end` is called, or with "cancelled" when its signal aborts. */
function gated(): { work: (h: { signal: AbortSignal }) => Promise<TaskResult>; end(): void } {
  let end!: () => void;
  const gate = new Promise<void>((r) => end = r);
  return {
    end: () => end(),
    work: async ({ signal }) => {
      await Promise.race([gate, new Promise((r) => signal.addEventListener("abort", r))]);
      return signal.aborted ? { status: "error", error: "cancelled" } : { status: "passed" };
    },
  };
}

const never = new AbortController().signal;
const opts = (mode: "all" | "any", ms = 5_000) => ({ ms, mode, signal: never, progress() {} });

Deno.test("running: several tasks at once; any returns at the first end, all at the last", async () => {
  const tasks = new RunningTasks();
  const a = gated();
  const b = gated();
  tasks.start("A", a.work);
  tasks.start("B", b.work);
  assert.deepEqual(tasks.running().map((r) => r.task_id), ["A", "B"]);
  assert.throws(() => tasks.start("A", a.work), /already running/);
  setTimeout(() => b.end(), 50);
  const first = await tasks.wait(undefined, opts("any"));
  assert.deepEqual(first.finished, [{ task_id: "B", status: "passed" }]);
  assert.deepEqual(first.running.map((r) => r.task_id), ["A"]);
  setTimeout(() => a.end(), 50);
  const rest = await tasks.wait(undefined, opts("all"));
  assert.deepEqual(rest.finished, [{ task_id: "A", status: "passed" }], "B was reported");
  assert.deepEqual(rest.running, []);
  const none = await tasks.wait(undefined, opts("all"));
  assert.deepEqual([none.finished, none.running], [[], []]);
  const again = await tasks.wait(["B", "C"], opts("all"));
  assert.deepEqual(again.finished, [{ task_id: "B", status: "passed" }]);
  assert.deepEqual(again.unknown, ["C"]);
});

Deno.test("running: a call that gives up leaves its task; a cancelled one cancels it", async () => {
  const tasks = new RunningTasks();
  const a = gated();
  tasks.start("A", a.work);
  assert.equal(await tasks.follow("A", 20, never, () => {}), undefined);
  assert.ok(tasks.isRunning("A"), "a call that answered running leaves its task running");
  a.end();
  assert.deepEqual(await tasks.follow("A", 5_000, never, () => {}), { status: "passed" });
  const b = gated();
  tasks.start("B", b.work);
  const call = new AbortController();
  setTimeout(() => call.abort(), 20);
  assert.deepEqual(await tasks.follow("B", Infinity, call.signal, () => {}), {
    status: "error",
    error: "cancelled",
  });
  // The cancelled call's answer reached no one: wait_tasks reports it, and A (reported) not.
  const waited = await tasks.wait(undefined, opts("all"));
  assert.deepEqual(waited.finished, [{ task_id: "B", status: "error", error: "cancelled" }]);
});
