/**
 * find's warm path: the kept listing is reused only while git's index, the ignore files and the
 * folders say it still holds; anything created, removed or re-ignored since is seen.
 */
import assert from "node:assert/strict";
import { findInProject, type FindResult, resetFind } from "../../lib/find/mod.ts";
import { git, tempProject, writeFiles } from "../helpers/project.ts";

function find(root: string, pattern = "needle", useGit = true): Promise<FindResult> {
  return findInProject(root, { pattern, maxResults: 100, ignoreCase: false, useGit });
}

/** Lets modification times move past the listing's "may have changed meanwhile" window. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

for (const useGit of [true, false]) {
  const how = useGit ? "git's listing" : "the walk";
  Deno.test(`find reuses ${how} until a folder, an ignore file or the index changes`, async () => {
    const root = await tempProject({
      ".gitignore": "*.log\n",
      "a/one.txt": "needle 1\n",
      "b/deep/two.txt": "needle 2\n",
      "empty/.keep-nothing": "",
    });
    await Deno.remove(`${root}/empty/.keep-nothing`);
    if (useGit) {
      await git(root, "init", "-q");
      await git(root, "add", "a", ".gitignore");
      await git(root, "commit", "-qm", "init");
    }
    await settle();
    const first = await find(root, "needle", useGit);
    assert.deepEqual(first.matches, ["a/one.txt:1:needle 1", "b/deep/two.txt:1:needle 2"]);
    const again = await find(root, "needle", useGit);
    assert.equal(again.warm, true, "the second call reuses the listing");
    assert.deepEqual(again.matches, first.matches);

    await writeFiles(root, { "b/deep/three.txt": "needle 3\n" }); // new file, deep folder
    const created = await find(root, "needle", useGit);
    assert.equal(created.warm, false);
    assert.deepEqual(created.matches, [
      "a/one.txt:1:needle 1",
      "b/deep/three.txt:1:needle 3",
      "b/deep/two.txt:1:needle 2",
    ]);

    await settle();
    await find(root, "needle", useGit); // listed again, kept
    await writeFiles(root, { "empty/new.txt": "needle 4\n" }); // a folder that was empty
    const inEmpty = await find(root, "needle", useGit);
    assert.ok(inEmpty.matches.includes("empty/new.txt:1:needle 4"), String(inEmpty.matches));

    await settle();
    await find(root, "needle", useGit);
    await Deno.writeTextFile(`${root}/.gitignore`, "*.log\nb/\n"); // the same folder's file, edited
    const ignored = await find(root, "needle", useGit);
    assert.deepEqual(ignored.matches, ["a/one.txt:1:needle 1", "empty/new.txt:1:needle 4"]);

    await settle();
    await find(root, "needle", useGit);
    await writeFiles(root, { "a/one.txt": "changed\n" }); // content only: read afresh anyway
    const edited = await find(root, "needle", useGit);
    assert.equal(edited.warm, true);
    assert.deepEqual(edited.matches, ["empty/new.txt:1:needle 4"]);
  });
}

Deno.test("find sees a file git starts tracking although ignored (the index changed)", async () => {
  const root = await tempProject({
    ".gitignore": "*.log\n",
    "app.log": "needle\n",
    "a.txt": "x\n",
  });
  await git(root, "init", "-q");
  await git(root, "add", "a.txt", ".gitignore");
  await settle();
  assert.deepEqual((await find(root)).matches, []);
  assert.equal((await find(root)).warm, true);
  await git(root, "add", "-f", "app.log");
  assert.deepEqual((await find(root)).matches, ["app.log:1:needle"]);
});

Deno.test("a plain text pattern never fails on time, however busy the machine", async () => {
  // A budget of 1 ms is what a starved thread sees; plain text has no budget to overrun.
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) files[`f${i}.txt`] = "some text\n".repeat(500) + "unlinkSync\n";
  const root = await tempProject(files);
  const out = await findInProject(root, {
    pattern: "unlinkSync",
    maxResults: 1000,
    ignoreCase: false,
    stallMs: 1,
  });
  assert.equal(out.count, 300);
});

Deno.test("find says how many matching lines exist when it cuts the answer", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 10; i++) files[`f${i}.txt`] = "hit\n".repeat(3);
  const root = await tempProject(files);
  const out = await findInProject(root, { pattern: "hit", maxResults: 4, ignoreCase: false });
  assert.equal(out.count, 4);
  assert.equal(out.truncated, true);
  assert.ok(out.found > 4, String(out.found));
});

Deno.test("a search whose workers stop fails instead of waiting for ever", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 2000; i++) files[`d${i % 40}/f${i}.txt`] = "text\n".repeat(200);
  const root = await tempProject(files);
  await find(root, "warm"); // listed, workers up
  const running = findInProject(root, { pattern: "(x|y)+z", maxResults: 10, ignoreCase: false });
  await new Promise((resolve) => setTimeout(resolve, 5));
  resetFind(); // terminates the workers under the search
  const outcome = await running.then(() => "answered", (err: Error) => err.message);
  // Either it finished before the workers went, or it says they stopped: it never hangs.
  assert.ok(outcome === "answered" || /stopped|worker/.test(outcome), outcome);
});
