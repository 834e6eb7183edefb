/**
 * Every way find can go counts every kind of skipped file that holds the pattern's text: binary,
 * not UTF-8, and over 1 MB (wherever in the file the text is, not only in its first megabyte).
 */
import assert from "node:assert/strict";
import { findInProject, resetFind } from "../../lib/find/mod.ts";
import { git, tempProject } from "../helpers/project.ts";

const MB = 1024 * 1024;
const filler = (bytes: number) => ("y".repeat(79) + "\n").repeat(Math.ceil(bytes / 80));

async function project(): Promise<string> {
  const root = await tempProject({
    "bin.dat": new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1]),
    "latin1.txt": new Uint8Array([...new TextEncoder().encode("needle caf"), 0xe9, 10]),
    // 1.2 MB holding the text only past its first megabyte.
    "big_end.txt": `${filler(1.2 * MB)}needle\n`,
    // The text across the 1 MB mark.
    "big_mark.txt": `${"z".repeat(MB - 3)}needle\n${filler(0.1 * MB)}`,
    // Large, without the text: not counted.
    "big_none.txt": filler(1.2 * MB),
    "ok.txt": "a needle\n",
  });
  await git(root, "init", "-q");
  await git(root, "add", "-A");
  await git(root, "commit", "-qm", "init");
  await new Promise((resolve) => setTimeout(resolve, 60));
  return root;
}

/** The skipped files an answer names, as `path kind bytes`. */
function named(found: Awaited<ReturnType<typeof findInProject>>): string[] {
  return found.skippedFiles.map((f) => `${f.path} ${f.kind} ${f.bytes}`);
}

Deno.test("find counts files over 1 MB that hold the text anywhere, on every path", async () => {
  const root = await project();
  const want = { binary: 1, too_large: 2, not_utf8: 1 };
  const size = (rel: string) => Deno.statSync(`${root}/${rel}`).size;
  const files = [
    `big_end.txt too_large ${size("big_end.txt")}`,
    `big_mark.txt too_large ${size("big_mark.txt")}`,
    "bin.dat binary 8",
    "latin1.txt not_utf8 12",
  ];
  try {
    for (const pattern of ["needle", "ne+dle"]) {
      for (const ignoreCase of [false, true]) {
        for (const useGit of [true, false]) {
          const ask = { pattern, maxResults: 30, ignoreCase, useGit };
          const what = JSON.stringify(ask);
          resetFind();
          const cold = await findInProject(root, ask);
          assert.deepEqual(cold.skipped, want, `cold ${what}`);
          assert.deepEqual(named(cold), files, `cold ${what}`);
          assert.deepEqual(cold.matches, ["ok.txt:1:a needle"], `cold ${what}`);
          // Warm: the workers alone (summaries kept from the first search), then git's help.
          for (const grepAfterMs of [600_000, 600_000, 0]) {
            const warm = await findInProject(root, { ...ask, grepAfterMs });
            assert.equal(warm.warm, true);
            assert.deepEqual(warm.skipped, want, `warm ${grepAfterMs} ${what}`);
            assert.deepEqual(named(warm), files, `warm ${grepAfterMs} ${what}`);
          }
          // One-shot (`call find`): streamed from git, git grep's help, the full listing.
          for (const grepAfterMs of [600_000, 0]) {
            const once = await findInProject(root, { ...ask, grepAfterMs, oneShot: true });
            assert.deepEqual(once.skipped, want, `one-shot ${grepAfterMs} ${what}`);
            assert.deepEqual(named(once), files, `one-shot ${grepAfterMs} ${what}`);
          }
        }
      }
    }
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});
