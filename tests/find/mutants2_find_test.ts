/**
 * Tests written for the survivors of the second `deno task mutate --changed d9b33cd` run (merged
 * main; docs/MUTATION.md) in lib/find: each fails with its mutant planted and passes on the code.
 */
import assert from "node:assert/strict";
import { findInProject, releaseIdle } from "../../lib/find/mod.ts";
import { SKIPPED_NAMED } from "../../lib/find/protocol.ts";
import { tempProject } from "../helpers/project.ts";

/** A one-shot find of "needle", as `localexec call find` runs it. */
const ONE_SHOT = {
  pattern: "needle",
  maxResults: 30,
  ignoreCase: false,
  oneShot: true,
  grepAfterMs: 600_000,
};

// find/mod.ts:49: `if (!_engine) return;` → `if (false) return;`
Deno.test("releaseIdle before any find has run does nothing and does not throw", async () => {
  await releaseIdle();
  await releaseIdle();
});

// find/oneshot.ts:87: `if (out.skippedFiles.length < SKIPPED_NAMED)` → `<=`
Deno.test("find one-shot names at most SKIPPED_NAMED skipped files and counts them all", async () => {
  const files: Record<string, Uint8Array | string> = { "ok.txt": "a needle\n" };
  const count = SKIPPED_NAMED + 2;
  for (let i = 0; i < count; i++) {
    files[`bin${i}.dat`] = new Uint8Array([110, 101, 101, 100, 108, 101, 0, i]);
  }
  const root = await tempProject(files);
  try {
    const found = await findInProject(root, ONE_SHOT);
    assert.deepEqual(found.matches, ["ok.txt:1:a needle"]);
    assert.equal(found.skipped.binary, count);
    assert.equal(found.skippedFiles.length, SKIPPED_NAMED);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

// find/read.ts:157: `if (!anywhere) return { lines: [] };` → `if (false) …`
Deno.test("find one-shot counts a file over 1 MB as skipped only when it holds the text", async () => {
  const MB = 1024 * 1024;
  const filler = ("y".repeat(79) + "\n").repeat(Math.ceil(1.2 * MB / 80));
  const root = await tempProject({
    "big_none.txt": filler,
    "big_end.txt": `${filler}needle\n`,
    "ok.txt": "a needle\n",
  });
  try {
    const found = await findInProject(root, ONE_SHOT);
    assert.equal(found.skipped.too_large, 1);
    assert.deepEqual(found.skippedFiles.map((f) => f.path), ["big_end.txt"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
