/**
 * find's answers against what its description promises (a JavaScript regular expression, line by
 * line, as `scripts/parity_find.ts` checks against ripgrep): each test pins one wrong answer that
 * the parity run found.
 */
import assert from "node:assert/strict";
import find from "../../tools/find.ts";
import { requiredLiteral } from "../../lib/find/literal.ts";
import { callJson, git, tempProject, testContext } from "../helpers/project.ts";
import { callOnce } from "../helpers/mcp.ts";

type Found = { status: string; matches?: string[]; count?: number; error?: string };

async function run(root: string, args: Record<string, unknown>): Promise<Found> {
  return await callJson(find, args, testContext(root)) as Found;
}

Deno.test("find tries a lookaround on each line alone, not against the next line", async () => {
  // The whole text was searched first: `(?!\s)` saw the newline after a line's last `)`, and
  // `(?<!\s)` the one before a line's first `#`, so those lines were never tried.
  const root = await tempProject({ "a.txt": "f(x)\nf(x) y\n#top\n  #indented\n" });
  assert.deepEqual((await run(root, { pattern: "\\)(?!\\s)" })).matches, ["a.txt:1:f(x)"]);
  assert.deepEqual((await run(root, { pattern: "(?<!\\s)#" })).matches, ["a.txt:3:#top"]);
  assert.deepEqual((await run(root, { pattern: "\\)(?!\\s)|zz", ignore_case: true })).matches, [
    "a.txt:1:f(x)",
  ]);
});

Deno.test("find reports no line of an empty file", async () => {
  // A pattern that matches the empty string answered `empty.txt:1:` for a file with no lines.
  const root = await tempProject({ "empty.txt": "", "one.txt": "a\n" });
  for (const pattern of ["^", "x*", "$", "^$"]) {
    const out = await run(root, { pattern });
    assert.deepEqual(out.matches, pattern === "^$" ? [] : ["one.txt:1:a"], pattern);
  }
});

Deno.test("find keeps the lines where an optional character beyond U+FFFF is absent", async () => {
  // `ab😀?` required "ab" and half of the emoji: every line without the emoji was ruled out.
  assert.equal(requiredLiteral("ab😀?"), undefined);
  assert.equal(requiredLiteral("abc😀?"), "abc");
  assert.equal(requiredLiteral("ab😀+"), "ab😀");
  const root = await tempProject({ "a.txt": "abx\nab😀\nzz\n" });
  assert.deepEqual((await run(root, { pattern: "ab😀?" })).matches, [
    "a.txt:1:abx",
    "a.txt:2:ab😀",
  ]);
});

Deno.test("find takes an escape valid without the u flag beside a character beyond U+FFFF", async () => {
  // The `u` flag, chosen for the emoji, made `\-` an invalid escape: an error for a valid pattern.
  const root = await tempProject({ "a.txt": "😀-x\n" });
  const out = await run(root, { pattern: "😀\\-x" });
  assert.equal(out.status, "ok", out.error);
  assert.deepEqual(out.matches, ["a.txt:1:😀-x"]);
  // A `u` escape keeps its meaning: an invalid one is still an error, not a literal search.
  assert.equal((await run(root, { pattern: "\\p{Nope}😀" })).status, "error");
});

Deno.test({
  // With ignore_case and text beyond ASCII there was no byte prefilter, so every binary, large or
  // non-UTF-8 file counted as skipped "holding the pattern's text" (59k tree: `straße` -i, 0
  // matches, skipped 440). Now such a text is sought by its ASCII part first (`stra`).
  name: "find counts as skipped only the files that hold a case-insensitive non-ASCII text",
  async fn() {
    const root = await tempProject({
      "bin.dat": Uint8Array.from([97, 98, 0, 99, 10]),
      "a.txt": "STRASSE\n",
    });
    const out = await run(root, { pattern: "straße", ignore_case: true }) as Found & {
      skipped?: number;
    };
    assert.deepEqual(out.matches, []);
    assert.equal(out.skipped, 0);
  },
});

Deno.test("find answers an ordinary regex on a line with a long run of word characters", async () => {
  // V8 tried `\w+Error\(` at each start of a long run of word characters, each to its end,
  // quadratic: a 40,000-character run took over a second and the search failed with the
  // "backtracks catastrophically" error (the 59k tree's deno/libs/eszip/testdata/dotland.json, a
  // 20,432-character run, where `rg` answers 3,213 lines). `lib/find/runs.ts` guards the run.
  const root = await tempProject({
    "long.txt": `${"x".repeat(40_000)} Error(\n`,
    "b.ts": "throw new TypeError(1)\n",
  });
  const out = await run(root, { pattern: "\\w+Error\\(", max_results: 100 });
  assert.equal(out.status, "ok", out.error);
  assert.deepEqual(out.matches, ["b.ts:1:throw new TypeError(1)"]);
});

Deno.test("find's walk keeps a file that a .gitignore line ending in a lone backslash names", async () => {
  // git never matches such a pattern (the backslash escapes nothing) and lists `tail\`; find's
  // walk read the backslash as a literal one and left the file out. An escaped one still counts.
  const root = await tempProject({
    ".gitignore": "tail\\\nesc\\\\\n",
    "tail\\": "needle\n",
    "esc\\": "needle\n",
  });
  assert.deepEqual((await run(root, { pattern: "needle" })).matches, ["tail\\:1:needle"]);
});

Deno.test({
  // git's listing says what was committed, not what is on disk: a tracked file replaced by a
  // symbolic link (`git status`: T) was opened through the link, so find read a file outside the
  // project and reported its lines, though its description says it "does not follow symbolic
  // links" (rg leaves it out). A file that gives lines is now shown only when its real path is
  // reached without a link (`direct` in lib/find/read.ts).
  name: "find does not follow a symbolic link that replaced a tracked file",
  async fn() {
    const outside = await tempProject({ "secret.txt": "needle outside\n", "c.txt": "needle c\n" });
    const root = await tempProject({
      "a.txt": "needle in\n",
      "b.txt": "plain\n",
      "sub/c.txt": "plain\n",
    });
    await git(root, "init", "-q");
    await git(root, "add", "-A");
    await git(root, "commit", "-qm", "x");
    await Deno.remove(`${root}/b.txt`);
    await Deno.symlink(`${outside}/secret.txt`, `${root}/b.txt`);
    // A folder on the way replaced by a link too: `sub/c.txt` now reads the outside `c.txt`.
    await Deno.remove(`${root}/sub`, { recursive: true });
    await Deno.symlink(outside, `${root}/sub`);
    assert.deepEqual((await run(root, { pattern: "needle" })).matches, ["a.txt:1:needle in"]);
    assert.deepEqual(
      (await run(root, { pattern: "need.e", max_results: 5 })).matches,
      ["a.txt:1:needle in"],
      "a regular expression, searched by the workers",
    );
    // `localexec call find` searches plain text on its own thread (oneshot.ts): the same answer.
    const once = await callOnce(root, "find", { pattern: "needle" }) as Found;
    assert.deepEqual(once.matches, ["a.txt:1:needle in"]);
  },
});

Deno.test("find searches a git repository nested in the project and not added to it", async () => {
  // A clone inside the project and not added (`git status`: `clone/`) is one untracked entry to
  // git, whose files were never listed: find answered nothing from them, where rg and find's own
  // walk (no git) search them. Such a folder is now listed by its own git, with its own ignore
  // rules, as is a checked-out submodule (docs/DECISIONS.md).
  const root = await tempProject({
    "top.txt": "needle\n",
    "clone/inner.txt": "needle\n",
    "clone/.gitignore": "*.log\n",
    "clone/own.log": "needle\n",
    "clone/.gitmodules": '[submodule "m"]\n\tpath = m\n\turl = ./m\n',
    "clone/m/f.txt": "needle\n",
    "vendor/v.txt": "needle\n",
    "vendor/deep/r2/z.txt": "needle\n",
    "sub/s.txt": "needle\n",
  });
  await git(root, "init", "-q");
  await git(root, "add", "top.txt");
  await git(root, "commit", "-qm", "x");
  await git(`${root}/clone`, "init", "-q");
  // A submodule of the clone, named in its .gitmodules.
  await git(`${root}/clone/m`, "init", "-q");
  await git(`${root}/clone/m`, "add", "-A");
  await git(`${root}/clone/m`, "commit", "-qm", "m");
  await git(`${root}/clone`, "add", "m");
  await git(`${root}/vendor/deep/r2`, "init", "-q");
  // A repository added as a gitlink (as a submodule is).
  await git(`${root}/sub`, "init", "-q");
  await git(`${root}/sub`, "add", "-A");
  await git(`${root}/sub`, "commit", "-qm", "s");
  await git(root, "add", "sub");
  assert.deepEqual((await run(root, { pattern: "needle" })).matches, [
    "clone/inner.txt:1:needle",
    "clone/m/f.txt:1:needle",
    "sub/s.txt:1:needle",
    "top.txt:1:needle",
    "vendor/deep/r2/z.txt:1:needle",
    "vendor/v.txt:1:needle",
  ]);
});

Deno.test({
  // The folders that vouch for a kept git listing were those holding listed files, with their
  // parents, and the untracked folders git names (`logs/`); a folder below those that holds only
  // ignored files (`logs/deep/er/`) was in none, so a file created there changed no folder find
  // checks, and every later search of the warm server missed it. `git ls-files -o -i --directory`,
  // run beside the listing of the untracked files, names the ignored files whose folders vouch too.
  name: "a warm find sees a file created in a folder that held only ignored files",
  async fn() {
    const root = await tempProject({
      "a.ts": "needle tracked\n",
      ".gitignore": "*.log\n",
      "logs/x.log": "x\n",
      "logs/deep/er/z.log": "x\n",
    });
    await git(root, "init", "-q");
    await git(root, "add", "-A");
    await git(root, "commit", "-qm", "x");
    // Older than find's racy window, so the listing is kept.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const ctx = testContext(root);
    const once = await callJson(find, { pattern: "needle" }, ctx) as Found;
    assert.deepEqual(once.matches, ["a.ts:1:needle tracked"]);
    await Deno.writeTextFile(`${root}/logs/deep/er/new.ts`, "needle new\n");
    const again = await callJson(find, { pattern: "needle" }, ctx) as Found;
    assert.deepEqual(again.matches, ["a.ts:1:needle tracked", "logs/deep/er/new.ts:1:needle new"]);
  },
});
