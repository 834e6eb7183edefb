/**
 * The three-way merge: named cases, then a seeded fuzz against real `git merge-file` (git's
 * default settings), whose clean results ours must equal byte for byte. `MERGE_FUZZ=N` runs N
 * fuzz cases instead of 300 (`MERGE_FUZZ_SEED` picks another seed); the figures print as one
 * `MERGE_FUZZ {…}` line.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { mergeBytes, mergeText } from "../../lib/tasks/merge/mod.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Merges with `mergeText`, expects a clean result, and checks that git gives the same. */
async function _clean(base: string, ours: string, theirs: string): Promise<string> {
  const out = await mergeText(base, ours, theirs);
  assert.ok(out.clean, `expected a clean merge, got: ${JSON.stringify(out)}`);
  assert.deepEqual(await _oracle([base, ours, theirs]), { code: 0, text: out.text });
  return out.text;
}

/** Merges with `mergeText`, expects a conflict, and checks git's verdict (`gitClean`: merged). */
async function _conflict(
  base: string,
  ours: string,
  theirs: string,
  gitClean = false,
): Promise<string> {
  const out = await mergeText(base, ours, theirs);
  assert.ok(!out.clean, `expected a conflict, got: ${JSON.stringify(out)}`);
  assert.ok(out.conflicts >= 1);
  assert.equal((await _oracle([base, ours, theirs])).code === 0, gitClean);
  return out.reason;
}

/** `git merge-file` on three texts, in a temp folder of its own. */
async function _oracle(texts: string[]): Promise<{ code: number; text: string }> {
  const dir = await Deno.makeTempDir({ prefix: "merge_oracle_" });
  try {
    return await _git(dir, texts);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const FUNCS = [
  "function a() {\n  return 1;\n}\n",
  "\n",
  "function b() {\n  return 2;\n}\n",
  "\n",
  "function c() {\n  return 3;\n}\n",
].join("");

Deno.test("merge takes edits of different functions from both sides", async () => {
  const ours = FUNCS.replace("return 1;", "return 10;");
  const theirs = FUNCS.replace("return 3;", "return 30;");
  const merged = FUNCS.replace("return 1;", "return 10;").replace("return 3;", "return 30;");
  assert.equal(await _clean(FUNCS, ours, theirs), merged);
  assert.equal(await _clean(FUNCS, theirs, ours), merged);
});

Deno.test("merge reports the same line changed on both sides, in base line numbers", async () => {
  const reason = await _conflict("a\nb\nc\n", "a\nB1\nc\n", "a\nB2\nc\n");
  assert.equal(reason, "both sides changed line 2");
  const out = await mergeText(
    FUNCS,
    FUNCS.replace("return 2;", "x"),
    FUNCS.replace("return 2;", "y"),
  );
  assert.deepEqual(out, { clean: false, conflicts: 1, reason: "both sides changed line 6" });
});

Deno.test("merge counts separate conflicts as git does", async () => {
  const ours = FUNCS.replace("return 1;", "return 10;").replace("return 3;", "return 30;");
  const theirs = FUNCS.replace("return 1;", "return 11;").replace("return 3;", "return 33;");
  assert.deepEqual(await mergeText(FUNCS, ours, theirs), {
    clean: false,
    conflicts: 2,
    reason: "both sides changed line 2",
  });
});

Deno.test("merge accepts the identical change made on both sides", async () => {
  const ours = FUNCS.replace("return 2;", "return 22;");
  assert.equal(await _clean(FUNCS, ours, ours), ours);
  const theirs = ours.replace("return 3;", "return 33;");
  assert.equal(await _clean(FUNCS, ours, theirs), theirs);
  // Overlapping but not identical changes whose sides end up reading the same also merge.
  assert.equal(await _clean("a\nb\nc\nd\n", "a\nX\nc\nd\n", "a\nX\nc\nd\nz\n"), "a\nX\nc\nd\nz\n");
});

Deno.test("merge takes an append at the end and an edit at the start", async () => {
  assert.equal(
    await _clean(FUNCS, FUNCS + "// end\n", "// start\n" + FUNCS),
    "// start\n" + FUNCS + "// end\n",
  );
});

Deno.test("merge reports changes that touch, with no unchanged line between them", async () => {
  assert.equal(
    await _conflict("a\nb\nc\nd\n", "a\nB\nc\nd\n", "a\nb\nC\nd\n"),
    "both sides changed lines 2-3",
  );
  assert.equal(await _clean("a\nb\nc\nd\n", "a\nB\nc\nd\n", "a\nb\nc\nD\n"), "a\nB\nc\nD\n");
  await _conflict("a\nb\nc\n", "a\nx\nb\nc\n", "a\nB\nc\n");
});

Deno.test("merge settles repeated lines where git slides its diff", async () => {
  // Either blank line may be the deleted one; git slides the deletion down, clear of line 1.
  assert.equal(await _clean("x\n\n\ny\nz\n", "x\n\ny\nz\n", "X\n\n\ny\nz\n"), "X\n\ny\nz\n");
  assert.equal(await _clean("x\n\n\ny\nz\n", "x\n\ny\nz\n", "x\n\n\ny\nZ\n"), "x\n\ny\nZ\n");
  // The same edit on both sides, where "w" could pair with either of two lines.
  const ours = "c\nw\na\nw\nb\n";
  assert.equal(await _clean("c\nw\nd\n}\nb\n", ours, "top\n" + ours), "top\n" + ours);
});

Deno.test("merge reports a merge that hangs on how git pairs repeated lines", async () => {
  // Git merges this cleanly to "a\nb\n" because its diff of base -> theirs deletes "b" and adds
  // it at the end; adding "a" first and deleting the old "a" is as short, and would conflict.
  const reason = await _conflict("b\na\n", "a\n", "a\nb\n", true);
  assert.equal(
    reason,
    "both sides changed lines 1-2, where repeated lines pair up in more than one way",
  );
});

Deno.test("merge sets aside a common line amid new ones exactly as git's diff does", async () => {
  // Theirs' lone "a" between nine new lines is one git's diff leaves out (it counts it as new
  // rather than pairing it with one of the base's many "a" lines); pairing it would let this
  // merge come out clean, where git reports a conflict.
  const base = "\nb\n\na\na\na\na\na\n\n\na\na\na\n";
  const ours = "a\na\na\n\nb\n\na\na\nw\nb\na\na\n\n\n";
  const added = Array.from({ length: 9 }, (_, i) => `new ${i + 1}\n`);
  const theirs = ["a\na\na\n\n\n", ...added.slice(0, 5), "a\n", ...added.slice(5)].join("") +
    "a\nw\nb\na\na\n\n\na\na\na\n";
  await _conflict(base, ours, theirs);
  // Amid five new lines git keeps the "a" in its diff (the line counts twice against the new
  // ones), and so must the merge to come out clean here.
  const base2 = "a\na\na\n\na\na\nb\na\n\na\na\n\nc\nc\na\n\n";
  const ours2 = base2.replace("a\na\nb\n", "a\nX\nb\n");
  const theirs2 = base2.replace(
    "\na\na\n\nc\n",
    "\nnew 1\nnew 2\na\nnew 3\nnew 4\nnew 5\na\n\nc\n",
  );
  await _clean(base2, ours2, theirs2);
});

Deno.test("merge keeps CRLF line endings", async () => {
  const base = "one\r\ntwo\r\nthree\r\nfour\r\n";
  const out = await _clean(base, base.replace("one", "ONE"), base.replace("four", "FOUR"));
  assert.equal(out, "ONE\r\ntwo\r\nthree\r\nFOUR\r\n");
  // A side that turned one line's ending into LF changed that line.
  await _conflict(base, base.replace("two\r\n", "TWO\r\n"), base.replace("two\r\n", "two\n"));
});

Deno.test("merge tells a last line without a newline from the same line with one", async () => {
  const base = "a\nb\nc\nd\n";
  assert.equal(await _clean(base, "A\nb\nc\nd\n", "a\nb\nc\nd"), "A\nb\nc\nd");
  assert.equal(await _clean("a\nb\nc\nd", "A\nb\nc\nd", "a\nb\nc\nd\ne\n"), "A\nb\nc\nd\ne\n");
  await _conflict("a\nb\nc\nd", "a\nb\nc\nD", "a\nb\nc\nd\ne\n");
});

Deno.test("merge reports different insertions at one place, takes identical ones", async () => {
  const reason = await _conflict("a\nb\n", "a\nx\nb\n", "a\ny\nb\n");
  assert.equal(reason, "both sides inserted lines after line 1");
  assert.equal(await _clean("a\nb\n", "a\nx\nb\n", "a\nx\nb\n"), "a\nx\nb\n");
  assert.equal(await _conflict("", "x\n", "y\n"), "both sides inserted lines after line 0");
});

Deno.test("merge reports a deletion against an edit of the same lines", async () => {
  assert.equal(
    await _conflict("a\nb\nc\nd\n", "a\nd\n", "a\nb\nC\nd\n"),
    "both sides changed lines 2-3",
  );
  assert.equal(await _clean("a\nb\nc\nd\ne\n", "a\nd\ne\n", "a\nb\nc\nd\nE\n"), "a\nd\nE\n");
});

Deno.test("merge reports a deleted file against an edited one, takes a lone deletion", async () => {
  const base = enc.encode("a\nb\n");
  const edited = enc.encode("a\nB\n");
  const out = await mergeBytes(base, null, edited);
  assert.deepEqual(out, {
    clean: false,
    conflicts: 1,
    reason: "one side deleted the file while the other changed it",
  });
  assert.equal((await mergeBytes(base, edited, null)).clean, false);
  assert.deepEqual(await mergeBytes(base, null, base), { clean: true, bytes: null });
  assert.deepEqual(await mergeBytes(base, base, null), { clean: true, bytes: null });
  assert.deepEqual(await mergeBytes(base, null, null), { clean: true, bytes: null });
});

Deno.test("merge takes a binary change from one side and reports one from both", async () => {
  const base = Uint8Array.from([0, 1, 2, 3]);
  const ours = Uint8Array.from([0, 1, 2, 4]);
  const theirs = Uint8Array.from([9, 1, 2, 3]);
  assert.deepEqual(await mergeBytes(base, ours, base), { clean: true, bytes: ours });
  assert.deepEqual(await mergeBytes(base, base, theirs), { clean: true, bytes: theirs });
  assert.deepEqual(await mergeBytes(base, ours, ours), { clean: true, bytes: ours });
  const out = await mergeBytes(base, ours, theirs);
  assert.deepEqual(out, { clean: false, conflicts: 1, reason: "both sides changed a binary file" });
  // Not valid UTF-8 counts as binary, even without a NUL byte.
  const latin1 = Uint8Array.from([0x61, 0xe9, 0x0a, 0x62, 0x0a]);
  const edited = await mergeBytes(latin1, enc.encode("a\nb\n"), enc.encode("x\nb\n"));
  assert.equal(edited.clean, false);
  assert.equal((await mergeBytes(enc.encode("a\n"), latin1, enc.encode("b\n"))).clean, false);
});

Deno.test("merge handles empty files apart from absent ones", async () => {
  const empty = new Uint8Array(0);
  assert.deepEqual(await mergeBytes(empty, enc.encode("a\n"), empty), {
    clean: true,
    bytes: enc.encode("a\n"),
  });
  assert.deepEqual(await mergeBytes(enc.encode("a\n"), empty, enc.encode("a\n")), {
    clean: true,
    bytes: empty,
  });
  assert.equal(await _clean("", "", "b\n"), "b\n");
  assert.equal(await _clean("a\nb\nc\n", "", "a\nb\nc\n"), "");
  await _conflict("a\nb\nc\n", "", "a\nB\nc\n");
  // Empty, not absent: both sides writing into an empty file is a text merge.
  const out = await mergeBytes(empty, enc.encode("x\n"), enc.encode("y\n"));
  assert.deepEqual(out, {
    clean: false,
    conflicts: 1,
    reason: "both sides inserted lines after line 0",
  });
});

Deno.test("merge takes a file both sides created alike, reports different ones", async () => {
  const same = enc.encode("new\n");
  assert.deepEqual(await mergeBytes(null, same, enc.encode("new\n")), { clean: true, bytes: same });
  assert.deepEqual(await mergeBytes(null, same, null), { clean: true, bytes: same });
  assert.deepEqual(await mergeBytes(null, enc.encode("one\n"), enc.encode("two\n")), {
    clean: false,
    conflicts: 1,
    reason: "both sides created the file with different content",
  });
});

Deno.test("merge round-trips bytes of a clean text merge, byte-order mark included", async () => {
  const base = enc.encode("\uFEFFé\nb\nc\nd\n");
  const out = await mergeBytes(
    base,
    enc.encode("\uFEFFé\nB\nc\nd\n"),
    enc.encode("\uFEFFé\nb\nc\nD\n"),
  );
  assert.deepEqual(out, { clean: true, bytes: enc.encode("\uFEFFé\nB\nc\nD\n") });
});

Deno.test("merge reports a change larger than git diffs exactly as a conflict", async () => {
  // Past 500 changes among lines both sides have (new lines do not count: git sets them aside),
  // git's diff may settle for a longer diff than the shortest, so the merge does not guess,
  // even where git merges cleanly as here. Ours reverses a run of lines.
  const base = Array.from({ length: 1200 }, (_, i) => `line ${i}\n`);
  const reversed = (
    n: number,
  ) => [...base.slice(0, 100), ...base.slice(100, 100 + n).reverse(), ...base.slice(100 + n)];
  const theirs = base.map((l, i) => i === 1000 ? "edited\n" : l);
  const reason = await _conflict(base.join(""), reversed(300).join(""), theirs.join(""), true);
  assert.equal(reason, "a side changed too many lines to merge the way git does");
  await _clean(base.join(""), reversed(200).join(""), theirs.join(""));
});

Deno.test("merge gives up on a diff that runs out of time and reports a conflict", async () => {
  const lines = (tag: string) => Array.from({ length: 4000 }, (_, i) => `${tag}${i}\n`).join("");
  const out = await mergeText(lines("b"), lines("o"), lines("t"), { timeoutMs: 1 });
  assert.deepEqual(out, {
    clean: false,
    conflicts: 1,
    reason: "the file is too large or changed too much to merge in time",
  });
});

// ---- Fuzz against git ----

const VOCAB = ["a", "b", "c", "d", "}", ""];

/** A seeded generator of numbers in [0, 1) (mulberry32). */
function _random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function _int(rand: () => number, n: number): number {
  return Math.floor(rand() * n);
}

function _words(rand: () => number, n: number): string[] {
  return Array.from(
    { length: n },
    () => rand() < 0.75 ? VOCAB[_int(rand, VOCAB.length)] : `w${_int(rand, 20)}`,
  );
}

/**
 * `lines` after one to three random edits, half of them near `hot` so sides touch and overlap;
 * now and then one inserts a block of new lines around a blank one (git's diff sets such a
 * common line aside when it occurs often in the other file).
 */
function _edit(rand: () => number, lines: string[], hot: number): string[] {
  const out = lines.slice();
  for (let k = 1 + _int(rand, 3); k > 0; k--) {
    const at = rand() < 0.5
      ? Math.max(0, Math.min(out.length, hot + _int(rand, 5) - 2))
      : _int(rand, out.length + 1);
    const kind = _int(rand, 4);
    const len = 1 + _int(rand, 3);
    if (kind === 0) out.splice(at, 0, ..._words(rand, len));
    else if (kind === 1) out.splice(at, len);
    else if (kind === 2) out.splice(at, len, ..._words(rand, 1 + _int(rand, 3)));
    else if (rand() < 0.5) {
      out.splice(at, 0, ..._fresh(rand, 2 + len), "", ..._fresh(rand, 2 + len));
    }
  }
  return out;
}

/** `n` lines that occur nowhere else. */
function _fresh(rand: () => number, n: number): string[] {
  return Array.from({ length: n }, () => `new ${_int(rand, 1e9)}`);
}

/**
 * The text of `lines`: LF or CRLF endings, now and then one line's ending flipped or no final
 * newline.
 */
function _text(rand: () => number, lines: string[], crlf: boolean): string {
  const eols = lines.map((): string => crlf ? "\r\n" : "\n");
  if (lines.length && rand() < 0.1) eols[_int(rand, lines.length)] = crlf ? "\n" : "\r\n";
  if (lines.length && rand() < 0.15) eols[lines.length - 1] = "";
  return lines.map((l, i) => l + eols[i]).join("");
}

/**
 * One random case: a base of 5-40 lines (now and then half of them blank) and two sides edited
 * from it (now and then alike).
 */
function _fuzzCase(rand: () => number): [string, string, string] {
  const blanks = rand() < 0.3;
  const base = _words(rand, 5 + _int(rand, 36)).map((w) => blanks && rand() < 0.5 ? "" : w);
  const hot = _int(rand, base.length + 1);
  const ours = _edit(rand, base, hot);
  const theirs = rand() < 0.15 ? _edit(rand, ours, hot) : _edit(rand, base, hot);
  const crlf = rand() < 0.15;
  return [_text(rand, base, crlf), _text(rand, ours, crlf), _text(rand, theirs, crlf)];
}

/** The conservative class a conflict's reason names (see lib/tasks/merge/), or the reason. */
function _conservativeClass(reason: string): string {
  if (reason.endsWith("where repeated lines pair up in more than one way")) {
    return "ambiguous pairing";
  }
  if (reason === "a side changed too many lines to merge the way git does") return "large change";
  return `unexplained: ${reason}`;
}

/** `git merge-file -p ours base theirs` in `dir`, with no user or system git config read. */
async function _git(
  dir: string,
  [base, ours, theirs]: string[],
): Promise<{ code: number; text: string }> {
  await Deno.writeTextFile(join(dir, "base"), base);
  await Deno.writeTextFile(join(dir, "ours"), ours);
  await Deno.writeTextFile(join(dir, "theirs"), theirs);
  const out = await new Deno.Command("git", {
    args: ["merge-file", "-p", "ours", "base", "theirs"],
    cwd: dir,
    env: { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: dir },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.code >= 0 && out.code < 127, `git merge-file failed: ${dec.decode(out.stderr)}`);
  return { code: out.code, text: dec.decode(out.stdout) };
}

Deno.test("merge agrees with git merge-file on random edits", async () => {
  const cases = Number(Deno.env.get("MERGE_FUZZ") ?? 300);
  const rand = _random(Number(Deno.env.get("MERGE_FUZZ_SEED") ?? 20260611));
  const dir = await Deno.makeTempDir({ prefix: "merge_fuzz_" });
  const figures = {
    cases,
    cleanByGit: 0,
    cleanByUs: 0,
    equal: 0,
    conservative: {} as Record<string, number>,
    wrongClean: 0,
    sameConflictCount: 0,
    conflictsByBoth: 0,
  };
  const wrong: string[] = [];
  try {
    for (let n = 0; n < cases; n++) {
      const texts = _fuzzCase(rand);
      const git = await _git(dir, texts);
      const us = await mergeText(texts[0], texts[1], texts[2]);
      if (git.code === 0) figures.cleanByGit++;
      if (us.clean) figures.cleanByUs++;
      if (us.clean && git.code === 0 && us.text === git.text) figures.equal++;
      else if (us.clean) {
        figures.wrongClean++;
        if (wrong.length < 3) wrong.push(JSON.stringify({ texts, git, us }));
      } else if (git.code === 0) {
        const kind = _conservativeClass(us.reason);
        figures.conservative[kind] = (figures.conservative[kind] ?? 0) + 1;
      } else {
        figures.conflictsByBoth++;
        if (us.conflicts === git.code) figures.sameConflictCount++;
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  console.log(`MERGE_FUZZ ${JSON.stringify(figures)}`);
  assert.deepEqual(wrong, [], "clean results git would not give");
  assert.equal(figures.wrongClean, 0);
  assert.deepEqual(Object.keys(figures.conservative).filter((k) => k !== "ambiguous pairing"), []);
  const ambiguous = figures.conservative["ambiguous pairing"] ?? 0;
  assert.ok(ambiguous <= figures.cleanByGit * 0.05, `${ambiguous} conservative conflicts`);
  assert.ok(figures.cleanByGit >= cases * 0.25, "the fuzz should make clean merges too");
});
