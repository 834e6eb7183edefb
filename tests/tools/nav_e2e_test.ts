/**
 * outline and find judged from the outside: the real server over stdio with the SDK `Client`
 * (which checks every result against the tool's output schema), and `main.ts call` as a user
 * runs it.
 */
import assert from "node:assert/strict";
import { callMcp, connectInProcess, MAIN } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";

const EVIL = `${"a".repeat(5000)}b\n`;

Deno.test("find run once by `call` exits after a catastrophic pattern", async () => {
  // Worker.terminate() does not stop a regular expression stuck backtracking: before the fix the
  // answer was printed but the thread spun on and the process never exited.
  const root = await tempProject({ "evil.txt": EVIL, "ok.txt": "fine\n" });
  for (const args of [{ pattern: "(a+)+$" }, { pattern: "(a+)+$", ignore_case: true }]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "-A", MAIN, "call", "find", JSON.stringify(args)],
      cwd: root,
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(60_000),
    }).output();
    assert.equal(out.signal, null, `${JSON.stringify(args)}: still running after 60 s`);
    assert.equal(out.code, 2);
    const result = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(result.status, "error");
    assert.match(result.error, /evil\.txt.*backtracks catastrophically/);
  }
});

Deno.test("find over MCP: counts, clamps and keeps answering after catastrophic patterns", async () => {
  const root = await tempProject({
    "a.txt": "needle 1\nneedle 2\nneedle 3\n",
    "bin.dat": new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1]),
    "latin.txt": new Uint8Array([110, 101, 101, 100, 108, 101, 0xe9, 10]),
    "evil.txt": EVIL,
  });
  const conn = await connectInProcess(root);
  try {
    const out = await callMcp(conn.client, "find", { pattern: "needle" });
    assert.equal(out.status, "ok", JSON.stringify(out));
    // docs/reference/localexec-tool-reference.txt: "skipped counts them".
    assert.equal(out.skipped, 2);
    assert.deepEqual(out.skipped_kinds, { binary: 1, too_large: 0, not_utf8: 1 });
    // Counts out of range or with a fraction are clamped, not refused.
    for (const [max, shown] of [[0, 1], [-3, 1], [2.5, 2], [5000, 3]]) {
      const r = await callMcp(conn.client, "find", { pattern: "needle", max_results: max });
      assert.equal(r.status, "ok", `max_results ${max}: ${JSON.stringify(r)}`);
      assert.equal((r.matches as string[]).length, shown, `max_results ${max}`);
    }
    for (let i = 0; i < 3; i++) {
      const evil = await callMcp(conn.client, "find", { pattern: "(a+)+$", ignore_case: i === 1 });
      assert.equal(evil.status, "error");
    }
    const again = await callMcp(conn.client, "find", { pattern: "needle 2" });
    assert.deepEqual(again.matches, ["a.txt:2:needle 2"]);
  } finally {
    await conn.close();
  }
});

Deno.test("outline over MCP clamps max_items instead of refusing it", async () => {
  const source = Array.from({ length: 8 }, (_, i) => `def f${i}():\n    pass\n`).join("\n");
  const root = await tempProject({ "m.py": source });
  const conn = await connectInProcess(root);
  try {
    for (const [max, shown] of [[0, 1], [-1, 1], [2.5, 2], [100_000, 8]]) {
      const out = await callMcp(conn.client, "outline", { path: "m.py", max_items: max });
      assert.equal(out.status, "ok", `max_items ${max}: ${JSON.stringify(out)}`);
      assert.equal((out.items as string[]).length, shown, `max_items ${max}`);
      assert.equal(out.total, 8);
    }
  } finally {
    await conn.close();
  }
});

Deno.test("outline keeps the spaces of a comparison-like `<` in signatures", async () => {
  const root = await tempProject({
    "a.rb": "class C < Base\n  def m(a)\n  end\nend\n",
    "b.ts": "export function f(\n  a: Map<\n    string,\n    number\n  >,\n): void {}\n",
  });
  const conn = await connectInProcess(root);
  try {
    const rb = await callMcp(conn.client, "outline", { path: "a.rb" });
    assert.deepEqual(rb.items, ["1-4|class|C|class C < Base", "2-3|method|C.m|def m(a)"]);
    const ts = await callMcp(conn.client, "outline", { path: "b.ts" });
    assert.deepEqual(ts.items, ["1-6|function|f|export function f(a: Map<string, number>): void"]);
  } finally {
    await conn.close();
  }
});

Deno.test("call outline and call find exit once they have answered (their workers do not hold it)", async () => {
  const root = await tempProject({ "a.py": "def f():\n    pass\n", "b.txt": "needle\n" });
  for (const [tool, args] of [["outline", { path: "a.py" }], ["find", { pattern: "needle" }]]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "-A", MAIN, "call", String(tool), JSON.stringify(args)],
      cwd: root,
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(60_000),
    }).output();
    assert.equal(out.signal, null, `call ${tool}: still running after 60 s`);
    const result = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(result.status, "ok", JSON.stringify(result));
  }
});
