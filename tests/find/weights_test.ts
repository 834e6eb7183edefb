/**
 * A spread search reads first the chunks whose files are worth the most for the time reading them
 * takes, weighed from the file sizes git's index keeps: every index version git writes (2, 3 with
 * extended flags, 4 with compressed paths), SHA-1 and SHA-256 object names; anything else gives no
 * weights. A narrow glob's files are read best first too.
 */
import assert from "node:assert/strict";
import {
  bestFirst,
  chunkWeights,
  fileCost,
  fileWorth,
  FOLDER_COST_US,
  indexEntries,
  UNKNOWN_FILE_BYTES,
  WEIGHT_CAP_BYTES,
} from "../../lib/find/weights.ts";
import { packPaths } from "../../lib/find/packed.ts";
import { searchOrder } from "../../lib/find/plan.ts";
import { CHUNK_FILES, MAX_FILE_BYTES, SPREAD_MIN_FILES } from "../../lib/find/protocol.ts";
import { findInProject, resetFind } from "../../lib/find/mod.ts";
import { helpedChunks } from "../../lib/find/help.ts";
import { sketchedCount, weighed } from "./pool_helpers.ts";
import { atOnce } from "../../lib/find/walk.ts";
import { git, tempProject } from "../helpers/project.ts";

/** Files of many sizes and names: nested, long (a name of over 0xfff bytes), beyond ASCII. */
function _files(): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  for (let i = 0; i < 40; i++) {
    const dir = i % 3 ? `src/m${i % 5}/deep/er` : "top";
    files[`${dir}/f${i}.ts`] = "x".repeat(i * 977 % 9000);
  }
  files["big/huge.bin"] = new Uint8Array(MAX_FILE_BYTES + 10);
  files["big/mid.txt"] = "y".repeat(WEIGHT_CAP_BYTES * 2);
  files["ünïcode/naïve café.md"] = "é".repeat(333);
  files["a.txt"] = "";
  files[`long/${"n".repeat(200)}/${"m".repeat(200)}/${"o".repeat(200)}.txt`] = "long";
  return files;
}

async function _repo(init: string[], after: (root: string) => Promise<void>): Promise<string> {
  const root = await tempProject(_files());
  await git(root, "init", "-q", ...init);
  await git(root, "add", "-A");
  await after(root);
  return root;
}

function _tracked(root: string): string[] {
  const out = new Deno.Command("git", { args: ["ls-files", "-z"], cwd: root, stdout: "piped" })
    .outputSync();
  return new TextDecoder().decode(out.stdout).split("\0").filter(Boolean).sort();
}

/** A git work tree of `files`, committed (the caller removes it). */
async function _committed(files: Record<string, string>): Promise<string> {
  const root = await tempProject(files);
  await git(root, "init", "-q");
  await git(root, "add", "-A");
  await git(root, "commit", "-qm", "tree");
  return root;
}

/** Waits until find's idle worker has sketched every tracked file of `root` (at most 30 s). */
async function _allSketched(root: string): Promise<void> {
  const total = _tracked(root).length;
  for (let waited = 0; sketchedCount(root) < total; waited += 100) {
    assert.ok(waited < 30_000, `${sketchedCount(root)} of ${total} sketched`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const KINDS: [string, number, string[], (root: string) => Promise<void>][] = [
  ["version 2", 2, [], async (root) => await git(root, "update-index", "--index-version", "2")],
  ["version 3 (extended flags: an intent-to-add file)", 3, [], async (root) => {
    await Deno.writeTextFile(`${root}/later.txt`, "intent to add\n");
    await git(root, "add", "-N", "later.txt");
  }],
  ["version 4 (compressed paths)", 4, [], async (root) => {
    await git(root, "update-index", "--index-version", "4");
  }],
  ["SHA-256 object names", 2, ["--object-format=sha256"], async () => {}],
];

for (const [kind, version, init, after] of KINDS) {
  Deno.test(`indexEntries reads every entry's path and size: ${kind}`, async () => {
    const root = await _repo(init, after);
    try {
      const bytes = await Deno.readFile(`${root}/.git/index`);
      assert.equal(new DataView(bytes.buffer).getUint32(4), version, "the index version");
      const entries = atOnce(indexEntries(bytes));
      assert.ok(entries, "not read");
      const tracked = _tracked(root);
      assert.equal(entries.count, tracked.length);
      const decoder = new TextDecoder();
      for (let k = 0; k < entries.count; k++) {
        const path = decoder.decode(entries.path(k));
        assert.equal(path, tracked[k]);
        // An intent-to-add entry records no size yet (0).
        const size = path === "later.txt" ? 0 : Deno.statSync(`${root}/${path}`).size;
        assert.equal(entries.size[k], size, path);
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("chunkWeights: each file's size from the index, each chunk's worth over its cost", async () => {
  const root = await _repo([], async () => {});
  try {
    const files = [..._tracked(root), "untracked/new.ts", "zz-untracked.txt"].sort();
    const index = await Deno.readFile(`${root}/.git/index`);
    const weights = atOnce(chunkWeights(index, atOnce(packPaths(files)), 1))!;
    assert.equal(weights.sizes.length, files.length);
    assert.equal(weights.chunks.length, files.length);
    const folder = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);
    for (const [i, path] of files.entries()) {
      const size = path.includes("untracked")
        ? UNKNOWN_FILE_BYTES
        : Deno.statSync(`${root}/${path}`).size;
      assert.equal(weights.sizes[i], size, path);
      // A chunk of one file: its worth over its cost and its one folder's.
      const want = fileWorth(size) / (fileCost(size) + FOLDER_COST_US);
      assert.ok(Math.abs(weights.chunks[i] - want) < 1e-9, path);
    }
    assert.equal(fileWorth(MAX_FILE_BYTES + 1), 0);
    assert.equal(fileWorth(WEIGHT_CAP_BYTES * 2), WEIGHT_CAP_BYTES);
    // By four: the worth of its files over their costs and one check per folder of its own.
    const byFour = atOnce(chunkWeights(index, atOnce(packPaths(files)), 4))!;
    assert.equal(byFour.chunks.length, Math.ceil(files.length / 4));
    for (let k = 0; k < byFour.chunks.length; k++) {
      const part = files.slice(4 * k, 4 * k + 4);
      const sizes = [...weights.sizes.subarray(4 * k, 4 * k + 4)];
      const folders = part.filter((p, j) => j === 0 || folder(p) !== folder(part[j - 1])).length;
      const worth = sizes.reduce((a, b) => a + fileWorth(b), 0);
      const cost = sizes.reduce((a, b) => a + fileCost(b), 0) + folders * FOLDER_COST_US;
      assert.ok(Math.abs(byFour.chunks[k] - worth / cost) < 1e-9, `chunk ${k}`);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("worth over cost: a huge chunk is not read before chunks of real source files", () => {
  // One 5.6 MB chunk (a changelog, a lock file, generated code) against 64 files of 20 KB.
  const sizes = new Uint32Array(128);
  sizes.fill(20_000, 0, 64);
  sizes.fill(88_000, 64, 128);
  const rate = (from: number) => {
    let worth = 0;
    let cost = FOLDER_COST_US;
    for (let i = from; i < from + 64; i++) {
      [worth, cost] = [worth + fileWorth(sizes[i]), cost + fileCost(sizes[i])];
    }
    return worth / cost;
  };
  assert.ok(rate(0) > rate(64), `${rate(0)} against ${rate(64)}`);
  // Files best first: most worth for the time, ties in path order; a file too large to search last.
  const files = Int32Array.from([0, 1, 2, 3, 4]);
  const some = Uint32Array.from([100, 30_000, MAX_FILE_BYTES + 1, 30_000, 400_000]);
  assert.deepEqual([...bestFirst(files, some)], [1, 3, 4, 0, 2]);
});

Deno.test("without git, a large listing is weighed from the sizes its files had when sketched", async () => {
  // The walk's listing (no git index): tiny files, one in a hundred with the word once, and two
  // real files holding it often, where the stripes come late (the 24th chunk of 132). Once the
  // idle worker has read every file to sketch it, its chunks are weighed from those sizes, and a
  // first search reads the real files first (by the stripes, about 1,500 files). A four-letter
  // word: no sketch is asked.
  const files: Record<string, string> = {};
  for (let i = 0; i < SPREAD_MIN_FILES + 200; i++) {
    files[`f/c${String(i).padStart(5, "0")}.js`] = i % 100 === 42 ? "pear\n" : "x\n";
  }
  const body = Array.from({ length: 400 }, (_, i) => i % 10 ? `line ${i}` : `pear ${i}`);
  for (const name of ["a", "b"]) files[`f/c04100${name}.ts`] = body.join("\n") + "\n";
  const root = await tempProject(files);
  try {
    const find = (pattern: string) =>
      findInProject(root, { pattern, maxResults: 30, ignoreCase: false, useGit: false });
    await find("none-such"); // lists the files, and keeps them (no chunk found a match)
    for (let waited = 0; !weighed(root, false); waited += 100) {
      assert.ok(waited < 30_000, `${sketchedCount(root, false)} files sketched, not weighed`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const pear = await find("pear");
    assert.equal(pear.matches.length, 30);
    assert.ok(pear.read <= 3 * CHUNK_FILES, `read ${pear.read} files`);
    assert.ok(pear.matches.some((line) => line.startsWith("f/c04100a.ts:")), pear.matches[0]);
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("chunkWeights gives nothing for what is not an index, or a cut one", async () => {
  const root = await _repo([], async () => {});
  try {
    const packed = atOnce(packPaths(_tracked(root)));
    const index = await Deno.readFile(`${root}/.git/index`);
    for (
      const bad of [new Uint8Array(0), new TextEncoder().encode("DIRC"), index.subarray(0, 200)]
    ) {
      assert.equal(atOnce(chunkWeights(bad, packed, 64)), undefined);
    }
    const other = index.slice();
    other[7] = 9; // version 9
    assert.equal(atOnce(chunkWeights(other, packed, 64)), undefined);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("searchOrder with weights: every chunk once, two of the best for one of the stripes", () => {
  for (const chunks of [1, 2, 3, 16, 17, 100, 1000]) {
    const weights = Float64Array.from({ length: chunks }, (_, k) => (k * 7919) % 101);
    const order = [...searchOrder(chunks, undefined, weights)];
    assert.deepEqual([...order].sort((a, b) => a - b), [...Array(chunks).keys()]);
  }
  const weights = new Float64Array(1600);
  weights[1500] = 9;
  weights[3] = 8;
  weights[700] = 7;
  // The two best, then the first stripe's first chunk, then the next best…
  assert.deepEqual([...searchOrder(1600, undefined, weights).subarray(0, 5)], [1500, 3, 0, 700, 1]);
  // Where earlier searches matched does not count with weights; without them, it comes first.
  const hits = new Uint16Array(1600);
  hits[42] = 1;
  hits[700] = 2;
  assert.deepEqual([...searchOrder(1600, hits, weights)], [
    ...searchOrder(1600, undefined, weights),
  ]);
  // Without weights (or of the wrong length), the chunks with hits first, then the stripes.
  assert.deepEqual([...searchOrder(1600, undefined, new Float64Array(5))], [...searchOrder(1600)]);
  assert.deepEqual([...searchOrder(1600, hits).subarray(0, 3)], [700, 42, 0]);
});

Deno.test("a first search of a large git tree reads the best chunks first, and a narrow glob's best files", async () => {
  // Past the spread threshold: thousands of one-line files, 20 of them with the word once, and
  // at the very end of the listing (the stripes reach it last) three real files holding it often.
  const files: Record<string, string> = {};
  const count = SPREAD_MIN_FILES + 600;
  for (let i = 0; i < count; i++) {
    const text = i % 400 === 7 ? "needle\n" : i % 200 === 13 ? "kiwi-banana\n" : "x\n";
    files[`fixtures/c${String(i).padStart(5, "0")}/input.js`] = text;
  }
  const body = Array.from({ length: 400 }, (_, i) => i % 20 ? `line ${i}` : `needle ${i}`);
  for (const name of ["a", "b", "c"]) files[`zz/${name}.ts`] = body.join("\n") + "\n";
  // A narrow glob's files: 280 tiny ones first in path order, then 20 real ones holding the word.
  for (let i = 0; i < 280; i++) files[`py/a${String(i).padStart(3, "0")}.py`] = "pass\n";
  const snake = Array.from({ length: 600 }, (_, i) => i % 60 ? `x = ${i}` : `snake(${i})`);
  for (let i = 0; i < 20; i++) files[`py/z${i}.py`] = snake.join("\n") + "\n";
  const root = await _committed(files);
  try {
    const find = (pattern: string) =>
      findInProject(root, { pattern, maxResults: 30, ignoreCase: false });
    await find("x"); // lists the files (a cold search), and keeps them with their weights
    const first = await find("needle");
    assert.equal(first.matches.length, 30);
    assert.ok(first.matches.every((line) => line.includes("needle")));
    // (Thousands by the stripes alone. The main thread reads beside the worker from the start,
    // and on a busy machine may take a chunk or two more before the worker's lines are counted.)
    assert.ok(first.read <= 5 * CHUNK_FILES, `read ${first.read} files`);
    // The glob's files best first (in path order, 280 files before the first match), the answer
    // sorted by path.
    const py = await findInProject(root, {
      pattern: "snake",
      maxResults: 30,
      ignoreCase: false,
      glob: "*.py",
    });
    assert.equal(py.matches.length, 30);
    assert.ok(py.matches.every((line) => /^py\/z\d+\.py:\d+:snake/.test(line)), py.matches[0]);
    const sorted = [...py.matches].sort((a, b) => {
      const [pa, la] = a.split(":");
      const [pb, lb] = b.split(":");
      return pa < pb ? -1 : pa > pb ? 1 : Number(la) - Number(lb);
    });
    assert.deepEqual(py.matches, sorted);
    // (280 in path order; the main thread may read a chunk or two beside the worker's first.)
    assert.ok(py.read <= 3 * CHUNK_FILES, `read ${py.read} files`);
    // Once the worker has sketched the files (it does while idle), a first search reads first
    // those whose sketches hold its text: the 44 one-line fixtures spread over the tree.
    await _allSketched(root);
    const kiwi = await find("kiwi-banana");
    assert.equal(kiwi.matches.length, 30);
    assert.ok(kiwi.matches.every((line) => line.endsWith(":1:kiwi-banana")), kiwi.matches[0]);
    assert.ok(kiwi.read <= 3 * CHUNK_FILES, `read ${kiwi.read} files`); // (2,922 without)
    assert.ok(kiwi.truncated && kiwi.found > 30);
    // A sketch only orders the reading: files changed since they were sketched (in place: the
    // listing stays) are read as they are now, one that gained the text and one that lost it.
    await Deno.writeTextFile(`${root}/fixtures/c04321/input.js`, "zebra-crossing\n");
    await Deno.writeTextFile(`${root}/fixtures/c00013/input.js`, "x\n"); // (held kiwi-banana)
    const zebra = await find("zebra-crossing");
    assert.equal(zebra.warm, true, "the same listing, with its sketches");
    assert.deepEqual(zebra.matches, ["fixtures/c04321/input.js:1:zebra-crossing"]);
    assert.ok(zebra.complete && zebra.found === 1);
    const all = await findInProject(root, {
      pattern: "kiwi-banana",
      maxResults: 100,
      ignoreCase: false,
    });
    assert.equal(all.found, 43);
    assert.ok(all.complete && !all.matches.some((line) => line.startsWith("fixtures/c00013/")));
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a first search finds a rare word of a few large files by their sketches, glob or not", async () => {
  // Past the spread threshold: one-line files, and 600 files of 8 KB, each as worth reading as
  // the others by its size, 6 of which hold the word (4 times each). A sketch of a fixed 504 bits
  // was full in a file of 8 KB and "held" any text: those 6 were found in the usual order, after
  // 300 of the large files on average (`NamedTupleExpr` in mypy: 3,000 files, 90–120 ms).
  let seed = 7;
  const rand = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const word = () =>
    Array.from({ length: 3 + Math.floor(rand() * 8) }, () => String.fromCharCode(97 + rand() * 26))
      .join("");
  const files: Record<string, string> = {};
  for (let i = 0; i < SPREAD_MIN_FILES; i++) {
    files[`fixtures/c${String(i).padStart(5, "0")}.js`] = "x\n";
  }
  for (let i = 0; i < 600; i++) {
    const lines = Array.from({ length: 160 }, () => Array.from({ length: 8 }, word).join(" "));
    if (i % 100 === 75) { for (let k = 0; k < 4; k++) lines[40 * k + 7] = "NamedTupleExpr(node)"; }
    files[`big/m${String(i).padStart(4, "0")}.py`] = lines.join("\n") + "\n";
  }
  const root = await _committed(files);
  try {
    const find = (pattern: string) =>
      findInProject(root, { pattern, maxResults: 30, ignoreCase: false });
    await find("x"); // lists the files, and keeps them
    await find("x"); // a warm search: its worker sketches the files once idle
    await _allSketched(root);
    // A narrow glob's files: those whose sketches hold the word first (the best first, by their
    // sizes, read 5 chunks of them on average before).
    const globbed = await findInProject(root, {
      pattern: "NamedTupleExpr",
      maxResults: 10,
      ignoreCase: false,
      glob: "*.py",
    });
    assert.equal(globbed.matches.length, 10);
    assert.ok(globbed.read <= CHUNK_FILES, `read ${globbed.read} files`);
    const first = await findInProject(root, {
      pattern: "NamedTupleExpr",
      maxResults: 20,
      ignoreCase: false,
    });
    assert.equal(first.matches.length, 20);
    // (The 6 files and the few that hold the word by chance; the main thread may read a chunk
    // beside the worker's first.)
    assert.ok(first.read <= 2 * CHUNK_FILES, `read ${first.read} files`);
    const all = await find("NamedTupleExpr");
    assert.ok(all.found === 24 && all.complete, "every file read, to say there are no more");
    // Again: the files where it matched first, then the rest of the tree, which fewer lines than
    // asked for make it read; the server's own thread helps with the rest (it did not once
    // remembered files came first: the worker read the whole tree alone).
    const helped = helpedChunks();
    const again = await find("NamedTupleExpr");
    assert.ok(again.found === 24 && again.complete);
    assert.ok(helpedChunks() > helped, "this thread read beside the worker");
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});
