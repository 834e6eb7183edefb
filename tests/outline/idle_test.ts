/**
 * outline's worker ends when it has been idle, a later outline starts another with the same
 * answer, and a worker started ahead of need waits for a quiet moment.
 */
import assert from "node:assert/strict";
import { callMcp, connect } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import {
  clearOutlineCache,
  outlineFile,
  outlineWorkerStarts,
  outlineWorkerUp,
  prestartOutline,
  setOutlineIdleMs,
  stopOutlineWorker,
} from "../../lib/outline/mod.ts";
import { callEnded, callStarted } from "../../lib/quiet.ts";
import { workerThreads } from "../helpers/proc.ts";

const PY = "class A:\n    def m(self, x):\n        return x\n\ndef f(a, b=2):\n    pass\n";

/** Waits until `ok()` holds (events, not a time: the bound only keeps a broken build finite). */
async function _until(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(ok(), what);
}

Deno.test("outline's worker ends when idle, and the next outline starts one with the same answer", async () => {
  const root = await tempProject({ "a.py": PY });
  stopOutlineWorker();
  clearOutlineCache();
  setOutlineIdleMs(50);
  try {
    const before = outlineWorkerStarts();
    const first = await outlineFile(`${root}/a.py`, "a.py");
    assert.ok(outlineWorkerUp(), "a worker outlined it");
    await _until(() => !outlineWorkerUp(), "the idle worker ended");
    clearOutlineCache();
    const again = await outlineFile(`${root}/a.py`, "a.py");
    assert.deepEqual(again.items, first.items);
    // (A start that times out on a loaded machine is tried again: more than two is fine.)
    assert.ok(outlineWorkerStarts() - before >= 2, "a second worker outlined it");
    assert.deepEqual(first.items.map((i) => i.name), ["A", "A.m", "f"]);
  } finally {
    setOutlineIdleMs();
    stopOutlineWorker();
  }
});

Deno.test("an outline racing the worker's end gets its answer", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) files[`m${i}.py`] = `${PY}\ndef g${i}():\n    pass\n`;
  const root = await tempProject(files);
  stopOutlineWorker();
  clearOutlineCache();
  setOutlineIdleMs(0); // the worker ends as soon as each answer is given
  try {
    const before = outlineWorkerStarts();
    for (let i = 0; i < 12; i++) {
      // Each outline comes a little later after the last answer: before, at and after the end.
      for (let spin = 0; spin < i % 4; spin++) await new Promise((r) => setTimeout(r, 0));
      const out = await outlineFile(`${root}/m${i}.py`, `m${i}.py`);
      assert.deepEqual(out.items.map((item) => item.name), ["A", "A.m", "f", `g${i}`]);
    }
    assert.ok(outlineWorkerStarts() - before > 1, "workers ended between the outlines");
  } finally {
    setOutlineIdleMs();
    stopOutlineWorker();
  }
});

Deno.test("a worker started ahead of need waits until no call runs, then serves the next outline", async () => {
  const root = await tempProject({ "a.py": PY });
  stopOutlineWorker();
  clearOutlineCache();
  const before = outlineWorkerStarts();
  callStarted(); // a call is running: starting a worker would hold the thread under it
  try {
    prestartOutline("python", `${root}/a.py`);
    await new Promise((r) => setTimeout(r, 800)); // well past the quiet moment it waits for
    assert.equal(outlineWorkerStarts(), before, "no worker started while the call ran");
  } finally {
    callEnded();
  }
  try {
    await _until(() => outlineWorkerUp(), "the worker started once the call had ended");
    const out = await outlineFile(`${root}/a.py`, "a.py");
    assert.deepEqual(out.items.map((i) => i.name), ["A", "A.m", "f"]);
    assert.equal(outlineWorkerStarts() - before, 1, "the outline used the worker started ahead");
  } finally {
    stopOutlineWorker();
  }
});

const _workers = workerThreads;

Deno.test("a server starts outline's worker after a read_file of a source file, not of a text file", async () => {
  const root = await tempProject({ "a.py": PY, "notes.txt": "hello\n" });
  const conn = await connect(root);
  try {
    const pid = conn.transport.pid!;
    await callMcp(conn.client, "list_files", {});
    await _until(() => _workers(pid) >= 1, "find's worker started at the first quiet moment");
    const before = _workers(pid);
    await callMcp(conn.client, "read_file", { filename: "notes.txt" });
    await new Promise((r) => setTimeout(r, 1500)); // past the quiet moment a start would wait for
    assert.equal(_workers(pid), before, "no worker for a file outline does not read");
    await callMcp(conn.client, "read_file", { filename: "a.py" });
    await _until(() => _workers(pid) > before, "outline's worker started after the read");
    const out = await callMcp(conn.client, "outline", { path: "a.py" });
    assert.deepEqual(out.items, [
      "1-3|class|A|class A",
      "2-3|method|A.m|def m(self, x)",
      "5-6|function|f|def f(a, b=2)",
    ]);
    assert.equal(_workers(pid), before + 1, "the outline used the worker started ahead");
  } finally {
    await conn.close();
  }
});

Deno.test("LOCALEXEC_OUTLINE_IDLE_MS sets how long a server's outline worker stays idle", async () => {
  const root = await tempProject({ "a.py": PY });
  const conn = await connect(root, { env: { LOCALEXEC_OUTLINE_IDLE_MS: "300" } });
  try {
    const pid = conn.transport.pid!;
    await callMcp(conn.client, "list_files", {});
    await _until(() => _workers(pid) >= 1, "find's worker started at the first quiet moment");
    const before = _workers(pid);
    const out = await callMcp(conn.client, "outline", { path: "a.py" });
    assert.equal((out.items as string[]).length, 3);
    assert.equal(_workers(pid), before + 1, "outline's worker is up after the outline");
    // 40 s by default: the bound of `_until` (10 s) fails a server that ignores the variable.
    await _until(() => _workers(pid) === before, "outline's worker ended once idle for 300 ms");
    const again = await callMcp(conn.client, "outline", { path: "a.py" });
    assert.deepEqual(again.items, out.items);
  } finally {
    await conn.close();
  }
});
