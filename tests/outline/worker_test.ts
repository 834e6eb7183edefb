/**
 * outline off the server's thread: a huge file does not hold other calls, its memory goes back,
 * and an unchanged file is answered from the kept outline.
 */
import assert from "node:assert/strict";
import { callMcp, connect } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import {
  clearOutlineCache,
  type Outline,
  outlineFile,
  outlineWorkerStarts,
  stopOutlineWorker,
} from "../../lib/outline/mod.ts";

function _rssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

for (const preset of ["full", "read-only"]) {
  Deno.test(`a huge outline runs beside other calls and gives its memory back (${preset})`, async () => {
    // One line of nested arrays: slow to parse, and tree-sitter's memory grows by hundreds of MB.
    const big = `const data = [${
      "[1, [2, [3, [4, 5]]], 'x'],".repeat(60_000)
    }];\nfunction after() {}\n`;
    const root = await tempProject({ "big.js": big, "small.py": "def f():\n    pass\n" });
    const conn = await connect(
      root,
      preset === "full" ? {} : { permissions: [`--allow-read=${root}`] },
    );
    try {
      await callMcp(conn.client, "outline", { path: "small.py" }); // the worker and grammar are up
      const pid = conn.transport.pid!;
      const before = _rssMb(pid);
      const order: string[] = [];
      const slow = callMcp(conn.client, "outline", { path: "big.js" }).then((r) => {
        order.push("outline");
        return r;
      });
      await new Promise((resolve) => setTimeout(resolve, 100)); // the outline is under way
      const listed = await callMcp(conn.client, "list_files", {});
      order.push("list_files");
      assert.equal(listed.status, "ok");
      const out = await slow;
      assert.deepEqual(order, ["list_files", "outline"], "list_files answered during the outline");
      assert.equal(out.status, "ok", JSON.stringify(out));
      const items = (out.items as string[]).map((i) => i.split("|").slice(0, 3).join("|"));
      assert.deepEqual(items, ["1-1|constant|data", "2-2|function|after"]);
      // The worker that grew is replaced: the server comes back near where it was.
      let after = _rssMb(pid);
      for (let i = 0; i < 40 && after - before > 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        after = _rssMb(pid);
      }
      assert.ok(after - before <= 100, `memory ${before.toFixed(0)} → ${after.toFixed(0)} MB`);
      const again = await callMcp(conn.client, "outline", { path: "small.py" });
      assert.deepEqual(again.items, ["1-2|function|f|def f()"]);
    } finally {
      await conn.close();
    }
  });
}

Deno.test("outline keeps the outline of an unchanged file and sees any change", async () => {
  const root = await tempProject({ "a.py": "def f():\n    pass\n" });
  clearOutlineCache();
  const first = await outlineFile(`${root}/a.py`, "a.py");
  const again = await outlineFile(`${root}/a.py`, "a.py");
  assert.equal(again.items, first.items, "the same outline object, not a new parse");
  // Same size, and the time put back: only the bytes differ.
  const { mtime } = await Deno.stat(`${root}/a.py`);
  await Deno.writeTextFile(`${root}/a.py`, "def g():\n    pass\n");
  await Deno.utime(`${root}/a.py`, mtime!, mtime!);
  const changed = await outlineFile(`${root}/a.py`, "a.py");
  assert.deepEqual(changed.items.map((i) => i.name), ["g"]);
});

Deno.test("the worker stays after files of ten thousand lines, its grammars compiled and warm", async () => {
  // Before: the worker was replaced once the process had grown 96 MB since it started, which
  // 10k-line files (or anything else in the process: find's workers, here a buffer) reached
  // after a few outlines, so the next file was parsed by a new worker at V8's baseline speed.
  const files: Record<string, string> = {};
  for (let i = 0; i < 8; i++) {
    const lines: string[] = [];
    for (let n = 0; lines.length < 10_000; n++) {
      lines.push(
        ...(i % 2
          ? [`export class C${n} {`, `  m${n}(x: number[]) { return x.map((y) => y * ${n}); }`, `}`]
          : [`class C${n}:`, `    def m${n}(self, x):`, `        return [y * ${n} for y in x]`]),
      );
    }
    files[`f${i}.${i % 2 ? "ts" : "py"}`] = lines.join("\n");
  }
  const root = await tempProject(files);
  stopOutlineWorker();
  const before = outlineWorkerStarts();
  let elsewhere: Uint8Array | undefined;
  for (const name of Object.keys(files)) {
    const out = await outlineFile(`${root}/${name}`, name);
    assert.equal(out.items.length, 6_668);
    elsewhere ??= new Uint8Array(128 * 1048576).fill(1); // the rest of the process grows
  }
  assert.equal(elsewhere?.length, 128 * 1048576);
  assert.equal(outlineWorkerStarts() - before, 1, "one worker outlined all eight files");
});

Deno.test("the worker's outline, packed between threads, is the outline made in process", async () => {
  // Every kind, names and signatures with characters outside ASCII, nested items.
  const files: Record<string, string> = {
    "a.py": 'MAX = 1\nclass Café:\n    """é"""\n    def naïve(self, x="…"):\n        pass\n' +
      "type Alias = int\nasync def f(\n    a,\n    b,\n) -> None:\n    pass\n",
    "b.rs": "pub struct S;\nenum E { A }\ntrait T { fn t(&self); }\nimpl S { fn m(&self) {} }\n" +
      'mod m { pub const C: u8 = 1; }\ntype A = u8;\nstatic Z: &str = "ü";\n',
    "c.ts": "export interface I { a: string }\nnamespace N { export function f(): void {} }\n" +
      "class K { static readonly PI = 3; m(): void {} }\ntype T = 'ö';\nenum E { A }\n",
  };
  const root = await tempProject(files);
  clearOutlineCache();
  const { outlineSource } = await import("../../lib/outline/mod.ts");
  for (const [name, text] of Object.entries(files)) {
    const language = name.endsWith(".py") ? "python" : name.endsWith(".rs") ? "rust" : "typescript";
    const inWorker = await outlineFile(`${root}/${name}`, name);
    const here = await outlineSource(language, text);
    assert.deepEqual(inWorker.items, here.items, name);
    assert.equal(inWorker.hasErrors, here.hasErrors);
    assert.ok(new Set(here.items.map((i) => i.kind)).size >= 4, `${name}: several kinds`);
  }
});

Deno.test("the worker's modules load from data: URLs too, as where blob: URLs do not", async () => {
  const root = await tempProject({ "a.py": "class A:\n    def m(self):\n        pass\n" });
  clearOutlineCache();
  stopOutlineWorker("data");
  try {
    const before = outlineWorkerStarts();
    const out = await outlineFile(`${root}/a.py`, "a.py");
    assert.deepEqual(out.items.map((i) => i.name), ["A", "A.m"]);
    assert.equal(outlineWorkerStarts() - before, 1, "a worker outlined it, not the server");
  } finally {
    stopOutlineWorker("blob");
  }
});

Deno.test("outline's worker takes a file's bytes and decodes them: text outlined, binary and non-UTF-8 told", async () => {
  const { outlineInWorker } = await import("../../lib/outline/host.ts");
  const encode = (text: string) => new TextEncoder().encode(text);
  const names = (outline: unknown) =>
    typeof outline === "string" ? outline : (outline as Outline).items.map((i) => i.name);
  stopOutlineWorker();
  const first = encode("\uFEFFdef f(a):\n    pass\n");
  assert.deepEqual(names(await outlineInWorker("python", first, "/p/a.py")), ["f"]);
  assert.ok(first.length > 0, "a worker that had not answered yet was given a copy");
  const second = encode("class Café:\n    x = 'ü'\ndef g():\n    pass\n");
  assert.deepEqual(names(await outlineInWorker("python", second, "/p/b.py")), ["Café", "g"]);
  const binary = new Uint8Array([100, 101, 102, 0, 1, 2]);
  assert.equal(await outlineInWorker("python", binary, "/p/c.py"), "binary");
  const latin = new Uint8Array([0x78, 0x20, 0x3d, 0x20, 0x27, 0xe9, 0x27, 0x0a]);
  assert.equal(await outlineInWorker("python", latin, "/p/d.py"), "not UTF-8 text");
  stopOutlineWorker();
});
