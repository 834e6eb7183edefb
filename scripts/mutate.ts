/**
 * Mutation run (`deno task mutate`): plants each mutant of `scripts/mutants.json` (a small,
 * realistic bug: one exact piece of text in one file replaced) one at a time, runs the test files
 * that should catch it, puts the file back, and prints which mutants the tests killed and the
 * score. Not part of `deno task check`: a run takes minutes. Results and the tests that kill each
 * mutant: docs/MUTATION.md.
 *
 *   deno task mutate                 every mutant, each with its own test files
 *   deno task mutate --all           also the whole suite on each survivor
 *   deno task mutate --only a,b      only the mutants with these ids
 *   deno task mutate --no-baseline   skip the first run of the listed tests on the clean tree
 *   deno task mutate --json out.json also write the results as JSON
 *   deno task mutate --changed <rev> mutants made by machine in the lines changed since <rev>
 *                                    (or in a range a..b): scripts/mutate_changed.ts
 *
 * A mutant is matched by its exact text, not a line number, so it survives edits around it; text
 * found other than exactly once is reported as an error (never as killed). Tests run with
 * `--no-check`: a mutant must be killed by a test, not by the type checker. A file is always put
 * back (also on an error or Ctrl-C), and the run refuses to start while a listed file has
 * uncommitted changes, so a file it left mutated cannot be mistaken for the real one.
 */

import {
  baseline,
  dirtyFiles,
  failedTests,
  pad,
  REPO,
  restoreOnSignal,
  tryMutant,
} from "./mutate_run.ts";
export { failedTests, occurrences, plant } from "./mutate_run.ts";

/** One planted bug. */
export interface Mutant {
  /** Short unique name. */
  id: string;
  /** What it attacks: path safety, tasks, applier, checks, find, boundary, implement. */
  area: string;
  /** The file, relative to the repository. */
  file: string;
  /** Text found exactly once in `file`. */
  original: string;
  /** What replaces it. */
  replacement: string;
  /** Test files (relative to the repository) that should catch it. */
  tests: string[];
  /** The bug in words. */
  note: string;
  /** One of the survivors issue 23 listed. */
  issue_survivor?: boolean;
}

/** What became of one mutant. */
export interface MutantResult {
  id: string;
  area: string;
  /** killed: a listed test failed; survived: all passed; error: the mutant could not be planted. */
  outcome: "killed" | "survived" | "error";
  /** The failing tests that killed it (`file: name`), or the error. */
  detail: string[];
  secs: number;
  /** With `--all`: whether the whole suite killed a survivor. */
  suite?: "killed" | "survived";
}

const LIST = `${REPO}/scripts/mutants.json`;

/** Reads and checks the list of mutants. */
export function readMutants(text: string): Mutant[] {
  const data = JSON.parse(text) as { mutants?: Mutant[] };
  const list = data.mutants ?? [];
  const ids = new Set<string>();
  for (const m of list) {
    for (const key of ["id", "area", "file", "original", "replacement", "note"] as const) {
      if (typeof m[key] !== "string" || (key !== "replacement" && !m[key])) {
        throw new Error(`mutant ${JSON.stringify(m.id)}: ${key} must be a string`);
      }
    }
    if (!Array.isArray(m.tests) || !m.tests.length) throw new Error(`mutant ${m.id}: no tests`);
    if (ids.has(m.id)) throw new Error(`mutant ${m.id} is listed twice`);
    if (m.original === m.replacement) throw new Error(`mutant ${m.id} changes nothing`);
    ids.add(m.id);
  }
  return list;
}

async function main(args: string[]): Promise<number> {
  const flag = (name: string) => args.includes(name);
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (flag("--changed") || flag("--again")) {
    const { changedMain } = await import("./mutate_changed.ts");
    return await changedMain(args);
  }
  let mutants = readMutants(await Deno.readTextFile(LIST));
  const only = value("--only")?.split(",");
  if (only) mutants = mutants.filter((m) => only.includes(m.id));
  if (!mutants.length) {
    console.error("no mutants to run");
    return 2;
  }
  const dirty = await dirtyFiles([...new Set(mutants.map((m) => m.file))]);
  if (dirty.length) {
    console.error(
      "refusing to start: listed files have uncommitted changes (commit or stash them first):\n" +
        dirty.join("\n"),
    );
    return 2;
  }
  restoreOnSignal();
  const testFiles = [...new Set(mutants.flatMap((m) => m.tests))].sort();
  const flaky = flag("--no-baseline") ? new Set<string>() : await baseline(testFiles);
  if (!flaky) return 2;
  const results: MutantResult[] = [];
  for (const [i, m] of mutants.entries()) {
    let run = await tryMutant(m, m.tests);
    // Killed only by a test seen flaky on the clean tree: run once more and keep that answer.
    if (!("error" in run) && !run.ok && failedTests(run.output).every((t) => flaky.has(t))) {
      run = await tryMutant(m, m.tests);
    }
    let result: MutantResult;
    if ("error" in run) {
      result = { id: m.id, area: m.area, outcome: "error", detail: [run.error], secs: 0 };
    } else {
      const detail = run.ok ? [] : failedTests(run.output);
      if (!run.ok && !detail.length) detail.push(run.output.trim().split("\n").slice(-3).join(" "));
      result = {
        id: m.id,
        area: m.area,
        outcome: run.ok ? "survived" : "killed",
        detail,
        secs: run.secs,
      };
      if (run.ok && flag("--all")) {
        const suite = await tryMutant(m, ["tests/"]);
        if (!("error" in suite)) {
          result.suite = suite.ok ? "survived" : "killed";
          if (!suite.ok) result.detail = failedTests(suite.output);
        }
      }
    }
    results.push(result);
    const where = result.outcome === "killed"
      ? `by ${result.detail.length} test${result.detail.length === 1 ? "" : "s"}`
      : result.suite
      ? `(whole suite: ${result.suite})`
      : result.outcome === "error"
      ? result.detail[0]
      : "";
    console.log(
      `${pad(`[${i + 1}/${mutants.length}]`, 8)} ${pad(result.outcome, 8)} ${pad(m.id, 28)} ` +
        `${pad(m.area, 10)} ${result.secs.toFixed(0).padStart(4)} s  ${where}`,
    );
    for (const d of result.outcome === "killed" ? result.detail.slice(0, 3) : []) {
      console.log(`${" ".repeat(18)}${d}`);
    }
  }
  const count = (o: MutantResult["outcome"]) => results.filter((r) => r.outcome === o).length;
  const killed = count("killed");
  const planted_ = killed + count("survived");
  console.log(
    `\nscore: ${killed}/${planted_} killed (${
      planted_ ? (killed / planted_ * 100).toFixed(1) : "0"
    }%); ${count("survived")} survived; ${count("error")} could not be planted`,
  );
  const byArea = new Map<string, [number, number]>();
  for (const r of results.filter((r) => r.outcome !== "error")) {
    const [k, n] = byArea.get(r.area) ?? [0, 0];
    byArea.set(r.area, [k + (r.outcome === "killed" ? 1 : 0), n + 1]);
  }
  console.log([...byArea].map(([a, [k, n]]) => `${a} ${k}/${n}`).join(", "));
  for (const r of results.filter((r) => r.outcome !== "killed")) {
    console.log(`${r.outcome}: ${r.id} ${r.detail.join("; ")}`);
  }
  const json = value("--json");
  if (json) await Deno.writeTextFile(json, JSON.stringify(results, null, 1) + "\n");
  return count("survived") || count("error") ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
