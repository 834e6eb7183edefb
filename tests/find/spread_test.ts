/**
 * A search over a large listing answers with the first matches it finds, spread over the tree:
 * real lines, sorted, with an honest count; the byte prefilter folds ASCII case; the walk reads a
 * large folder whole.
 */
import assert from "node:assert/strict";
import { compileMatcher } from "../../lib/find/scan.ts";
import {
  CHUNK_FILES,
  controlSlots,
  CTL_SEEN,
  type JobReply,
  SPREAD_MIN_FILES,
} from "../../lib/find/protocol.ts";
import { SearchPool } from "../../lib/find/search.ts";
import { poolListing } from "../../lib/find/pool_listing.ts";
import { searchOrder } from "../../lib/find/plan.ts";
import { searchAll } from "./pool_helpers.ts";
import { bytePrefilter, fileReader, listingView, searchSteps } from "../../lib/find/worker.ts";
import { LARGE_FOLDER_BYTES, sortYielding, walkProject } from "../../lib/find/walk.ts";
import { tempProject } from "../helpers/project.ts";

Deno.test("searchOrder claims every chunk once: where earlier searches matched first, then spread", () => {
  for (const chunks of [1, 2, 15, 16, 17, 100, 141, 1000]) {
    const order = [...searchOrder(chunks)];
    assert.deepEqual([...order].sort((a, b) => a - b), [...Array(chunks).keys()]);
  }
  // Spread: the first claims land far apart.
  assert.deepEqual([...searchOrder(1600).subarray(0, 3)], [0, 100, 200]);
  const hits = new Uint16Array(1600);
  hits[7] = 1;
  hits[900] = 3;
  assert.deepEqual([...searchOrder(1600, hits).subarray(0, 4)], [900, 7, 0, 100]);
});

Deno.test("bytePrefilter finds the text in raw bytes, ASCII case folded with ignore_case", () => {
  const buffer = new Uint8Array(64);
  const put = (text: string) => buffer.fill(32).set(new TextEncoder().encode(text));
  const plain = bytePrefilter(compileMatcher("Needle", false), buffer)!;
  const folded = bytePrefilter(compileMatcher("Needle", true), buffer)!;
  const regex = bytePrefilter(compileMatcher("ne+dl\\w+ NEEDLE", true), buffer)!;
  put("a nEEDLE here");
  assert.deepEqual([plain.test(64), folded.test(64), folded.test(6)], [false, true, false]);
  put("a Needle here");
  assert.deepEqual([plain.test(64), folded.test(64)], [true, true]);
  put("a needl here");
  assert.equal(folded.test(64), false);
  put("dlx needle");
  assert.equal(regex.test(64), true);
  // Folded text is plain text: its punctuation is not a pattern, and no byte beyond ASCII folds.
  const dotted = bytePrefilter(compileMatcher("A\\.b(x)", true), buffer)!;
  put("xx a.B(X) yy");
  assert.equal(dotted.test(64), true);
  put("xx aZb(x) yy");
  assert.equal(dotted.test(64), false);
  const kelvin = bytePrefilter(compileMatcher("kelvin", true), buffer)!;
  put("\u212aelvin \u00e9"); // the Kelvin sign, as UTF-8 bytes
  assert.equal(kelvin.test(64), false);
  put("ok KELVIN \u00e9");
  assert.equal(kelvin.test(64), true);
  assert.equal(kelvin.test(8), false, "only the first `size` bytes");
  // Beyond ASCII: sought by its ASCII part (ignore_case without the u flag matches an ASCII
  // letter only to its other case); with the u flag (which folds other characters to ASCII
  // letters), no test.
  const cafe = bytePrefilter(compileMatcher("café", true), buffer)!;
  put("a CAFÉ here");
  assert.equal(cafe.test(64), true);
  put("a cafe here");
  assert.equal(cafe.test(64), true, "the part sought: caf");
  put("a ca fé here");
  assert.equal(cafe.test(64), false);
  assert.equal(bytePrefilter(compileMatcher("é", true), buffer), undefined);
  assert.equal(bytePrefilter(compileMatcher("\\p{L}needle", true), buffer), undefined);
});

Deno.test("a search over a large listing stops at the first matches it finds, sorted and counted honestly", async () => {
  // A listing over the spread threshold; most of its files are absent (read as nothing).
  const count = SPREAD_MIN_FILES + 1000;
  const names: string[] = [];
  for (let i = 0; i < count; i++) names.push(`d${String(i).padStart(5, "0")}.txt`);
  const holding = names.filter((_, i) => i % 90 === 3);
  const root = await tempProject(Object.fromEntries(holding.map((n) => [n, `x\nneedle ${n}\n`])));
  const every = holding.map((n) => `${n}:2:needle ${n}`);
  const pool = new SearchPool({ maxWorkers: 2, idleMs: 1000 });
  try {
    const listing = poolListing(names, { id: 1, root, startedAt: Date.now() - 60_000 });
    const spec = compileMatcher("needle", false);
    const all = await searchAll(pool, root, listing, spec, 1000);
    assert.deepEqual(all.lines, every);
    assert.deepEqual([all.found, all.complete, all.truncated], [every.length, true, false]);
    for (let round = 0; round < 3; round++) {
      const few = await searchAll(pool, root, listing, spec, 5);
      assert.equal(few.lines.length, 5);
      assert.deepEqual(few.lines, [...few.lines].sort(), "sorted");
      for (const line of few.lines) assert.ok(every.includes(line), line);
      assert.deepEqual([few.truncated, few.complete], [true, false]);
      assert.ok(few.found > 5 && few.found <= every.length, `found ${few.found}`);
      assert.ok(few.files < count, `stopped early (${few.files} files)`);
    }
  } finally {
    pool.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the walk lists a large folder (read off the thread) whole", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 6000; i++) files[`big/f${i}-${"x".repeat(20)}.txt`] = "";
  files["small/a.txt"] = "";
  const root = await tempProject(files);
  try {
    const size = Deno.statSync(`${root}/big`).size;
    const listed = (await walkProject(root)).sort();
    assert.deepEqual(listed, Object.keys(files).sort());
    // On file systems that give a folder's size (ext4, tmpfs, overlayfs), the async path ran.
    if (size > 0) assert.ok(size >= LARGE_FOLDER_BYTES, `big/ is ${size} bytes`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("sortYielding sorts as Array.prototype.sort does", async () => {
  for (const n of [0, 1, 4095, 4096, 4097, 20_000]) {
    const paths = Array.from(
      { length: n },
      (_, i) => `d${(i * 7919) % 1000}/${i % 3 ? "a" : "a-b"}/ü${i}.txt`,
    );
    assert.deepEqual(await sortYielding([...paths]), [...paths].sort(), `${n} paths`);
  }
});

Deno.test("once the readers have found enough, none claims a chunk; in a spread search each reports its own as far as it got", async () => {
  // Every file holds the word once; this reader is one of two, and the other finds 40 lines.
  const names = Array.from(
    { length: 4 * CHUNK_FILES },
    (_, i) => `f${String(i).padStart(4, "0")}.txt`,
  );
  const root = await tempProject(Object.fromEntries(names.map((n) => [n, `word ${n}\n`])));
  try {
    const listing = poolListing(names, { id: 1, root, startedAt: Date.now() - 60_000 });
    const posted: JobReply[] = [];
    // A reader of a job over the listing (spread when an `order` is given), posting to `posted`.
    const reader = (id: number, control: Int32Array, order?: Int32Array) =>
      searchSteps({
        type: "search",
        id,
        listing: 1,
        root,
        limit: 31,
        order,
        spec: compileMatcher("word", false),
        control: control.buffer as SharedArrayBuffer,
        slot: id - 1,
        stallMs: 1000,
        idleMs: 0,
      }, {
        reader: fileReader(),
        view: listingView({ type: "listing", ...listing }),
        sums: undefined,
        post: (reply) => posted.push(reply),
      });
    const control = new Int32Array(new SharedArrayBuffer(4 * controlSlots(2)));
    const steps = reader(1, control, searchOrder(4));
    // A few files of its first chunk read (one slice of next to no time reads one).
    while (Atomics.load(control, CTL_SEEN) < 3) steps.slice(0.001);
    assert.equal(posted.length, 0);
    Atomics.add(control, CTL_SEEN, 40); // the other reader's lines
    assert.equal(steps.slice(1000), true, "done: no other chunk claimed");
    assert.equal(posted.length, 1);
    const chunk = posted[0] as Extract<JobReply, { type: "chunk" }>;
    assert.equal(chunk.cut, true, "the rest of the chunk was not read");
    assert.equal(chunk.read, chunk.lines.length);
    assert.ok(chunk.read >= 3 && chunk.read < 10, `read ${chunk.read} files`);
    // In order, too, no reader claims a chunk once the lines found are enough (every chunk claimed
    // later would come after theirs).
    const ordered = new Int32Array(new SharedArrayBuffer(4 * controlSlots(2)));
    Atomics.store(ordered, CTL_SEEN, 31);
    const late = reader(2, ordered);
    assert.equal(late.slice(1000), true);
    assert.equal(posted.length, 1, "nothing claimed, nothing read");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
