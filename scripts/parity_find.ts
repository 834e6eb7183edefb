/**
 * find against ripgrep and against a plain JavaScript reference, over the real server on stdio:
 * `deno run -A scripts/parity_find.ts [--big] [--only NAME]`.
 *
 * Runs every case on crafted temp trees (each kind of file and ignore rule find promises something
 * about; a git and a non-git copy), on /work/bench/tree2k and, with `--big`, on
 * /work/bench/tree59k. Each case is searched with the default limit (30), with the largest limit
 * (full), and the full search again (recall). Every hit is checked against the file on disk (its
 * line, read anew, matches the pattern as a JavaScript regular expression, line by line, and the
 * text shown is that line, trimmed or cut); the answer against ripgrep run with find's rules
 * (hidden files, .gitignore with or without git, no .ignore files, `.git/` and `.localexec/` left
 * out), restricted to the files find searches (at most 1 MiB, no NUL in the first 8 KiB, UTF-8:
 * the others are find's documented skips); on the crafted trees also against the JavaScript
 * reference over every listed file. The counts must be honest: `count` the lines shown, `total`
 * exact, `at_least` a lower bound above the count, no `truncated` for an answer with every match.
 * Then a file is edited, one deleted and one created, and each case is checked again.
 *
 * Prints one line per mismatch and the figures: cases run, mismatches, files and bytes compared.
 */
import { Server } from "./mcp_driver.ts";

/** One search: find's arguments, and how ripgrep is asked the same (undefined: not comparable). */
interface Case {
  pattern: string;
  ignore_case?: boolean;
  glob?: string;
  /** ripgrep's own flags for the same search; `null` when its dialect cannot say the same. */
  rg?: string[] | null;
  /** Also on the 59k-file tree (whose every line ripgrep would print for `^`). */
  big?: boolean;
}

interface Answer {
  status: string;
  matches?: string[];
  count?: number;
  truncated?: boolean;
  total?: number;
  at_least?: number;
  skipped?: number;
  error?: string;
}

/** The most lines one answer holds (tools/find.ts's MAX_RESULTS). */
const FULL = 4400;
const MAX_FILE_BYTES = 1024 * 1024;
const PROBE = 8192;
const CUT = 200;

const args = new Set(Deno.args);
const only = Deno.args[Deno.args.indexOf("--only") + 1];

const figures = { cases: 0, searches: 0, mismatches: 0, hits: 0, files: 0, bytes: 0, lines: 0 };
const problems: string[] = [];

function problem(where: string, what: string): void {
  figures.mismatches++;
  problems.push(`${where}: ${what}`);
  console.log(`MISMATCH ${where}: ${what}`);
}

/** The cases every tree is searched with. */
function cases(): Case[] {
  return [
    { pattern: "function", big: true },
    { pattern: "return" },
    { pattern: "Promise", big: true },
    { pattern: "unlinkSync", big: true },
    { pattern: "zqxj_never_here", big: true },
    { pattern: "TODO", big: true },
    { pattern: "import type", big: true },
    { pattern: "foo bar" },
    { pattern: "a.b", rg: [] },
    { pattern: "a\\.b", big: true },
    { pattern: "\\(\\)" },
    { pattern: "Error\\(", big: true },
    { pattern: "\\w+Error\\(", big: true },
    { pattern: "^import", big: true },
    { pattern: "\\)$" },
    { pattern: "\\bfoo\\b", rg: ["-P", "--no-pcre2-unicode"], big: true },
    { pattern: "[0-9]{4}-[0-9]{2}" },
    { pattern: "(foo|bar)baz" },
    { pattern: "foo|needle" },
    { pattern: "class \\w+ extends" },
    { pattern: "(?=needle)need", rg: ["-P"] },
    { pattern: "(\\w)\\1\\1\\1", rg: ["-P", "--no-pcre2-unicode"] },
    { pattern: "todo", ignore_case: true, big: true },
    { pattern: "NeEdLe", ignore_case: true },
    { pattern: "needle\\.x", ignore_case: true },
    { pattern: "straße" },
    { pattern: "straße", ignore_case: true, big: true },
    { pattern: "σοφία", ignore_case: true },
    { pattern: "İstanbul", ignore_case: true },
    { pattern: "日本語", big: true },
    { pattern: "😀", big: true },
    { pattern: "ab😀?", rg: [] },
    { pattern: "needle", glob: "*.ts" },
    { pattern: "needle", glob: "**/*.ts" },
    { pattern: "needle", glob: "src/**/*.ts" },
    { pattern: "Promise", glob: "deno/**/*.ts", big: true },
    { pattern: "TODO", glob: "*.{py,rs}", big: true },
    { pattern: "needle", glob: "*.{py,ts}" },
    { pattern: "needle", glob: "sp ace dir/*", rg: null },
    { pattern: "needle", glob: "src", rg: null },
    { pattern: "needle", glob: "!*.ts", rg: null },
    { pattern: "needle" },
    { pattern: "^", rg: [] },
    { pattern: "x*", rg: [] },
    { pattern: "end$" },
    { pattern: "lastline" },
  ];
}

/** Crafted files: every kind find promises something about. */
function craftedFiles(): Record<string, string | Uint8Array> {
  const long = `${"x".repeat(5000)} needle ${"y".repeat(5000)}\n`;
  const big = `needle\n${"z".repeat(MAX_FILE_BYTES + 10)}\n`;
  const bytes = (...parts: (string | number[])[]) => {
    const out: number[] = [];
    for (const p of parts) out.push(...(typeof p === "string" ? new TextEncoder().encode(p) : p));
    return Uint8Array.from(out);
  };
  return {
    ".gitignore": "*.log\nbuild/\n!keep.log\n/rootonly.txt\ndocs/**/*.tmp\nsub/*\n!sub/kept.ts\n",
    "app.log": "needle\n",
    "keep.log": "needle\n",
    "rootonly.txt": "needle\n",
    "build/out.ts": "needle\n",
    "sub/gone.ts": "needle\n",
    "sub/kept.ts": "needle foo bar\n",
    "src/rootonly.txt": "needle\n",
    "src/.gitignore": "generated.py\n!app.log\n",
    "src/generated.py": "needle\n",
    "src/app.log": "needle\n",
    "src/main.ts":
      "import type { A } from './a';\nfunction f() { return foo(); }\n// TODO: needle\n" +
      "class E extends Error {}\nthrow new TypeError();\nconst d = '2024-01-02';\n",
    "src/deep/x.ts": "export function needle() {}\nfoo barbaz\nneedle.x NEEDLE.X\n",
    "src/p.py": "def needle():\n    return a.b\n# todo Todo TODO\n",
    "docs/a/b/x.tmp": "needle\n",
    "docs/a/b/x.md": "needle\n",
    ".hidden/h.ts": "needle hidden\n",
    ".env": "needle=1\n",
    "sp ace dir/fi le.txt": "needle in a space\n",
    "ünï/cödé.ts": "needle unicode path\n",
    "crlf.ts": "needle\r\nfoo end\r\nend\r\n",
    "nonl.txt": "no newline needle lastline",
    "empty.txt": "",
    "bom.ts": "\uFEFFimport x from 'y';\nneedle\n",
    "long.txt": long,
    "minified.js": `${"a.b(c);".repeat(600)}function needle(){}\n`,
    "big.txt": big,
    "bin.dat": bytes("needle\n", [0, 1, 2], "needle\n"),
    "late_nul.txt": bytes("x\n".repeat(5000), "needle late\n", [0], "\n"),
    "latin1.txt": bytes("needle caf", [0xe9], "\n"),
    "utf16.txt": bytes([0xff, 0xfe], ..."needle\n".split("").map((c) => [c.charCodeAt(0), 0])),
    "multi.txt":
      "straße STRASSE STRAẞE\nσοφία ΣΟΦΊΑ ΣΟΦΙΑ\nİstanbul istanbul\n日本語\n😀 emoji\nabc\n",
    "words.txt": "foo bar\nfoobar foo\nbar foo bar\naaaa 1111\nfoo|bar\nfunction() {}\na.b axb\n",
    "u2028.txt": "needle\u2028end\nx\u2028needle\n",
    "cr_only.txt": "foo\rneedle\rend\n",
    ".localexec/state.ts": "needle\n",
  };
}

/** Writes `files` under a new temp folder; returns it. */
async function craft(files: Record<string, string | Uint8Array>, git: boolean): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "parity_" }));
  for (const [rel, content] of Object.entries(files)) {
    const path = `${root}/${rel}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
  await Deno.symlink(`${root}/src/main.ts`, `${root}/link.ts`);
  await Deno.symlink(`${root}/src`, `${root}/linkdir`);
  if (git) {
    await run(root, "git", ["init", "-q"]);
    await run(root, "git", ["add", "-A"]);
    await run(root, "git", ["-c", "user.name=x", "-c", "user.email=x@y", "commit", "-qm", "x"]);
    // Untracked files beside the tracked ones.
    await Deno.writeTextFile(`${root}/untracked.ts`, "needle untracked\n");
  }
  // Old enough for find's file summaries (made only for files unchanged for two seconds).
  const old = new Date(Date.now() - 60_000);
  for (const rel of Object.keys(files)) await Deno.utime(`${root}/${rel}`, old, old);
  return root;
}

async function run(cwd: string, cmd: string, argv: string[]): Promise<Uint8Array> {
  const out = await new Deno.Command(cmd, { args: argv, cwd, stdout: "piped", stderr: "null" })
    .output();
  return out.stdout;
}

/** What find does with one file: searched (its text) or skipped (why). */
type Kind = { text: string } | { skip: "binary" | "too_large" | "not_utf8" | "gone" };
const kinds = new Map<string, Kind>();

function kindOf(root: string, rel: string): Kind {
  const key = `${root}/${rel}`;
  let kind = kinds.get(key);
  if (kind) return kind;
  let data: Uint8Array;
  try {
    data = Deno.readFileSync(key);
  } catch {
    return { skip: "gone" };
  }
  figures.files++;
  figures.bytes += data.length;
  if (data.length > MAX_FILE_BYTES) kind = { skip: "too_large" };
  else if (data.subarray(0, PROBE).includes(0)) kind = { skip: "binary" };
  else {
    try {
      kind = { text: new TextDecoder("utf-8", { fatal: true }).decode(data) };
    } catch {
      kind = { skip: "not_utf8" };
    }
  }
  kinds.set(key, kind);
  return kind;
}

/** A file's lines as find promises to read them: split at \n, a CRLF line without its \r. */
function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines.map((line) => line.endsWith("\r") ? line.slice(0, -1) : line);
}

/** The regular expression find runs on each line (its `u` flag only when the pattern needs it). */
function lineRegExp(c: Case): RegExp {
  const flags = c.ignore_case ? "i" : "";
  if (/\\[pP]\{|\\u\{|[\ud800-\udfff]/.test(c.pattern)) {
    try {
      return new RegExp(c.pattern, `${flags}u`);
    } catch {
      // a pattern valid only without it
    }
  }
  try {
    return new RegExp(c.pattern, flags);
  } catch {
    return new RegExp(c.pattern, `${flags}u`);
  }
}

/** Files the reference searches: git's listing (tracked and untracked) or ripgrep's. */
async function listing(root: string, git: boolean): Promise<string[]> {
  const out = git
    ? await run(root, "git", ["ls-files", "-co", "--exclude-standard", "-z"])
    : await run(root, "rg", [...RG_BASE, "--files", "--null"]);
  const files = new TextDecoder().decode(out).split("\0").filter((p) => p !== "");
  return files.filter((rel) => {
    if (/(^|\/)\.(git|localexec)\//.test(rel)) return false;
    try {
      return Deno.lstatSync(`${root}/${rel}`).isFile;
    } catch {
      return false;
    }
  }).sort();
}

const RG_BASE = [
  "--no-config",
  "--hidden",
  "--no-ignore-dot",
  "--no-require-git",
  "--no-messages",
  "-g",
  "!.git",
  "-g",
  "!.localexec",
];

/** ripgrep's (file, line) pairs for `c`, among the files find searches; undefined when not asked. */
async function rgPairs(
  root: string,
  c: Case,
  listed: Set<string>,
): Promise<Set<string> | undefined> {
  if (c.rg === null) return undefined;
  const argv = [...RG_BASE, "--null", "-n", "--no-heading", "-H", "--crlf", ...(c.rg ?? [])];
  if (c.ignore_case) argv.push("-i");
  if (c.glob) argv.push("-g", c.glob);
  argv.push("-e", c.pattern, "--", ".");
  const out = await run(root, "rg", argv);
  const pairs = new Set<string>();
  let start = 0;
  for (let nl = out.indexOf(10); nl >= 0; nl = out.indexOf(10, start)) {
    const row = out.subarray(start, nl);
    start = nl + 1;
    const nul = row.indexOf(0);
    if (nul < 0) continue;
    const rel = new TextDecoder().decode(row.subarray(0, nul)).replace(/^\.\//, "");
    const colon = row.indexOf(58, nul);
    const line = Number(new TextDecoder().decode(row.subarray(nul + 1, colon)));
    // ripgrep's -g overrides .gitignore; find's glob only narrows the listing.
    if (!listed.has(rel)) continue;
    if (!("text" in kindOf(root, rel))) continue; // find's documented skips
    pairs.add(`${rel}\0${line}`);
  }
  return pairs;
}

/** The JavaScript reference: every listed file's lines that match, and the skips that hold text. */
function jsPairs(root: string, files: string[], c: Case): Set<string> {
  const re = lineRegExp(c);
  const pairs = new Set<string>();
  for (const rel of files) {
    const kind = kindOf(root, rel);
    if (!("text" in kind)) continue;
    linesOf(kind.text).forEach((line, i) => {
      if (re.test(line)) pairs.add(`${rel}\0${i + 1}`);
    });
  }
  return pairs;
}

/**
 * For plain text (case-sensitive, no glob): how many listed files find skips (binary, over 1 MiB,
 * not UTF-8) hold the text; undefined for the patterns where "hold" is find's own estimate.
 */
function skippedHolding(root: string, files: string[], c: Case): number | undefined {
  if (c.ignore_case || c.glob || /[\\^$.|?*+()[\]{}]/.test(c.pattern)) return undefined;
  const needle = new TextEncoder().encode(c.pattern);
  let n = 0;
  for (const rel of files) {
    const kind = kindOf(root, rel);
    if (!("skip" in kind) || kind.skip === "gone") continue;
    const data = Deno.readFileSync(`${root}/${rel}`);
    for (let i = data.indexOf(needle[0]); i >= 0; i = data.indexOf(needle[0], i + 1)) {
      if (needle.every((b, k) => data[i + k] === b)) {
        n++;
        break;
      }
    }
  }
  return n;
}

/** Splits `path:line:text`, the path being one of `known` (paths may hold colons). */
function parseHit(hit: string, known: (rel: string) => boolean): [string, number, string] {
  const re = /:(\d+):/g;
  for (let m = re.exec(hit); m; m = re.exec(hit)) {
    const rel = hit.slice(0, m.index);
    if (known(rel)) return [rel, Number(m[1]), hit.slice(m.index + m[0].length)];
  }
  const m = /^(.*?):(\d+):(.*)$/s.exec(hit)!;
  return [m?.[1] ?? hit, Number(m?.[2]), m?.[3] ?? ""];
}

/** Checks one answer; returns its (file, line) pairs. */
function checkAnswer(
  where: string,
  root: string,
  c: Case,
  a: Answer,
  max: number,
  expected: Set<string> | undefined,
  ordered = false,
): Set<string> {
  const pairs = new Set<string>();
  if (a.status !== "ok") {
    problem(where, `status ${a.status}: ${a.error}`);
    return pairs;
  }
  const matches = a.matches ?? [];
  figures.hits += matches.length;
  if (a.count !== matches.length) problem(where, `count ${a.count} for ${matches.length} lines`);
  if (matches.length > max) problem(where, `${matches.length} lines over max_results ${max}`);
  const re = lineRegExp(c);
  let last: [string, number] | undefined;
  for (const hit of matches) {
    const [rel, line, text] = parseHit(hit, (p) => "text" in kindOf(root, p));
    const kind = kindOf(root, rel);
    const key = `${rel}\0${line}`;
    if (pairs.has(key)) problem(where, `line twice: ${hit.slice(0, 120)}`);
    pairs.add(key);
    if (last && (last[0] > rel || (last[0] === rel && last[1] >= line))) {
      problem(where, `not sorted: ${last.join(":")} then ${rel}:${line}`);
    }
    last = [rel, line];
    if (!("text" in kind)) {
      problem(where, `hit in a file find skips (${JSON.stringify(kind)}): ${hit.slice(0, 120)}`);
      continue;
    }
    const own = linesOf(kind.text)[line - 1];
    figures.lines++;
    if (own === undefined) {
      problem(where, `no line ${line} in ${rel}: ${hit.slice(0, 120)}`);
      continue;
    }
    if (!re.test(own)) problem(where, `line does not match: ${hit.slice(0, 120)}`);
    const trimmed = own.replace(/\s+$/, "");
    const shown = text.replace(/^…/, "").replace(/…$/, "");
    const ok = trimmed.length <= CUT ? text === trimmed.trimStart() : trimmed.includes(shown);
    if (!ok) problem(where, `text is not the line: ${JSON.stringify(hit.slice(0, 120))}`);
  }
  if (!a.truncated && (a.total !== undefined || a.at_least !== undefined)) {
    problem(where, "total or at_least on an answer that is not cut");
  }
  if (a.truncated) {
    if ((a.total === undefined) === (a.at_least === undefined)) {
      problem(where, "a cut answer needs exactly one of total and at_least");
    }
    if (matches.length !== max) problem(where, `cut at ${matches.length}, not ${max}`);
    if (a.at_least !== undefined && !(a.at_least > matches.length)) {
      problem(where, `at_least ${a.at_least} not above the ${matches.length} shown`);
    }
  }
  if (expected && ordered && a.truncated) {
    // A listing of up to 8,192 files answers with the first lines in path order.
    const sorted = [...expected].map((key) => key.split("\0")).sort((x, y) =>
      x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : Number(x[1]) - Number(y[1])
    ).slice(0, max).map((k) => k.join("\0"));
    const shown = [...pairs];
    if (JSON.stringify(sorted) !== JSON.stringify(shown)) {
      const at = sorted.findIndex((k, i) => k !== shown[i]);
      problem(
        where,
        `not the first ${max} in path order from line ${at}: ${shown[at]} vs ${sorted[at]}`,
      );
    }
  }
  if (expected) {
    for (const key of pairs) {
      if (!expected.has(key)) problem(where, `not in the reference: ${key.replace("\0", ":")}`);
    }
    const n = expected.size;
    if (!a.truncated && pairs.size !== n) {
      const missing = [...expected].filter((k) => !pairs.has(k)).slice(0, 5);
      problem(
        where,
        `${pairs.size} lines, reference ${n}; missing e.g. ${
          missing.map((k) => k.replace("\0", ":"))
        }`,
      );
    }
    if (a.total !== undefined && a.total !== n) problem(where, `total ${a.total}, reference ${n}`);
    if (a.at_least !== undefined && a.at_least > n) {
      problem(where, `at_least ${a.at_least} over the reference ${n}`);
    }
  }
  return pairs;
}

const oneShot = args.has("--oneshot");

/** `localexec call find ARGS` in `root`: one process, one call. */
async function callOnce(root: string, a: Record<string, unknown>): Promise<Answer> {
  const main = new URL("../main.ts", import.meta.url).pathname;
  const out = await run(root, Deno.execPath(), [
    "run",
    "-A",
    main,
    "--root",
    root,
    "call",
    "find",
    JSON.stringify(a),
  ]);
  return JSON.parse(new TextDecoder().decode(out));
}

/** Runs every case on `root`; `js`: also the JavaScript reference over every listed file. */
async function runCases(
  name: string,
  server: Server,
  root: string,
  git: boolean,
  list: Case[],
  js: boolean,
): Promise<void> {
  const files = await listing(root, git);
  const listed = new Set(files);
  const ordered = files.length <= 8192;
  for (const c of list) {
    figures.cases++;
    const where = `${name} ${JSON.stringify(c.pattern)}${c.ignore_case ? " -i" : ""}${
      c.glob ? ` glob ${c.glob}` : ""
    }`;
    const ref = await rgPairs(root, c, listed);
    const mine = js && !c.glob ? jsPairs(root, files, c) : undefined;
    if (ref && mine) {
      const a = [...ref].filter((k) => !mine.has(k));
      const b = [...mine].filter((k) => !ref.has(k));
      if (a.length || b.length) {
        console.log(
          `  (dialect) ${where}: rg only ${a.slice(0, 4).map((k) => k.replace("\0", ":"))}; ` +
            `JS only ${b.slice(0, 4).map((k) => k.replace("\0", ":"))}`,
        );
      }
    }
    let expected = mine ?? ref;
    if (ref && !mine) {
      // Where ripgrep's dialect differs (`.` is a code point in Rust, a UTF-16 unit in
      // JavaScript), the line as JavaScript reads it decides.
      const re = lineRegExp(c);
      const kept = [...ref].filter((key) => {
        const [rel, line] = key.split("\0");
        const kind = kindOf(root, rel);
        return "text" in kind && re.test(linesOf(kind.text)[Number(line) - 1] ?? "");
      });
      if (kept.length !== ref.size) {
        console.log(
          `  (dialect) ${where}: ${ref.size - kept.length} ripgrep lines JavaScript does not match`,
        );
      }
      expected = new Set(kept);
    }
    const args: Record<string, unknown> = { pattern: c.pattern };
    if (c.ignore_case) args.ignore_case = true;
    if (c.glob) args.glob = c.glob;
    const first = await server.call("find", args) as unknown as Answer;
    figures.searches++;
    checkAnswer(`${where} [30]`, root, c, first, 30, expected, ordered);
    const full = await server.call("find", { ...args, max_results: FULL }) as unknown as Answer;
    figures.searches++;
    const held = js ? skippedHolding(root, files, c) : undefined;
    if (held !== undefined && full.skipped !== held) {
      problem(`${where} [full]`, `skipped ${full.skipped}, files holding the text ${held}`);
    }
    const fullPairs = checkAnswer(`${where} [full]`, root, c, full, FULL, expected, ordered);
    if (oneShot) {
      // `localexec call find`: plain text searched on the calling thread (`oneshot.ts`).
      for (const max of [30, FULL]) {
        const a = await callOnce(root, { ...args, max_results: max });
        figures.searches++;
        checkAnswer(`${where} [call ${max}]`, root, c, a, max, expected, ordered);
        const b = max === 30 ? first : full;
        if (!b.truncated && JSON.stringify(a.matches) !== JSON.stringify(b.matches)) {
          problem(`${where} [call ${max}]`, "not the server's answer");
        }
      }
    }
    const again = await server.call("find", { ...args, max_results: FULL }) as unknown as Answer;
    figures.searches++;
    const againPairs = checkAnswer(`${where} [full again]`, root, c, again, FULL, expected);
    if (!full.truncated && !again.truncated) {
      if (JSON.stringify(full.matches) !== JSON.stringify(again.matches)) {
        problem(where, "the same search again gave other lines");
      }
    } else if (full.truncated !== again.truncated || full.total !== again.total) {
      problem(where, `again: truncated ${again.truncated} total ${again.total}`);
    }
    void fullPairs;
    void againPairs;
    console.log(
      `  ${where}: ref ${expected?.size ?? "-"}, first ${first.count}${
        first.truncated ? ` (${first.total ?? `≥${first.at_least}`})` : ""
      }, full ${full.count}${full.truncated ? ` (${full.total ?? `≥${full.at_least}`})` : ""}` +
        `, skipped ${full.skipped}`,
    );
  }
}

/** Edits the crafted tree between two searches: the answer must follow the disk. */
async function editAndSearch(name: string, server: Server, root: string, git: boolean) {
  const c: Case = { pattern: "needle" };
  await server.call("find", { pattern: "needle" });
  await Deno.writeTextFile(`${root}/src/p.py`, "needle edited in place\n", { append: true });
  await Deno.remove(`${root}/docs/a/b/x.md`);
  await Deno.mkdir(`${root}/fresh/dir`, { recursive: true });
  await Deno.writeTextFile(`${root}/fresh/dir/new.ts`, "a new needle\n");
  await Deno.writeTextFile(`${root}/words.txt`, "needle replaced\n");
  kinds.clear();
  await runCases(`${name} after edits`, server, root, git, [c, {
    pattern: "NEEDLE",
    ignore_case: true,
  }], true);
  await Deno.writeTextFile(`${root}/words.txt`, "nothing now\n");
  await Deno.remove(`${root}/fresh`, { recursive: true });
  kinds.clear();
  await runCases(`${name} after more edits`, server, root, git, [c], true);
}

/**
 * A git tree of over 8,192 files, where a cut answer may come from anywhere and the same search
 * again reads first the files it matched in (recall): after the files of the first answer lose
 * the text and others gain it, every answer must still be what the disk holds.
 */
async function spreadTree(): Promise<void> {
  const files: Record<string, string> = {};
  for (let k = 0; k < 9000; k++) {
    const dir = `d${String(k % 97).padStart(2, "0")}`;
    files[`${dir}/f${String(k).padStart(5, "0")}.ts`] = k % 100 === 7
      ? `const a = ${k};\n// spreadneedle one\nlet b = "spreadneedle two";\n`
      : `export const v${k} = ${k};\n`;
  }
  const root = await craft(files, true);
  const server = await new Server(root).start();
  const list: Case[] = [{ pattern: "spreadneedle" }, { pattern: "spread\\w+ one" }, {
    pattern: "SPREADNEEDLE",
    ignore_case: true,
  }];
  try {
    await runCases("spread", server, root, true, list, true);
    const first = await server.call("find", { pattern: "spreadneedle" }) as unknown as Answer;
    // The files of that answer lose the text; two others gain it (one in a new folder).
    for (const hit of first.matches ?? []) {
      const rel = hit.slice(0, hit.indexOf(":"));
      await Deno.writeTextFile(`${root}/${rel}`, "export const gone = 1;\n");
    }
    await Deno.writeTextFile(`${root}/d05/f00005.ts`, "// spreadneedle added\n");
    await Deno.mkdir(`${root}/znew`);
    await Deno.writeTextFile(`${root}/znew/late.ts`, "// spreadneedle in a new folder\n");
    kinds.clear();
    await runCases("spread after edits", server, root, true, list, true);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
}

async function main(): Promise<void> {
  const list = cases();
  const trees: { name: string; git: boolean }[] = [
    { name: "crafted-walk", git: false },
    { name: "crafted-git", git: true },
  ];
  for (const tree of trees) {
    if (only && !tree.name.startsWith(only)) continue;
    const root = await craft(craftedFiles(), tree.git);
    const server = await new Server(root).start();
    try {
      await runCases(tree.name, server, root, tree.git, list, true);
      await editAndSearch(tree.name, server, root, tree.git);
    } finally {
      await server.close();
      await Deno.remove(root, { recursive: true });
    }
  }
  if (!only || "spread".startsWith(only)) await spreadTree();
  // `--tree PATH`: any other tree (a git work tree or not), with the 2k tree's cases.
  const tree = Deno.args[Deno.args.indexOf("--tree") + 1];
  if (Deno.args.includes("--tree")) {
    const git = (() => {
      try {
        return Deno.statSync(`${tree}/.git`).isDirectory;
      } catch {
        return false;
      }
    })();
    const server = await new Server(tree).start();
    try {
      await runCases(tree, server, tree, git, list.filter((c) => c.rg !== null), false);
    } finally {
      await server.close();
    }
    return report();
  }
  const bench = [{ name: "tree2k", root: "/work/bench/tree2k" }];
  if (args.has("--big")) bench.push({ name: "tree59k", root: "/work/bench/tree59k" });
  for (const { name, root } of bench) {
    if (only && !name.startsWith(only)) continue;
    const server = await new Server(root).start();
    try {
      const big = name === "tree59k";
      const some = list.filter((c) => c.rg !== null && (c.big || !big));
      await runCases(name, server, root, true, some, false);
    } finally {
      await server.close();
    }
  }
  report();
}

function report(): void {
  console.log(
    `\ncases ${figures.cases}, searches ${figures.searches}, mismatches ${figures.mismatches}, ` +
      `hits checked ${figures.hits} (${figures.lines} lines re-read), reference files ` +
      `${figures.files} (${(figures.bytes / 1e6).toFixed(1)} MB)`,
  );
  if (problems.length) Deno.exitCode = 1;
}

await main();
