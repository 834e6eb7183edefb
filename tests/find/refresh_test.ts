/**
 * A kept git listing whose folders changed but whose files did not (a file written by a rename,
 * an ignored file made) is kept, with its new times, and searched again (`lib/find/refresh.ts`);
 * a file added, removed or renamed, a new folder that is not ignored, or a changed ignore file
 * still makes find list again, and what changed is found.
 */
import assert from "node:assert/strict";
import { findInProject, type FindResult, resetFind } from "../../lib/find/mod.ts";
import { git, tempProject, writeFiles } from "../helpers/project.ts";

function find(root: string, pattern = "needle", useGit = true): Promise<FindResult> {
  return findInProject(root, { pattern, maxResults: 100, ignoreCase: false, useGit });
}

/** Lets modification times move past the "may have changed meanwhile" window. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

/** Writes `path` as an editor (or localexec) does: a new file renamed over the old one. */
async function renameWrite(root: string, path: string, text: string): Promise<void> {
  await Deno.writeTextFile(`${root}/${path}.tmp-write`, text);
  await Deno.rename(`${root}/${path}.tmp-write`, `${root}/${path}`);
}

async function project(): Promise<string> {
  const root = await tempProject({
    ".gitignore": "node_modules/\n*.log\n",
    "notes.md": "needle in notes\n",
    "src/a.ts": "needle old\n",
    "src/b.ts": "nothing\n",
    "src/deep/c.ts": "needle deep\n",
    "loose.txt": "needle untracked\n",
  });
  await git(root, "init", "-q");
  await git(root, "add", ".gitignore", "notes.md", "src");
  await git(root, "commit", "-qm", "init");
  await settle();
  return root;
}

Deno.test("a file written by a rename keeps git's listing; what it holds now is found", async () => {
  const root = await project();
  try {
    const first = await find(root);
    assert.deepEqual(first.matches, [
      "loose.txt:1:needle untracked",
      "notes.md:1:needle in notes",
      "src/a.ts:1:needle old",
      "src/deep/c.ts:1:needle deep",
    ]);
    assert.equal((await find(root)).warm, true);
    // A tracked file rewritten by a rename: its folder's time changed, its files did not.
    await renameWrite(root, "src/a.ts", "needle new\nneedle two\n");
    await settle();
    const edited = await find(root);
    assert.equal(edited.warm, true, "the listing is kept");
    assert.ok(edited.complete);
    assert.deepEqual(edited.matches.filter((m) => m.startsWith("src/a.ts")), [
      "src/a.ts:1:needle new",
      "src/a.ts:2:needle two",
    ]);
    // At the root (a tracked and an untracked file), and an ignored file and folder made.
    await renameWrite(root, "notes.md", "no longer\n");
    await renameWrite(root, "loose.txt", "needle still untracked\n");
    await writeFiles(root, {
      "node_modules/pkg/index.js": "needle ignored\n",
      "src/debug.log": "needle ignored too\n",
    });
    await settle();
    const more = await find(root);
    assert.equal(more.warm, true, "the listing is kept");
    assert.deepEqual(more.matches, [
      "loose.txt:1:needle still untracked",
      "src/a.ts:1:needle new",
      "src/a.ts:2:needle two",
      "src/deep/c.ts:1:needle deep",
    ]);
    // Kept with the new times: the next search is warm at once.
    assert.equal((await find(root)).warm, true);
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a file added, removed or renamed, a new folder or an ignore file changed: listed again", async () => {
  const root = await project();
  try {
    await find(root);
    const steps: [string, () => Promise<void>, (m: string[]) => boolean][] = [
      ["an untracked file added", async () => {
        await writeFiles(root, { "src/new.ts": "needle new file\n" });
      }, (m) => m.includes("src/new.ts:1:needle new file")],
      ["a folder added", async () => {
        await writeFiles(root, { "src/fresh/d.ts": "needle in a new folder\n" });
      }, (m) => m.includes("src/fresh/d.ts:1:needle in a new folder")],
      ["an empty folder added (a file made there later must be seen)", async () => {
        await Deno.mkdir(`${root}/src/hollow`);
      }, (m) => m.length === 6],
      ["an untracked file removed", async () => {
        await Deno.remove(`${root}/loose.txt`);
      }, (m) => !m.some((line) => line.startsWith("loose.txt"))],
      ["an untracked file renamed", async () => {
        await Deno.rename(`${root}/src/new.ts`, `${root}/src/renamed.ts`);
      }, (m) => m.includes("src/renamed.ts:1:needle new file") && !m.includes("src/new.ts")],
      ["an ignore file rewritten", async () => {
        await renameWrite(root, ".gitignore", "node_modules/\n");
        await writeFiles(root, { "src/debug.log": "needle logged\n" });
      }, (m) => m.includes("src/debug.log:1:needle logged")],
    ];
    for (const [what, change, holds] of steps) {
      await settle();
      await change();
      await settle();
      const after = await find(root);
      assert.equal(after.warm, false, `${what}: listed again`);
      assert.ok(holds(after.matches), `${what}: ${JSON.stringify(after.matches)}`);
      assert.equal((await find(root)).warm, true, `${what}: then kept`);
    }
    // The empty folder added above is watched: a file made there is seen.
    await writeFiles(root, { "src/hollow/e.ts": "needle in the hollow\n" });
    await settle();
    assert.ok((await find(root)).matches.includes("src/hollow/e.ts:1:needle in the hollow"));
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a folder changed inside a repository within the project: listed again", async () => {
  // A clone inside (not added): its own git lists its files, which the project's git does not see.
  const root = await project();
  try {
    await writeFiles(root, { "clone/pkg/inner/y.ts": "needle in the clone\n" });
    await git(`${root}/clone`, "init", "-q");
    await git(`${root}/clone`, "add", "-A");
    await settle();
    assert.ok((await find(root)).matches.includes("clone/pkg/inner/y.ts:1:needle in the clone"));
    assert.equal((await find(root)).warm, true);
    // A file made in a folder of the clone that holds no file of its own, only a folder.
    await writeFiles(root, { "clone/pkg/new.ts": "needle new in the clone\n" });
    await settle();
    const after = await find(root);
    assert.equal(after.warm, false);
    assert.ok(after.matches.includes("clone/pkg/new.ts:1:needle new in the clone"));
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the walk's listing (no git) is listed again after a rename, as before", async () => {
  const root = await tempProject({ "src/a.ts": "needle old\n", "src/b.ts": "x\n" });
  try {
    await settle();
    await find(root, "needle", false);
    await renameWrite(root, "src/a.ts", "needle new\n");
    await settle();
    const after = await find(root, "needle", false);
    assert.equal(after.warm, false);
    assert.deepEqual(after.matches, ["src/a.ts:1:needle new"]);
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});
