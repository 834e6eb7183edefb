/**
 * find in a one-shot process (`oneshot.ts`): plain text searched on the calling thread gives the
 * answer a warm server gives over the same git work tree (tracked, untracked, ignored, binary,
 * not UTF-8 and too large files), in process over several chunks and end to end: `main.ts call
 * find` against a warm server over stdio.
 */
import assert from "node:assert/strict";
import { findInProject, type FindOptions, resetFind } from "../../lib/find/mod.ts";
import { callMcp, callOnce, connect } from "../helpers/mcp.ts";
import { git, tempProject, writeFiles } from "../helpers/project.ts";

const LATIN1 = new Uint8Array([...new TextEncoder().encode("needle caf"), 0xe9, 10]);
const BINARY = new Uint8Array([...new TextEncoder().encode("needle"), 0, 1, 2, 10]);

/** A git tree whose tracked and untracked files interleave in path order; `many` more files. */
async function _tree(many: number): Promise<string> {
  const files: Record<string, string | Uint8Array> = {
    ".gitignore": "*.log\nbuild/\n",
    "a.txt": "needle 1\nneedle 2 Needle\nhay\n",
    "b_new.txt": "an untracked needle\n",
    "bin.dat": BINARY,
    "c/latin.txt": LATIN1,
    "c/new/deep.txt": "needle in an untracked folder\r\nneedle again\n",
    "d/big.txt": `needle early\n${"x".repeat(1024 * 1024)}\n`,
    "e.log": "needle ignored\n",
    "build/out.txt": "needle ignored too\n",
    "f.ts": "const needle = 1; // NEEDLE\n",
  };
  for (let i = 0; i < many; i++) {
    files[`m/${String(i).padStart(3, "0")}.txt`] = i % 3 ? "hay\n" : `needle ${i}\nneedle ${i}b\n`;
  }
  const root = await tempProject(files);
  await git(root, "init", "-q");
  await git(root, "add", ".gitignore", "a.txt", "bin.dat", "c/latin.txt", "d", "f.ts");
  for (let i = 0; i < many; i += 2) await git(root, "add", `m/${String(i).padStart(3, "0")}.txt`);
  await git(root, "commit", "-qm", "init");
  // Past the window in which a listing does not trust modification times (RACY_MS).
  await new Promise((resolve) => setTimeout(resolve, 100));
  return root;
}

const ASKS: Partial<FindOptions>[] = [
  { pattern: "needle" },
  { pattern: "needle", maxResults: 1 },
  { pattern: "needle", maxResults: 5 },
  { pattern: "needle", maxResults: 70 },
  { pattern: "needle", maxResults: 1000 },
  { pattern: "needle", glob: "m/**" },
  { pattern: "needle", glob: "!m/**" },
  { pattern: "needle", glob: "*.nothing" },
  { pattern: "zqxjkv", maxResults: 1000 },
  { pattern: "caf\u00e9" },
];

Deno.test("find one-shot on this thread answers as a warm server does, chunk by chunk", async () => {
  const root = await _tree(480); // under 500 files: one worker, chunks in order
  try {
    for (const ask of [...ASKS, ...ASKS.map((a) => ({ ...a, useGit: false }))]) {
      const options = { maxResults: 30, ignoreCase: false, ...ask } as FindOptions;
      resetFind();
      await findInProject(root, options); // lists the tree and keeps the listing
      const warm = await findInProject(root, { ...options, grepAfterMs: 600_000 });
      assert.equal(warm.warm, true, JSON.stringify(ask));
      const once = await findInProject(root, { ...options, grepAfterMs: 600_000, oneShot: true });
      // The same answer (the warm one may have read fewer files: their summaries ruled them out).
      assert.deepEqual({ ...once, warm: true, read: warm.read }, warm, JSON.stringify(ask));
      const every = await findInProject(root, { ...options, maxResults: 100_000, oneShot: true });
      assert.ok(!every.truncated && every.complete);
      if (once.complete) assert.equal(once.found, every.found, JSON.stringify(ask));
      // Past the time limit, git grep names the tracked files to read, as in a warm server.
      const grepped = await findInProject(root, { ...options, grepAfterMs: 0, oneShot: true });
      assert.deepEqual(grepped.matches, warm.matches, JSON.stringify(ask));
      assert.equal(grepped.truncated, warm.truncated, JSON.stringify(ask));
      if (!warm.truncated) {
        assert.deepEqual({ ...grepped, read: 0, warm: true }, { ...warm, read: 0 });
      }
    }
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("find one-shot: honest totals, and a search git narrowed still counts the files", async () => {
  const root = await _tree(0);
  try {
    const base = { ignoreCase: false, oneShot: true, grepAfterMs: 600_000 };
    await writeFiles(root, { "a.txt": "needle\n".repeat(5) });
    // One chunk, cut at its limit of 2 lines: a warm server says "of 2" (complete).
    const cut = await findInProject(root, { ...base, pattern: "needle", maxResults: 1 });
    assert.deepEqual([cut.count, cut.found, cut.complete], [1, 2, false]);
    // No match, git grep asked at once: before, no file was counted ("the project has no files").
    const none = await findInProject(root, {
      ...base,
      pattern: "zqxjkv",
      maxResults: 9,
      grepAfterMs: 0,
    });
    assert.deepEqual([none.count, none.complete], [0, true]);
    assert.ok(none.files > 0, `files ${none.files}`);
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("find one-shot still runs a regular expression in a worker, under its timeout", async () => {
  const root = await _tree(0);
  try {
    resetFind();
    // A regular expression that never ends stops with the worker's timeout, never on this thread.
    await writeFiles(root, { "evil.txt": `${"a".repeat(5000)}b\n` });
    await assert.rejects(
      findInProject(root, { pattern: "(a+)+$", maxResults: 30, ignoreCase: false, oneShot: true }),
      /backtracks catastrophically/,
    );
  } finally {
    resetFind();
    await Deno.remove(root, { recursive: true });
  }
});

function _call(root: string, args: Record<string, unknown>): Promise<unknown> {
  return callOnce(root, "find", args);
}

Deno.test("`call find` prints what a warm server answers, untracked files in path order", async () => {
  const root = await _tree(20);
  const conn = await connect(root);
  try {
    for (
      const args of [
        { pattern: "needle" },
        { pattern: "needle", max_results: 3 },
        { pattern: "needle", glob: "c/**" },
        { pattern: "needle", ignore_case: true, max_results: 4 },
        { pattern: "needle\\s\\d", max_results: 2 },
        { pattern: "zqxjkv" },
        { pattern: "needle", glob: "*.nothing" },
        { pattern: "(unclosed" },
      ]
    ) {
      await callMcp(conn.client, "find", args); // the listing is kept from here on
      const warm = await callMcp(conn.client, "find", args);
      const once = await _call(root, args) as typeof warm;
      // Plain text is searched on the calling thread, as over a kept listing: the same answer,
      // field for field, totals included. The rest goes to the workers as a server's first call
      // does, whose count of matching lines beyond the cut can differ from a warm one's: each
      // must still be honest (an exact total is the number of matching lines; "at least" is a
      // lower bound above the lines shown).
      const plain = !args.ignore_case && /^[\w ]+$/.test(args.pattern);
      if (plain) {
        assert.deepEqual(once, warm, JSON.stringify(args));
        continue;
      }
      assert.deepEqual([once.matches, once.error], [warm.matches, warm.error]);
      if (!warm.truncated) {
        assert.deepEqual([once.total, once.at_least], [warm.total, warm.at_least]);
        continue;
      }
      const every = await _call(root, { ...args, max_results: 100_000 }) as typeof warm;
      assert.ok(!every.truncated, JSON.stringify(args));
      const lines = (every.matches as string[]).length;
      for (const [who, answer] of [["warm", warm], ["one-shot", once]] as const) {
        const what = `${who} ${JSON.stringify(args)}: ${JSON.stringify(answer)}`;
        if (answer.total !== undefined) assert.equal(answer.total, lines, what);
        else {
          const atLeast = Number(answer.at_least);
          assert.ok(atLeast > Number(answer.count) && atLeast <= lines, what);
        }
      }
    }
    const all = await _call(root, { pattern: "needle", max_results: 8 }) as { matches: string[] };
    assert.deepEqual(all.matches.slice(0, 4), [
      "a.txt:1:needle 1",
      "a.txt:2:needle 2 Needle",
      "b_new.txt:1:an untracked needle",
      "c/new/deep.txt:1:needle in an untracked folder",
    ]);
  } finally {
    await conn.close();
    await Deno.remove(root, { recursive: true });
  }
});
