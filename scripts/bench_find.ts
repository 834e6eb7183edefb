/**
 * Benchmark: `find` over a large tree next to ripgrep and `grep -rn` (when installed).
 *
 *   deno run -A scripts/bench_find.ts                 # generates a 40,000-file git tree in /tmp
 *   deno run -A scripts/bench_find.ts --tree DIR      # any existing tree (a git work tree or not)
 *   deno run -A scripts/bench_find.ts --files 60000 --runs 7 --keep
 *
 * Every tool is run `--runs` times, interleaved, over all matches (no result limit); the table
 * shows medians and the ratios measured in this run. `find` runs in this process, as the server
 * runs it (a fresh worker pool per call). Prints to stdout; nothing here is a test.
 */
import { parseArgs } from "../lib/deps.ts";
import { findInProject } from "../lib/find/mod.ts";
import { listProject } from "../lib/find/list.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    tree: { type: "string" },
    files: { type: "string", default: "40000" },
    runs: { type: "string", default: "5" },
    keep: { type: "boolean", default: false },
  },
});

const WORDS = (
  "alpha beta gamma delta value result error config handler request response buffer index " +
  "parse render update create delete fetch store cache token stream worker item list map key"
).split(" ");

/** A small deterministic PRNG, so every generated tree is the same. */
function _rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function _sourceFile(rand: () => number, lines: number): string {
  const out: string[] = [];
  const w = () => WORDS[Math.floor(rand() * WORDS.length)];
  for (let i = 0; i < lines; i++) {
    const r = rand();
    if (r < 0.08) out.push(`export function ${w()}${w()}(${w()}: string): number {`);
    else if (r < 0.12) out.push(`  throw new ${w()}Error("${w()} ${w()} failed");`);
    else if (r < 0.5) out.push(`  const ${w()}_${i} = ${w()}.${w()}(${w()}, ${i});`);
    else if (r < 0.6) out.push("}");
    else if (r < 0.7) out.push("");
    else out.push(`  // ${w()} ${w()} ${w()} ${w()} ${w()}`);
  }
  return out.join("\n") + "\n";
}

async function _generate(count: number): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "localexec-bench-find-" });
  const rand = _rng(42);
  const enc = new TextEncoder();
  await Deno.writeTextFile(`${root}/.gitignore`, "vendor/\n*.log\n");
  for (let i = 0; i < count; i++) {
    const dir = `${root}/src/m${i % 50}/p${Math.floor(i / 50) % 40}`;
    if (i < 2000) await Deno.mkdir(dir, { recursive: true });
    const ext = [".ts", ".py", ".go", ".js"][i % 4];
    await Deno.writeFile(`${dir}/f${i}${ext}`, enc.encode(_sourceFile(rand, 20 + (i % 180))));
  }
  // Ignored and skipped material: find must not pay for it.
  await Deno.mkdir(`${root}/vendor/lib`, { recursive: true });
  for (let i = 0; i < 2000; i++) {
    await Deno.writeTextFile(`${root}/vendor/lib/v${i}.js`, _sourceFile(rand, 50));
  }
  for (let i = 0; i < 50; i++) {
    await Deno.writeFile(`${root}/src/blob${i}.bin`, new Uint8Array(20000).map((_, k) => k % 251));
  }
  if (await _has("git")) {
    await _run(["git", "init", "-q"], root);
    await _run(["git", "add", "-A"], root);
    await _run(
      ["git", "-c", "user.email=b@x", "-c", "user.name=b", "commit", "-qm", "bench"],
      root,
    );
  }
  return root;
}

async function _has(cmd: string): Promise<boolean> {
  try {
    return (await new Deno.Command(cmd, { args: ["--version"], stdout: "null", stderr: "null" })
      .output()).success;
  } catch {
    return false;
  }
}

/** Runs a command, returns [ms, output lines]. */
async function _run(argv: string[], cwd: string): Promise<[number, number]> {
  const started = performance.now();
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd,
    stdout: "piped",
    stderr: "null",
  }).output();
  const ms = performance.now() - started;
  let lines = 0;
  for (const b of out.stdout) if (b === 10) lines++;
  return [ms, lines];
}

function _median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

interface Case {
  label: string;
  pattern: string;
  ignoreCase: boolean;
  grepRegex: boolean;
  /** List with find's own .gitignore walk instead of git (as in the read-only preset). */
  walk?: boolean;
}

const CASES: Case[] = [
  { label: "literal, many hits", pattern: "function", ignoreCase: false, grepRegex: false },
  { label: "literal, no hit", pattern: "zqxjkv", ignoreCase: false, grepRegex: false },
  { label: "regex", pattern: "\\w+Error\\(", ignoreCase: false, grepRegex: true },
  { label: "literal -i", pattern: "HANDLER", ignoreCase: true, grepRegex: false },
  {
    label: "literal, own walk",
    pattern: "zqxjkv",
    ignoreCase: false,
    grepRegex: false,
    walk: true,
  },
];

async function main(): Promise<void> {
  const runs = Number(args.values.runs);
  const root = args.values.tree ?? await _generate(Number(args.values.files));
  const haveRg = await _has("rg");
  const haveGrep = await _has("grep");
  const listing = await listProject(root);
  console.log(`tree: ${root} (${listing.files.length} files listed by ${listing.source})`);
  console.log(`cores: ${navigator.hardwareConcurrency}, runs per tool: ${runs} (medians)\n`);
  console.log("case                | find ms | rg ms | grep -rn ms | find/rg | find/grep | hits");
  console.log("--------------------|---------|-------|-------------|---------|-----------|------");
  for (const c of CASES) {
    const t: Record<string, number[]> = { find: [], rg: [], grep: [] };
    const hits: Record<string, number> = {};
    for (let r = 0; r < runs; r++) {
      const started = performance.now();
      const found = await findInProject(root, {
        pattern: c.pattern,
        maxResults: 10_000_000,
        ignoreCase: c.ignoreCase,
        useGit: !c.walk,
      });
      t.find.push(performance.now() - started);
      hits.find = found.count;
      if (haveRg) {
        const [ms, n] = await _run([
          "rg",
          "-n",
          "--hidden",
          "--no-messages",
          "--max-filesize",
          "1M",
          "-g",
          "!.git/",
          "-g",
          "!.localexec/",
          ...(c.ignoreCase ? ["-i"] : []),
          "-e",
          c.pattern,
          ".",
        ], root);
        t.rg.push(ms);
        hits.rg = n;
      }
      if (haveGrep) {
        const [ms, n] = await _run([
          "grep",
          "-rnI",
          "--exclude-dir=.git",
          "--exclude-dir=.localexec",
          ...(c.grepRegex ? ["-E"] : ["-F"]),
          ...(c.ignoreCase ? ["-i"] : []),
          "-e",
          c.pattern,
          ".",
        ], root);
        t.grep.push(ms);
        hits.grep = n;
      }
    }
    const f = _median(t.find);
    const rg = t.rg.length ? _median(t.rg) : NaN;
    const grep = t.grep.length ? _median(t.grep) : NaN;
    const cell = (x: number, w: number) => (Number.isNaN(x) ? "-" : x.toFixed(0)).padStart(w);
    const ratio = (x: number) => (Number.isNaN(x) ? "-" : `${(f / x).toFixed(2)}x`).padStart(9);
    console.log(
      `${c.label.padEnd(20)}|${cell(f, 8)} |${cell(rg, 6)} |${cell(grep, 12)} |${
        ratio(rg).slice(1)
      } |${ratio(grep).padStart(10)} | find ${hits.find}, rg ${hits.rg ?? "-"}, grep ${
        hits.grep ?? "-"
      }`,
    );
  }
  // First results: what a caller waits for with the default max_results.
  const first: number[] = [];
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    await findInProject(root, { pattern: "function", maxResults: 30, ignoreCase: false });
    first.push(performance.now() - started);
  }
  console.log(`\nfind "function" with max_results=30: ${_median(first).toFixed(0)} ms (median)`);
  if (!args.values.tree && !args.values.keep) await Deno.remove(root, { recursive: true });
}

if (import.meta.main) await main();
