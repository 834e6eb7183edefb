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
 *   deno task mutate --changed <rev>  mutants made by machine in the lines changed since <rev>
 *                                    (or in a range a..b): scripts/mutate_changed.ts
 *
 * A mutant is matched by its exact text, not a line number, so it survives edits around it; text
 * found other than exactly once is reported as an error (never as killed). Tests run with
 * `--no-check`: a mutant must be killed by a test, not by the type checker. A file is always put
 * back (also on an error or Ctrl-C), and the run refuses to start while a listed file has
 * uncommitted changes, so a file it left mutated cannot be mistaken for the real one.
 */

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

/** The repository's folder. */
export const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
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

/** How often `needle` occurs in `text` (overlaps not counted). */
export function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** `text` with the one occurrence of `m.original` replaced, or an error. */
export function plant(
  text: string,
  m: Pick<Mutant, "file" | "original" | "replacement">,
): string | { error: string } {
  const n = occurrences(text, m.original);
  if (n !== 1) {
    return { error: `the original text is found ${n} times in ${m.file} (must be exactly once)` };
  }
  return text.replace(m.original, () => m.replacement);
}

/** The names of the tests that failed, from `deno test` output without colour. */
export function failedTests(output: string): string[] {
  const names = new Set<string>();
  for (const line of output.split("\n")) {
    const m = line.match(/^(.+?) => \.\/(\S+?):\d+:\d+$/);
    if (m) names.add(`${m[2]}: ${m[1]}`);
  }
  return [...names];
}

/** One `deno test` run. */
export interface TestRun {
  ok: boolean;
  output: string;
  secs: number;
  /** Killed at the time limit. */
  timedOut?: boolean;
}

/** The one `deno test` running now, so Ctrl-C can end it. */
let running: Deno.ChildProcess | undefined;

/** Runs `deno test` on `files` (`--fail-fast` with `failFast`), killed after `timeoutS`. */
export async function runTests(
  files: string[],
  timeoutS = 900,
  failFast = false,
): Promise<TestRun> {
  const began = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "--no-prompt",
      "--no-check",
      "-A",
      ...(failFast ? ["--fail-fast"] : []),
      ...files,
    ],
    cwd: REPO,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  running = child;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutS * 1000);
  try {
    const out = await child.output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return { ok: out.success, output: text, secs: (performance.now() - began) / 1000, timedOut };
  } finally {
    clearTimeout(timer);
    running = undefined;
  }
}

/** The files of `files` with uncommitted changes (`git status --porcelain` lines). */
export async function dirtyFiles(files: string[]): Promise<string[]> {
  const out = await new Deno.Command("git", {
    args: ["status", "--porcelain", "--", ...files],
    cwd: REPO,
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean);
}

/** The file being mutated now and its real text, for the Ctrl-C handler. */
let planted: { path: string; text: string } | undefined;

function restore(): void {
  if (planted) Deno.writeTextFileSync(planted.path, planted.text);
  planted = undefined;
}

function onSignal(): void {
  running?.kill("SIGKILL");
  restore();
  console.error("\nstopped; every file is back as it was");
  Deno.exit(130);
}

/** Ctrl-C and SIGTERM end the test run and put the mutated file back. */
export function restoreOnSignal(): void {
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
}

/** Plants `m`, runs `files`, and always puts the file back. */
export async function tryMutant(
  m: Pick<Mutant, "file" | "original" | "replacement">,
  files: string[],
  timeoutS?: number,
  failFast = false,
): Promise<TestRun | { error: string }> {
  const path = `${REPO}/${m.file}`;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    return { error: `cannot read ${m.file}: ${(err as Error).message}` };
  }
  const mutated = plant(text, m);
  if (typeof mutated !== "string") return mutated;
  planted = { path, text };
  try {
    await Deno.writeTextFile(path, mutated);
    return await runTests(files, timeoutS, failFast);
  } finally {
    restore();
  }
}

/**
 * Runs `testFiles` on the clean tree; a file that fails is run again. Returns the tests that
 * failed once and then passed (timing under load), or undefined when a test fails twice (a
 * failure with a mutant would prove nothing).
 */
export async function baseline(testFiles: string[]): Promise<Set<string> | undefined> {
  const flaky = new Set<string>();
  console.log(`baseline: ${testFiles.length} test files on the clean tree …`);
  const base = await runTests(testFiles);
  if (!base.ok) {
    const failed = failedTests(base.output);
    const files = [...new Set(failed.map((f) => f.slice(0, f.indexOf(": "))))];
    const again = files.length ? await runTests(files) : base;
    if (!again.ok) {
      console.error(
        "the listed tests fail without any mutant, so a failure would prove nothing:\n" +
          (failedTests(again.output).join("\n") || again.output.slice(-2000)),
      );
      return undefined;
    }
    for (const f of failed) flaky.add(f);
    console.log(`baseline: flaky (failed once, then passed): ${failed.join("; ")}`);
  }
  console.log(`baseline: ok (${base.secs.toFixed(0)} s)`);
  return flaky;
}

/** `s` padded with spaces to `n` characters. */
export function pad(s: string, n: number): string {
  return s.length >= n ? s : s + " ".repeat(n - s.length);
}

async function main(args: string[]): Promise<number> {
  const flag = (name: string) => args.includes(name);
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (flag("--changed")) {
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

// No top-level await: `--changed` loads mutate_changed.ts, which imports this module.
if (import.meta.main) main(Deno.args).then((code) => Deno.exit(code));
