/**
 * find's file summaries: a warm search skips a file whose summary rules the text out, and never a
 * file that changed since it was summarized (same size and modification time included).
 */
import assert from "node:assert/strict";
import { findInProject, type FindResult, resetFind } from "../../lib/find/mod.ts";
import { TIME_STEP_MS } from "../../lib/find/protocol.ts";
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
 * Lets change times move past the "racily clean" window (see `ListingMessage.stamps`): a file is
 * summarized only once its change is over `TIME_STEP_MS` old.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, TIME_STEP_MS + 100));

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

Deno.test("find's summaries agree with a plain read of every file through random edits", async () => {
  // Words from a small alphabet, so needles often occur, across files and after edits.
  let seed = 7; // mulberry32
  const rand = (n: number) => {
    let t = (seed = (seed + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 2 ** 32 * n) | 0;
  };
  const word = () => Array.from({ length: 3 + rand(4) }, () => "abcdefgh"[rand(8)]).join("");
  const text = () =>
    Array.from({ length: 1 + rand(4) }, () => `${word()} ${word()}`).join("\n") + "\n";
  const names = Array.from(
    { length: 60 },
    (_, i) => `d${i % 4}/f${String(i).padStart(2, "0")}.txt`,
  );
  const root = await project(Object.fromEntries(names.map((n) => [n, text()])), true);
  try {
    await summarized(root);
    let checked = 0;
    for (let round = 0; round < 40; round++) {
      const name = names[rand(names.length)];
      const path = `${root}/${name}`;
      const before = await Deno.stat(path);
      // (A file replaced by rename changes its folder: the listing is made again, summaries and
      // all; that case is in the test above.)
      const kind = [0, 1, 3][rand(3)];
      if (kind === 0) { // same size, old times: only ctime tells
        const old = await Deno.readTextFile(path);
        const next = Array.from(old, (c) => (c === "\n" || c === " " ? c : "abcdefgh"[rand(8)]))
          .join("");
        await Deno.writeTextFile(path, next);
        await Deno.utime(path, before.atime!, before.mtime!);
      } else if (kind === 1) {
        await Deno.writeTextFile(path, text(), { append: true });
      } else if (kind === 2) { // replaced by a new file with the old times
        await Deno.writeTextFile(`${path}.new`, text());
        await Deno.utime(`${path}.new`, before.atime!, before.mtime!);
        await Deno.rename(`${path}.new`, path);
      } else {
        await Deno.truncate(path, Math.floor(before.size / 2));
      }
      if (round % 10 === 9) await settle(); // some edits get summaries of their own
      const now = (await Deno.readTextFile(path)).replaceAll("\n", " ").split(" ").filter(Boolean);
      for (let q = 0; q < 3; q++) {
        // First a word the edited file holds now (the case a stale summary would hide).
        const needle = q === 0 && now.length ? now[rand(now.length)] : word();
        const found = await find(root, needle);
        const expected: string[] = [];
        for (const n of [...names].sort()) {
          const lines = (await Deno.readTextFile(`${root}/${n}`)).split("\n");
          if (lines.at(-1) === "") lines.pop();
          lines.forEach((line, i) =>
            line.includes(needle) && expected.push(`${n}:${i + 1}:${line.trimEnd()}`) // find shows no trailing blanks
          );
        }
        assert.deepEqual(found.matches, expected, `round ${round}, "${needle}"`);
        checked++;
      }
    }
    assert.equal(checked, 120);
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});
