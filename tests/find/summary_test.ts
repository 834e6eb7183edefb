/**
 * find's file summaries: a warm search skips a file whose summary rules the text out, and never a
 * file that changed since it was summarized (same size and modification time included).
 */
import assert from "node:assert/strict";
import { findInProject, type FindResult, resetFind } from "../../lib/find/mod.ts";
import { git, tempProject } from "../helpers/project.ts";

function find(root: string, pattern: string, options: { ignoreCase?: boolean } = {}) {
  return findInProject(root, {
    pattern,
    maxResults: 100,
    ignoreCase: options.ignoreCase ?? false,
    grepAfterMs: 60_000, // the workers alone: git's help would hide what they skip
  });
}

/**
 * Lets change times move past the "racily clean" window (see `ListingMessage.stamps`): Deno gives
 * them in whole seconds, so a file is summarized only once its change is over a second old.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1100));

async function project(files: Record<string, string>, useGit: boolean): Promise<string> {
  const root = await tempProject(files);
  if (useGit) {
    await git(root, "init", "-q");
    await git(root, "add", "-A");
    await git(root, "commit", "-qm", "init");
  }
  await settle();
  return root;
}

function files(n: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i++) out[`src/f${String(i).padStart(3, "0")}.txt`] = `line of file ${i}\n`;
  return out;
}

/** Runs one full scan so every file gets its summary, then lets the listing settle. */
async function summarized(root: string): Promise<FindResult> {
  await find(root, "qqqqzzzz"); // lists (cold)
  const warm = await find(root, "qqqqzzzz"); // reads every file, writes the summaries
  assert.equal(warm.warm, true);
  return warm;
}

for (const useGit of [true, false]) {
  const how = useGit ? "git's listing" : "the walk";
  Deno.test(`find's summaries skip files that cannot hold the text (${how})`, async () => {
    const root = await project(files(200), useGit);
    try {
      const first = await summarized(root);
      assert.equal(first.read, 200, "the first warm scan reads every file");
      const none = await find(root, "zzzzqqqq");
      assert.deepEqual([none.count, none.files, none.read], [0, 200, 0]);
      const one = await find(root, "file 123\n".trim());
      assert.deepEqual(one.matches, ["src/f123.txt:1:line of file 123"]);
      assert.ok(one.read < 30, `a rare text opens few files (${one.read})`);
      // Too short to summarize, case-insensitive, or a regular expression without required text:
      // every file is read, and the answers are the same.
      assert.equal((await find(root, "12")).read, 200);
      assert.equal((await find(root, "FILE 7\n".trim(), { ignoreCase: true })).count, 11);
      assert.equal((await find(root, "f.le 1[0-9]$")).count, 10);
      const regex = await find(root, "of file 19[0-9]$");
      assert.equal(regex.count, 10);
      assert.ok(regex.read < 200, "a regular expression's required text uses the summaries too");
    } finally {
      resetFind();
      await Deno.remove(root, { recursive: true });
    }
  });

  Deno.test(`find's summaries never hide a changed file (${how})`, async () => {
    const root = await project(files(40), useGit);
    try {
      await summarized(root);
      const path = `${root}/src/f007.txt`;
      const before = await Deno.stat(path);
      // Same size, same modification time: only the change time (and content) differ.
      await Deno.writeTextFile(path, "line of FEED 7\n"); // "line of file 7\n" before
      await Deno.utime(path, before.atime!, before.mtime!);
      assert.equal((await Deno.stat(path)).size, before.size);
      const edited = await find(root, "FEED");
      assert.deepEqual(edited.matches, ["src/f007.txt:1:line of FEED 7"]);

      // Replaced by a new file (a new inode) with the old times.
      await settle();
      await find(root, "qqqqzzzz"); // summarizes the edit
      const other = `${root}/f007.new`;
      await Deno.writeTextFile(other, "line of BEEF 7\n");
      await Deno.utime(other, before.atime!, before.mtime!);
      await Deno.rename(other, path);
      const replaced = await find(root, "BEEF");
      assert.equal(replaced.count, 1, String(replaced.matches));

      // Written while the listing and summaries are fresh: found at once, and on the next call.
      await Deno.writeTextFile(`${root}/src/f011.txt`, "line of CAFE 11\n");
      assert.equal((await find(root, "CAFE")).count, 1);
      assert.equal((await find(root, "CAFE")).count, 1);
    } finally {
      resetFind();
      await Deno.remove(root, { recursive: true });
    }
  });
}
