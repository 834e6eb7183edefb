/**
 * A warm search that git helps (`git grep -l` picks the tracked files holding the text) answers
 * exactly what the search over every file answers, and still sees what changed since the listing.
 */
import assert from "node:assert/strict";
import { findInProject, resetFind } from "../../lib/find/mod.ts";
import { allowAll } from "../../lib/find/warm.ts";
import { grepAfterAllOn } from "../../lib/find/plan.ts";
import { tune } from "./pool_helpers.ts";
import { git, tempProject, writeFiles } from "../helpers/project.ts";

const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

async function project(): Promise<string> {
  const files: Record<string, string | Uint8Array> = {
    ".gitignore": "ignored/\n",
    "ignored/x.txt": "needle\n",
    "big.txt": "needle\n".repeat(200_000), // over 1 MB
    "bin.dat": new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1]),
    "latin1.txt": new Uint8Array([...new TextEncoder().encode("needle caf"), 0xe9, 10]),
  };
  for (let i = 0; i < 300; i++) {
    files[`src/m${i % 7}/f${i}.ts`] = i % 9 === 0
      ? `const a = 1;\nexport function needle${i}() { return "needle"; }\n`
      : `const b${i} = ${i};\n`;
  }
  const root = await tempProject(files);
  await git(root, "init", "-q");
  await git(root, "add", "-A");
  await git(root, "commit", "-qm", "init");
  await writeFiles(root, { "src/m1/untracked.ts": "// needle, not yet added\n" });
  await settle();
  return root;
}

Deno.test("find with git's help answers as the search over every file does", async () => {
  const root = await project();
  const cases: [string, boolean][] = [
    ["needle", false],
    ["needle\\d+\\(", false],
    ["function needle", false],
    ["zzz-none", false],
    // With ignore_case: git's `-i` for ASCII text, and the ASCII part of other text (`caf`).
    ["NEEDLE", true],
    ["Function NEEDLE\\d", true],
    ["CAF\u00c9", true],
    ["zzz-NONE", true],
  ];
  for (const [pattern, ignoreCase] of cases) {
    for (const max of [3, 1000]) {
      resetFind();
      const ask = { pattern, maxResults: max, ignoreCase };
      await findInProject(root, ask); // cold: lists and keeps the listing
      const plain = await findInProject(root, { ...ask, grepAfterMs: 60_000 });
      const helped = await findInProject(root, { ...ask, grepAfterMs: 0 });
      assert.equal(helped.warm, true);
      assert.deepEqual(helped.matches, plain.matches, `${pattern} ${max}`);
      assert.equal(helped.truncated, plain.truncated, `${pattern} ${max}`);
      // Skipped files are those that hold the text: the same ones either way.
      assert.deepEqual(helped.skipped, plain.skipped, `${pattern} ${max}`);
      // Every file counts as searched (git read the ones it ruled out): a search that found
      // nothing is not a search of "no file" (the tool's note said "the project has no files").
      if (plain.complete) assert.equal(helped.files, plain.files, `${pattern} ${max}`);
      assert.equal(helped.complete, plain.complete, `${pattern} ${max}`);
    }
  }
});

Deno.test("find with git's help still sees files created since the listing", async () => {
  const root = await project();
  resetFind();
  await findInProject(root, { pattern: "needle", maxResults: 1000, ignoreCase: false });
  await writeFiles(root, { "src/m3/fresh.ts": "needle fresh\n", "new/dir/n.ts": "needle new\n" });
  const out = await findInProject(root, {
    pattern: "needle",
    maxResults: 1000,
    ignoreCase: false,
    grepAfterMs: 0,
  });
  assert.ok(out.matches.includes("src/m3/fresh.ts:1:needle fresh"), String(out.matches));
  assert.ok(out.matches.includes("new/dir/n.ts:1:needle new"), String(out.matches));
});

Deno.test("find with git's help, batch by batch, keeps untracked files in order and says it stopped early", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 5000; i++) {
    files[`src/a-rather-long-folder-name/${String(i).padStart(5, "0")}-file.ts`] = `needle ${i}\n`;
  }
  const root = await tempProject(files);
  try {
    await git(root, "init", "-q");
    await git(root, "add", "-A");
    await git(root, "commit", "-qm", "init");
    // Untracked, sorting between tracked files early and late.
    await writeFiles(root, {
      "src/a-rather-long-folder-name/00001-x.ts": "needle untracked early\n",
      "src/a-rather-long-folder-name/04999-x.ts": "needle untracked late\n",
    });
    await settle();
    resetFind();
    const ask = { pattern: "needle", maxResults: 30, ignoreCase: false };
    await findInProject(root, ask); // cold
    const plain = await findInProject(root, { ...ask, grepAfterMs: 60_000 });
    const helped = await findInProject(root, { ...ask, grepAfterMs: 0 });
    assert.deepEqual(helped.matches, plain.matches);
    assert.ok(
      helped.matches.includes("src/a-rather-long-folder-name/00001-x.ts:1:needle untracked early"),
    );
    assert.equal(helped.truncated, true);
    assert.equal(helped.complete, false);
    assert.ok(helped.read < 5002, `the search stopped early (${helped.read} files read)`);
    // Every file, every line, in order: the late untracked file too.
    const all = await findInProject(root, { ...ask, maxResults: 6000, grepAfterMs: 0 });
    assert.equal(all.count, 5002);
    assert.equal(all.complete, true);
    assert.equal(
      all.matches.at(-1),
      "src/a-rather-long-folder-name/04999-x.ts:1:needle untracked late",
    );
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name: "under -A a warm search still running after a while asks git too, with ignore_case as well",
  ignore: !allowAll(),
  fn: async () => {
    // A search that must read every file (no match) goes faster with git's threads than with one
    // worker; before, -A never asked git (and ignore_case never did under any preset), and this
    // read all 300 tracked files itself.
    const root = await project();
    for (const ignoreCase of [false, true]) {
      resetFind();
      const ask = { pattern: "ZZZ-none", maxResults: 30, ignoreCase };
      await findInProject(root, ask); // cold: lists and keeps the listing
      const restore = tune("grepAfterAllMs", 0);
      try {
        const out = await findInProject(root, ask);
        assert.equal(out.warm, true);
        assert.deepEqual(out.matches, []);
        assert.equal(out.complete, true);
        assert.ok(out.read <= 2, `git named no file: ${out.read} read (the untracked one)`);
        if (!ignoreCase) continue;
        // A match that differs from the pattern in case only is found through git's names.
        const found = await findInProject(root, { ...ask, pattern: "EXPORT FUNCTION NEEDLE9\\(" });
        assert.deepEqual(found.matches, [
          'src/m2/f9.ts:2:export function needle9() { return "needle"; }',
        ]);
        assert.ok(found.read <= 3, `${found.read} read`);
      } finally {
        restore();
      }
    }
    resetFind();
  },
});

Deno.test("find with git's help, not cut, sees a file created in a folder where git named none", async () => {
  // Each part git names vouches for its own files' folders; an answer that is not cut also for
  // every other folder: zzz/ (from the third chunk of 64 files on, none holding the word) too.
  const files: Record<string, string> = {};
  for (let i = 0; i < 128; i++) files[`a/f${i}.ts`] = i % 10 ? "plain\n" : "needle\n";
  for (let i = 0; i < 100; i++) files[`zzz/q${i}.ts`] = "quiet\n";
  const root = await tempProject(files);
  await git(root, "init", "-q");
  await git(root, "add", "-A");
  await git(root, "commit", "-qm", "init");
  await settle();
  resetFind();
  const ask = { pattern: "needle", maxResults: 1000, ignoreCase: false, grepAfterMs: 0 };
  assert.equal((await findInProject(root, ask)).count, 13);
  await settle();
  await writeFiles(root, { "zzz/new.ts": "needle new\n" });
  const out = await findInProject(root, ask);
  assert.ok(out.matches.includes("zzz/new.ts:1:needle new"), String(out.matches));
  assert.equal(out.count, 14);
});

Deno.test("under -A git is asked only on a machine of more than two cores", () => {
  // On two, the server's own thread reads beside the worker, as fast as git's two threads, and
  // the switch to git throws away what was read (the 59k-file tree's full scan: 608–729 ms
  // without it, 706–787 with it).
  assert.equal(grepAfterAllOn(1), undefined);
  assert.equal(grepAfterAllOn(2), undefined);
  assert.equal(grepAfterAllOn(4), 150);
});
