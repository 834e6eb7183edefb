/**
 * `deno task mutate --changed <rev>`: mutants made by machine (scripts/mutate_gen.ts) in the lines
 * of lib/ and tools/ changed since `<rev>` (or in a range `a..b`), each run against the test files
 * that reach its module (scripts/mutate_graph.ts), nearest first, stopping at the first failure.
 *
 *   --changed <rev|a..b>  what changed (`git diff -U0 <rev> -- lib tools`)
 *   --sample N --seed S   N mutants, stratified by file (seed 1 by default)
 *   --max-minutes M       start no mutant after M minutes (the rest reported as not run)
 *   --max-tests K         at most K test files per mutant, nearest first (8 by default)
 *   --timeout S           a run still going after S seconds is killed: counted as killed, shown
 *                         apart (300 by default)
 *   --list                print the mutants and stop
 *   --again out.json      run again the survivors of an earlier run (after tests were added)
 *   --no-baseline         do not check that a test file that killed a mutant passes on the
 *                         clean tree (checked once per file otherwise)
 *   --json out.json       also write the results as JSON
 *
 * Docs and the last run's figures: docs/MUTATION.md ("Mutants made by machine").
 */
import {
  dirtyFiles,
  failedTests,
  pad,
  REPO,
  restoreOnSignal,
  runTests,
  tryMutant,
} from "./mutate_run.ts";
import { changedLines, generate, type Generated, sample } from "./mutate_gen.ts";
import { importGraph, testsReaching } from "./mutate_graph.ts";

/** What became of one generated mutant. */
export interface ChangedResult extends Generated {
  outcome: "killed" | "timeout" | "survived" | "no-test" | "error" | "not-run";
  tests: string[];
  detail: string[];
  secs: number;
}

/**
 * Mutants no test can tell from the code, left out by rule (docs/MUTATION.md): the reason, or
 * undefined when `m` is kept.
 */
export function equivalent(m: Generated): string | undefined {
  return EQUIVALENT.find(([, test]) => test(m))?.[0];
}

/** The rules: a reason and the mutants it covers. */
const EQUIVALENT: [string, (m: Generated) => boolean][] = [
  // `if (Deno.build.os === "linux") { …; return; }` and what follows: the tests never run it here.
  ["in code only another OS runs", (m) => !!m.otherOs],
];

async function git(args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd: REPO, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** Every mutant of the changed lines, checked against the working tree's files. */
export async function changedMutants(rev: string): Promise<{ list: Generated[]; stale: number }> {
  const range = rev.match(/^(.+?)\.\.\.?(.+)$/);
  const diff = await git([
    "diff",
    "-U0",
    ...(range ? [range[1], range[2]] : [rev]),
    "--",
    "lib",
    "tools",
  ]);
  const list: Generated[] = [];
  let stale = 0;
  for (const [file, lines] of changedLines(diff)) {
    if (!file.endsWith(".ts") || file.startsWith("lib/eval/suite/")) continue;
    const now = await Deno.readTextFile(`${REPO}/${file}`).catch(() => undefined);
    if (now === undefined) continue;
    const source = range ? await git(["show", `${range[2]}:${file}`]) : now;
    for (const m of await generate(file, source, lines)) {
      if (range && now.split(m.original).length !== 2) stale++;
      else list.push(m);
    }
  }
  return { list, stale };
}

function options(args: string[]) {
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const num = (name: string, fallback: number) => {
    const v = value(name);
    return v === undefined ? fallback : Number(v);
  };
  return {
    rev: value("--changed") ?? "",
    sample: num("--sample", Infinity),
    seed: num("--seed", 1),
    maxMinutes: num("--max-minutes", Infinity),
    maxTests: num("--max-tests", 8),
    timeout: num("--timeout", 300),
    list: args.includes("--list"),
    baseline: !args.includes("--no-baseline"),
    json: value("--json"),
    again: value("--again"),
  };
}

/** Whether each test file passes on the clean tree, learnt when it first kills a mutant. */
const clean = new Map<string, boolean>();

async function passesClean(file: string): Promise<boolean> {
  if (!clean.has(file)) clean.set(file, (await runTests([file])).ok);
  return clean.get(file)!;
}

function snippet(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 60 ? one.slice(0, 57) + "…" : one || "(removed)";
}

/**
 * Plants `m` and runs `tests` (stopping at the first failure). A kill is checked: when the file
 * that failed fails on the clean tree too (with `verify`), it is left out and the rest run again.
 */
async function runOne(
  m: Generated,
  tests: string[],
  o: { timeout: number; verify: boolean },
): Promise<ChangedResult> {
  tests = tests.filter((t) => clean.get(t) !== false);
  if (!tests.length) return { ...m, outcome: "no-test", tests, detail: [], secs: 0 };
  const run = await tryMutant(m, tests, o.timeout, true);
  if ("error" in run) return { ...m, outcome: "error", tests, detail: [run.error], secs: 0 };
  const outcome = run.timedOut ? "timeout" : run.ok ? "survived" : "killed";
  const detail = outcome === "killed" ? failedTests(run.output) : [];
  if (outcome === "killed" && o.verify) {
    const files = [...new Set(detail.map((d) => d.split(": ")[0]))];
    const broken: string[] = [];
    for (const f of files) if (!(await passesClean(f))) broken.push(f);
    if (broken.length) {
      console.log(`  ${broken.join(", ")} fails on the clean tree: left out`);
      return runOne(m, tests.filter((t) => !broken.includes(t)), o);
    }
  }
  if (outcome === "killed" && !detail.length) {
    detail.push(run.output.trim().split("\n").slice(-2).join(" "));
  }
  return { ...m, outcome, tests, detail, secs: run.secs };
}

function report(results: ChangedResult[]): void {
  const n = (o: ChangedResult["outcome"]) => results.filter((r) => r.outcome === o).length;
  const dead = n("killed") + n("timeout");
  const scored = dead + n("survived") + n("no-test");
  console.log(
    `\nscore: ${dead}/${scored} killed (${scored ? (dead / scored * 100).toFixed(1) : "0"}%): ` +
      `${n("killed")} by a failing test, ${n("timeout")} by a timeout; ${
        n("survived")
      } survived, ` +
      `${n("no-test")} reached by no test; ${n("error")} could not be planted, ` +
      `${n("not-run")} not run (time)`,
  );
  const byFile = new Map<string, [number, number]>();
  for (const r of results.filter((r) => !["error", "not-run"].includes(r.outcome))) {
    const [k, t] = byFile.get(r.file) ?? [0, 0];
    byFile.set(r.file, [k + (r.outcome === "killed" || r.outcome === "timeout" ? 1 : 0), t + 1]);
  }
  console.log([...byFile].sort().map(([f, [k, t]]) => `${f} ${k}/${t}`).join("\n"));
  for (const r of results.filter((r) => r.outcome === "survived" || r.outcome === "no-test")) {
    console.log(
      `${r.outcome}: ${r.file}:${r.line} ${r.kind}: ${snippet(r.from)} → ${snippet(r.to)}`,
    );
  }
}

/** The changed lines' mutants, less the equivalent ones, sampled. */
async function generated(o: ReturnType<typeof options>): Promise<Generated[]> {
  const { list, stale } = await changedMutants(o.rev);
  const kept = list.filter((m) => !equivalent(m));
  const files = new Set(list.map((m) => m.file)).size;
  const left = `${list.length - kept.length} equivalent by rule left out`;
  console.log(
    `generated: ${list.length} mutants in ${files} files (${left}${
      stale ? `, ${stale} stale` : ""
    })`,
  );
  return sample(kept, o.sample, o.seed);
}

/** The survivors (and the mutants no test reached) of an earlier run's `--json` results. */
async function survivorsOf(path: string): Promise<Generated[]> {
  const results = JSON.parse(await Deno.readTextFile(path)) as ChangedResult[];
  const list = results.filter((r) => r.outcome === "survived" || r.outcome === "no-test");
  console.log(`again: the ${list.length} survivors of ${path}`);
  return list.map(({ file, line, kind, original, replacement, from, to, otherOs }) => ({
    file,
    line,
    kind,
    original,
    replacement,
    from,
    to,
    otherOs,
  }));
}

/** `deno task mutate --changed …`; the exit code. */
export async function changedMain(args: string[]): Promise<number> {
  const o = options(args);
  if (!o.rev && !o.again) {
    console.error("--changed needs a commit or a range (a..b)");
    return 2;
  }
  const chosen = o.again ? await survivorsOf(o.again) : await generated(o);
  const reach = testsReaching(await importGraph(REPO));
  const testsOf = (m: Generated) => (reach.get(m.file) ?? []).slice(0, o.maxTests);
  if (o.list) {
    for (const m of chosen) {
      console.log(`${m.file}:${m.line} ${m.kind}: ${snippet(m.from)} → ${snippet(m.to)}`);
    }
    return 0;
  }
  const dirty = await dirtyFiles([...new Set(chosen.map((m) => m.file))]);
  if (dirty.length) {
    console.error(`refusing to start: uncommitted changes in\n${dirty.join("\n")}`);
    return 2;
  }
  restoreOnSignal();
  const began = performance.now();
  const results: ChangedResult[] = [];
  for (const [i, m] of chosen.entries()) {
    if ((performance.now() - began) / 60000 >= o.maxMinutes) {
      results.push({ ...m, outcome: "not-run", tests: [], detail: [], secs: 0 });
      continue;
    }
    const r = await runOne(m, testsOf(m), { timeout: o.timeout, verify: o.baseline });
    results.push(r);
    console.log(
      `${pad(`[${i + 1}/${chosen.length}]`, 9)} ${pad(r.outcome, 8)} ${
        r.secs.toFixed(0).padStart(4)
      } s  ` +
        `${r.file}:${r.line} ${r.kind}: ${snippet(r.from)} → ${snippet(r.to)}` +
        (r.detail[0] ? `\n${" ".repeat(19)}${r.detail[0]}` : ""),
    );
  }
  report(results);
  if (o.json) await Deno.writeTextFile(o.json, JSON.stringify(results, null, 1) + "\n");
  return results.some((r) => r.outcome === "survived" || r.outcome === "no-test") ? 1 : 0;
}
