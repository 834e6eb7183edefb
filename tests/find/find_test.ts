import assert from "node:assert/strict";
import { cpuUsage } from "node:process";
import find from "../../tools/find.ts";
import { isIgnored, parseIgnore } from "../../lib/find/ignore.ts";
import { cutLine } from "../../lib/find/scan.ts";
import { literalOf, requiredLiteral } from "../../lib/find/literal.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { callJson, git, tempProject, testContext, writeFiles } from "../helpers/project.ts";

type FindResult = {
  status: string;
  matches?: string[];
  count?: number;
  truncated?: boolean;
  skipped?: number;
  total?: number;
  at_least?: number;
  skipped_kinds?: { binary: number; too_large: number; not_utf8: number };
  note?: string;
  error?: string;
};

async function run(root: string, args: Record<string, unknown>): Promise<FindResult> {
  return await callJson(find, args, testContext(root)) as FindResult;
}

/** Fails (instead of hanging) when `promise` takes longer than `ms`. */
async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A project whose ignore files exercise every rule; `needle` marks each file. */
const IGNORE_PROJECT: Record<string, string> = {
  ".gitignore": "*.log\nbuild/\n!keep.log\n/rootonly.txt\ndocs/**/*.tmp\n",
  "app.log": "needle\n",
  "keep.log": "needle\n",
  "rootonly.txt": "needle\n",
  "build/out.txt": "needle\n",
  "src/rootonly.txt": "needle\n",
  "src/main.py": "needle\n",
  "src/.gitignore": "generated.py\n!app.log\n",
  "src/generated.py": "needle\n",
  "src/app.log": "needle\n",
  "docs/a/b/x.tmp": "needle\n",
  "docs/a/b/x.md": "needle\n",
  "secret.txt": "needle\n",
};
const IGNORE_EXPECTED = [
  "docs/a/b/x.md:1:needle",
  "keep.log:1:needle",
  "src/app.log:1:needle",
  "src/main.py:1:needle",
  "src/rootonly.txt:1:needle",
];

Deno.test("find honours nested .gitignore files, negations and .git/info/exclude", async () => {
  const root = await tempProject({
    ...IGNORE_PROJECT,
    ".git/info/exclude": "secret.txt\n",
    ".git/config.txt": "needle\n",
  });
  const out = await run(root, { pattern: "needle" });
  assert.equal(out.status, "ok");
  assert.deepEqual(out.matches, IGNORE_EXPECTED);
  assert.equal(out.truncated, false);
});

Deno.test("find uses git's listing in a git work tree with the same result", async () => {
  const root = await tempProject(IGNORE_PROJECT);
  await git(root, "init", "-q");
  await writeFiles(root, { ".git/info/exclude": "secret.txt\n" });
  await git(root, "add", "src/main.py", ".gitignore");
  await git(root, "commit", "-qm", "init");
  const out = await run(root, { pattern: "needle" });
  assert.deepEqual(out.matches, IGNORE_EXPECTED);
  // Tracked (src/main.py) and untracked files are merged in path order, also when cut short.
  const cut = await run(root, { pattern: "needle", max_results: 4 });
  assert.deepEqual(cut.matches, IGNORE_EXPECTED.slice(0, 4));
  assert.equal(cut.truncated, true);
  // As in git, a tracked file is searched even when an ignore rule matches it.
  await git(root, "add", "-f", "app.log");
  const tracked = await run(root, { pattern: "needle" });
  assert.deepEqual(tracked.matches, ["app.log:1:needle", ...IGNORE_EXPECTED]);
});

Deno.test("find always skips .git/ and .localexec/ and does not follow links", async () => {
  const root = await tempProject({
    "a.txt": "needle\n",
    ".git/HEAD": "needle\n",
    ".localexec/t1.log": "needle\n",
    "sub/.localexec/x.txt": "needle\n",
  });
  const outside = await tempProject({ "far.txt": "needle\n" });
  await Deno.symlink(`${outside}/far.txt`, `${root}/link.txt`);
  await Deno.symlink(outside, `${root}/linkdir`);
  const out = await run(root, { pattern: "needle" });
  assert.deepEqual(out.matches, ["a.txt:1:needle"]);
  await Deno.remove(`${root}/.git`, { recursive: true });
  await git(root, "init", "-q");
  await git(root, "add", "-A");
  const viaGit = await run(root, { pattern: "needle" });
  assert.deepEqual(viaGit.matches, ["a.txt:1:needle"]);
});

Deno.test("find skips binary, large and non-UTF-8 files and counts them", async () => {
  const binary = new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1, 2]);
  const latin1 = new Uint8Array([...new TextEncoder().encode("needle caf"), 0xe9, 10]);
  const large = "needle\n".repeat(Math.ceil((1024 * 1024 + 10) / 7));
  const root = await tempProject({
    "a.bin": binary,
    "b.txt": latin1,
    "c.txt": large,
    "d.txt": "needle ünïcode\n",
    "e.txt": "\ufeffneedle with BOM\n",
  });
  const out = await run(root, { pattern: "needle" });
  assert.equal(out.skipped, 3);
  assert.deepEqual(out.skipped_kinds, { binary: 1, too_large: 1, not_utf8: 1 });
  assert.deepEqual(out.matches, ["d.txt:1:needle ünïcode", "e.txt:1:needle with BOM"]);
  const clean = await run(root, { pattern: "needle", glob: "d.txt" });
  assert.equal(clean.skipped, 0);
  assert.equal(clean.skipped_kinds, undefined);
});

Deno.test("find filters paths with glob", async () => {
  const root = await tempProject({
    "src/a.py": "hit\n",
    "src/deep/b.py": "hit\n",
    "src/c.ts": "hit\n",
    "tests/d.py": "hit\n",
    "e.py": "hit\n",
  });
  const names = async (glob: string) => (await run(root, { pattern: "hit", glob })).matches;
  assert.deepEqual(await names("*.py"), [
    "e.py:1:hit",
    "src/a.py:1:hit",
    "src/deep/b.py:1:hit",
    "tests/d.py:1:hit",
  ]);
  assert.deepEqual(await names("src/**/*.py"), ["src/a.py:1:hit", "src/deep/b.py:1:hit"]);
  assert.deepEqual(await names("src/*.py"), ["src/a.py:1:hit"]);
  assert.deepEqual(await names("tests"), ["tests/d.py:1:hit"]);
  assert.deepEqual(await names("*.{ts,md}"), ["src/c.ts:1:hit"]);
  const none = await run(root, { pattern: "hit", glob: "*.rs" });
  assert.deepEqual(none.matches, []);
  assert.match(String(none.note), /no file matches the glob/);
});

Deno.test("find matches case-insensitively only when asked", async () => {
  const root = await tempProject({ "a.txt": "Needle\nneedle\nNEEDLE\nother\n" });
  assert.deepEqual((await run(root, { pattern: "needle" })).matches, ["a.txt:2:needle"]);
  assert.deepEqual((await run(root, { pattern: "needle", ignore_case: true })).matches, [
    "a.txt:1:Needle",
    "a.txt:2:needle",
    "a.txt:3:NEEDLE",
  ]);
});

Deno.test("find matches regular expressions line by line", async () => {
  const root = await tempProject({
    "a.ts": "function add(a, b) {\n  return a + b;\n}\n\nconst x = 1;\n",
  });
  const re = await run(root, { pattern: "^\\s*(function|const)\\s+\\w+" });
  assert.deepEqual(re.matches, ["a.ts:1:function add(a, b) {", "a.ts:5:const x = 1;"]);
  const across = await run(root, { pattern: "\\{\\s+return" });
  assert.deepEqual(across.matches, [], "a match may not span lines");
  const empty = await run(root, { pattern: "^$" });
  assert.deepEqual(empty.matches, ["a.ts:4:"]);
  const literal = await run(root, { pattern: "a \\+ b" });
  assert.deepEqual(literal.matches, ["a.ts:2:return a + b;"]);
  await writeFiles(root, { "crlf.txt": "one\r\ntwo\r\n" });
  assert.deepEqual((await run(root, { pattern: "o$" })).matches, ["crlf.txt:2:two"]);
  assert.deepEqual((await run(root, { pattern: "two$" })).matches, ["crlf.txt:2:two"]);
  const unicode = await run(root, { pattern: "\\p{L} = \\d" });
  assert.deepEqual(unicode.matches, ["a.ts:5:const x = 1;"]);
});

Deno.test("find cuts long lines around the match", async () => {
  const line = `${"x".repeat(3000)}NEEDLE${"y".repeat(3000)}`;
  const root = await tempProject({ "long.txt": `short\n${line}\n` });
  const out = await run(root, { pattern: "NEEDLE" });
  const [hit] = out.matches!;
  assert.ok(hit.startsWith("long.txt:2:…x"), hit.slice(0, 30));
  assert.ok(hit.includes("NEEDLE"));
  assert.ok(hit.endsWith("y…"));
  assert.ok(hit.length < 230, String(hit.length));
  assert.ok(JSON.stringify(out).length < 1000);
});

Deno.test("find stops at max_results in a stable order and says it truncated", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) {
    files[`d${String(i).padStart(2, "0")}/f.txt`] = "hit one\nmiss\nhit two\n";
  }
  const root = await tempProject(files);
  const out = await run(root, { pattern: "hit", max_results: 5 });
  assert.deepEqual(out.matches, [
    "d00/f.txt:1:hit one",
    "d00/f.txt:3:hit two",
    "d01/f.txt:1:hit one",
    "d01/f.txt:3:hit two",
    "d02/f.txt:1:hit one",
  ]);
  assert.equal(out.count, 5);
  assert.equal(out.truncated, true);
  // The search stopped at the 6th line: the 80 lines there are are not all counted, and the
  // answer says so (it once said "of 6 … raise max_results to 6").
  assert.equal(out.at_least, 6);
  assert.equal(out.total, undefined);
  assert.match(String(out.note), /of at least 6 matching lines; narrow/);
  const exact = await run(root, { pattern: "hit", max_results: 80 });
  assert.equal(exact.count, 80);
  assert.equal(exact.truncated, false);
});

Deno.test("find answers a bad pattern with a short error", async () => {
  const root = await tempProject({ "a.txt": "x\n" });
  const out = await run(root, { pattern: "(unclosed" });
  assert.equal(out.status, "error");
  assert.equal(out.error, 'invalid regular expression "(unclosed": Unterminated group');
});

const CATASTROPHIC = [
  { pattern: "(a+)+$", ignore_case: false },
  { pattern: "(a+)+$", ignore_case: true },
  { pattern: "x|(?=(a+)+$)a", ignore_case: false },
  { pattern: "^(a+)+\\1$", ignore_case: true },
];

Deno.test("find stops catastrophic patterns with an error within about 2 s of work", async () => {
  // CPU time, not wall time: on a loaded machine the worker waits for a core, which the stop rule
  // (work spent on one file) rightly does not count; a pattern never stopped would run for hours.
  const root = await tempProject({ "a.txt": "ok\n", "evil.txt": `${"a".repeat(40)}b\n` });
  for (const args of CATASTROPHIC) {
    const before = cpuUsage();
    const out = await within(60_000, run(root, args), args.pattern);
    const used = cpuUsage(before);
    const secs = (used.user + used.system) / 1e6;
    assert.equal(out.status, "error", args.pattern);
    assert.match(String(out.error), /backtracks catastrophically/);
    assert.match(String(out.error), /evil\.txt/);
    assert.ok(secs < 3, `${args.pattern} used ${secs.toFixed(2)} s of CPU`);
  }
});

Deno.test("find keeps the server answering during a catastrophic pattern", async () => {
  const root = await tempProject({ "evil.txt": `${"a".repeat(40)}b\n`, "b.txt": "fine\n" });
  const conn = await connect(root);
  try {
    const slow = callMcp(conn.client, "find", { pattern: "(a+)+$" });
    const started = performance.now();
    const listed = await within(5000, callMcp(conn.client, "list_files", {}), "list_files");
    const listedAfter = performance.now() - started;
    assert.equal(listed.status, "ok");
    const out = await within(10_000, slow, "the catastrophic find");
    const slowAfter = performance.now() - started;
    assert.equal(out.status, "error");
    assert.ok(listedAfter < slowAfter, "list_files answered while find was running");
    const again = await callMcp(conn.client, "find", { pattern: "fine" });
    assert.deepEqual(again.matches, ["b.txt:1:fine"]);
  } finally {
    await conn.close();
  }
});

Deno.test("find works under the read-only preset (--allow-read only)", async () => {
  const root = await tempProject({ ...IGNORE_PROJECT, "evil.txt": `${"a".repeat(40)}b\n` });
  await git(root, "init", "-q");
  const conn = await connect(root, { permissions: [`--allow-read=${root}`] });
  try {
    const out = await callMcp(conn.client, "find", { pattern: "needle" });
    assert.equal(out.status, "ok", JSON.stringify(out));
    assert.deepEqual(out.matches, [...IGNORE_EXPECTED, "secret.txt:1:needle"].sort());
    const evil = await callMcp(conn.client, "find", { pattern: "(a+)+$" });
    assert.match(String(evil.error), /backtracks catastrophically/);
  } finally {
    await conn.close();
  }
});

Deno.test("find stops when the call is cancelled", async () => {
  const root = await tempProject({ "evil.txt": `${"a".repeat(40)}b\n` });
  const controller = new AbortController();
  const ctx = testContext(root, { signal: controller.signal });
  setTimeout(() => controller.abort(), 100);
  const out = await callJson(find, { pattern: "(a+)+$" }, ctx);
  assert.equal(out.status, "error");
  assert.equal(out.error, "cancelled");
});

Deno.test("ignore rules follow git's precedence", () => {
  const root = parseIgnore("", "*.log\n!important.log\nout/\n/top.txt\n\\#hash\n");
  const sub = parseIgnore("sub", "important.log\n");
  assert.equal(isIgnored([root], "a.log", false), true);
  assert.equal(isIgnored([root], "x/important.log", false), false);
  assert.equal(isIgnored([root, sub], "sub/important.log", false), true);
  assert.equal(isIgnored([root], "out", true), true);
  assert.equal(isIgnored([root], "out", false), false);
  assert.equal(isIgnored([root], "top.txt", false), true);
  assert.equal(isIgnored([root], "x/top.txt", false), false);
  assert.equal(isIgnored([root], "#hash", false), true);
});

Deno.test("requiredLiteral finds the text every match contains", () => {
  assert.equal(requiredLiteral("\\w+Error\\("), "Error(");
  assert.equal(requiredLiteral("^\\s*def (\\w+)\\("), "def ");
  assert.equal(requiredLiteral("colou?r_value"), "r_value");
  assert.equal(requiredLiteral("abc+d"), "abc");
  assert.equal(requiredLiteral("x{0,3}yz"), undefined);
  assert.equal(requiredLiteral("foo|barbaz"), undefined);
  assert.equal(requiredLiteral("(foo|bar)bazz"), "bazz");
  assert.equal(requiredLiteral("\\x41BCD"), "BCD");
  assert.equal(requiredLiteral("[abc]+\\u0041xyz"), "xyz");
  assert.equal(requiredLiteral("a\\.b\\.c"), "a.b.c");
});

Deno.test("literalOf finds plain patterns and cutLine keeps short lines", () => {
  assert.equal(literalOf("foo.bar"), undefined);
  assert.equal(literalOf("foo\\.bar"), "foo.bar");
  assert.equal(literalOf("plain text"), "plain text");
  assert.equal(literalOf("a\\d"), undefined);
  assert.equal(cutLine("   indented  ", 3, 1), "indented");
});

Deno.test("find's glob takes a ] right after [ (or [!) as a member of the class", async () => {
  const root = await tempProject({ "]x.txt": "hit\n", "ax.txt": "hit\n", "bx.txt": "hit\n" });
  const names = async (glob: string) => (await run(root, { pattern: "hit", glob })).matches;
  assert.deepEqual(await names("[]a]x.txt"), ["]x.txt:1:hit", "ax.txt:1:hit"]);
  assert.deepEqual(await names("[!]a]x.txt"), ["bx.txt:1:hit"]);
});
