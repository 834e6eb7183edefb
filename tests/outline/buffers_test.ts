/**
 * What a fresh outline does without fresh memory: the file read into a kept buffer, decoded a step
 * at a time, hashed in the worker, the answer's text handed back in the same buffer. Each step
 * must give exactly what the whole-at-once way gave.
 */
import assert from "node:assert/strict";
import { decodeSource } from "../../lib/outline/source.ts";
import { packOutline, unpackOutline } from "../../lib/outline/packed.ts";
import { keepBuffer, readKept } from "../../lib/outline/read_buffer.ts";
import type { OutlineItem } from "../../lib/outline/items.ts";
import {
  clearOutlineCache,
  type FileOutline,
  outlineFile,
  stopOutlineWorker,
} from "../../lib/outline/mod.ts";
import { tempProject } from "../helpers/project.ts";

const encode = (text: string) => new TextEncoder().encode(text);

Deno.test("a file decoded a step at a time is the text decoded whole, characters cut between steps included", () => {
  // Characters of 2, 3 and 4 bytes fall across every step boundary (32 KB) at some offset.
  for (const char of ["é", "€", "🙂"]) {
    for (let shift = 0; shift < 4; shift++) {
      const text = "x".repeat(32 * 1024 - shift) + char.repeat(40_000) + "\nend";
      const bytes = encode(text);
      assert.deepEqual(decodeSource(bytes), { text }, `${char} shifted ${shift}`);
    }
  }
  const bom = encode("\uFEFFa = 1\n" + "ü".repeat(50_000));
  assert.deepEqual(decodeSource(bom), { text: "a = 1\n" + "ü".repeat(50_000) });
  // Not UTF-8: a stray byte after the first step, a character cut off at the very end.
  const stray = encode("a".repeat(70_000));
  stray[40_000] = 0xe9;
  assert.deepEqual(decodeSource(stray), { notText: "not UTF-8 text" });
  const cut = encode("a".repeat(32 * 1024 - 1) + "🙂").subarray(0, 32 * 1024 + 1);
  assert.deepEqual(decodeSource(cut), { notText: "not UTF-8 text" });
  assert.deepEqual(decodeSource(new Uint8Array([97, 0, 98])), { notText: "binary" });
});

function _items(count: number): OutlineItem[] {
  return Array.from({ length: count }, (_, i) => ({
    start: i + 1,
    end: i + 2 + (i % 7),
    kind: (["class", "function", "method", "constant"] as const)[i % 4],
    name: `ns.Naïve${i}${"🙂".repeat(i % 3)}`,
    signature: `def f${i}(a="${"é€".repeat(i % 50)}") -> "x"` + (i % 11 ? "" : "y".repeat(40_000)),
    depth: i % 3,
  }));
}

Deno.test("an outline's text goes between threads in the request's buffer, or as a string when it does not fit", () => {
  // Enough text that items straddle the reader's decode steps; characters of 2-4 bytes.
  const outline = { items: _items(3000), hasErrors: true };
  const buffer = new ArrayBuffer(16 * 1048576);
  const packed = packOutline(outline, buffer);
  assert.equal(packed.strings, undefined, "the text is in the buffer");
  assert.ok(packed.stringBytes! > 10 * 1048576);
  assert.deepEqual(unpackOutline(packed, buffer), outline);
  const small = new ArrayBuffer(64 * 1024);
  const fallback = packOutline(outline, small);
  assert.equal(typeof fallback.strings, "string", "too large for the buffer: a string");
  assert.deepEqual(unpackOutline(fallback, small), outline);
  assert.deepEqual(unpackOutline(packOutline(outline)), outline);
  const empty = { items: [], hasErrors: false };
  assert.deepEqual(unpackOutline(packOutline(empty, buffer), buffer), empty);
});

Deno.test("a file is read into the kept buffer, whole even when it grew since it was looked at", async () => {
  const root = await tempProject({ "a.py": "x = 1\n".repeat(20_000), "b.py": "y = 2\n" });
  const first = await readKept(`${root}/a.py`, 10); // said 10 bytes: it has 120,000
  assert.equal(new TextDecoder().decode(first), "x = 1\n".repeat(20_000));
  keepBuffer(first.buffer);
  const second = await readKept(`${root}/b.py`, 6);
  assert.equal(second.buffer, first.buffer, "the kept buffer, read into again");
  assert.equal(new TextDecoder().decode(second), "y = 2\n");
  const third = await readKept(`${root}/b.py`, 6);
  assert.notEqual(third.buffer, first.buffer, "not given back: a new one");
});

Deno.test("the worker's hash of a file is the server's: a kept outline is found again once the worker hashes with node:crypto", async () => {
  stopOutlineWorker();
  clearOutlineCache();
  // b.py is hashed in several steps (64 KB each).
  const files = {
    "a.py": "def a():\n    pass\n",
    "b.py": 'def b():\n    pass\nS = """\n' + "é\n".repeat(40_000) + '"""\n',
  };
  const root = await tempProject(files);
  await outlineFile(`${root}/a.py`, "a.py"); // WebCrypto's digest, until the worker is idle
  await new Promise((resolve) => setTimeout(resolve, 1500)); // idle: the worker loads node:crypto
  const first = await outlineFile(`${root}/b.py`, "b.py");
  const again = await outlineFile(`${root}/b.py`, "b.py");
  assert.equal(again.items, first.items, "found again by its hash");
  stopOutlineWorker();
});

Deno.test("tree-sitter's heap is touched ahead of a parse and given back for it: no growth, the same outline", async () => {
  const { outlineSource } = await import("../../lib/outline/mod.ts");
  const { heapBytes, warmHeap } = await import("../../lib/outline/parser.ts");
  const text = "class A:\n    def m(self):\n        pass\n".repeat(2000);
  const before = await outlineSource("python", text);
  warmHeap(8 * 1048576);
  const warmed = heapBytes();
  for (let i = 0; i < 5; i++) warmHeap(8 * 1048576);
  assert.equal(heapBytes(), warmed, "the block is given back and taken again, not grown anew");
  assert.deepEqual(await outlineSource("python", text), before);
});

Deno.test("outlines asked at once each get their own file's outline, the kept buffer passing between them", async () => {
  stopOutlineWorker();
  clearOutlineCache();
  // Files of different sizes, so that reads take the kept buffer, a new one, or a larger one.
  const files: Record<string, string> = {};
  for (let i = 0; i < 16; i++) {
    const body = `def only_in_${i}():\n    pass\n` + `X${i} = "${"é".repeat(i * 3000)}"\n`;
    files[`f${i}.py`] = body;
  }
  const root = await tempProject(files);
  for (let round = 0; round < 3; round++) {
    const names = Object.keys(files);
    // Started a moment apart: later files are read while earlier ones wait for the worker.
    const asked: Promise<FileOutline>[] = [];
    for (const name of names) {
      asked.push(outlineFile(`${root}/${name}`, name));
      await new Promise((resolve) => setTimeout(resolve, round));
    }
    const outlines = await Promise.all(asked);
    for (const [i, outline] of outlines.entries()) {
      const n = names[i].slice(1, -3);
      assert.deepEqual(outline.items.map((item) => item.name), [`only_in_${n}`, `X${n}`], names[i]);
    }
    clearOutlineCache(); // the next round outlines them afresh, from the buffers kept now
  }
  stopOutlineWorker();
});
