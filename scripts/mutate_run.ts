/**
 * The machinery of a mutation run (scripts/mutate.ts and mutate_changed.ts share it): plant one
 * mutant, run `deno test` on chosen files with a time limit, read the failing tests off its output,
 * and always put the file back (also on Ctrl-C).
 */

import { WORKER_GEN, workerInputs } from "./check_structure.ts";
import { bundleWorker } from "./worker_bundle.ts";

/** The repository's folder. */
export const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

/** What planting needs: one exact piece of text in one file and what replaces it. */
export interface Planted {
  /** The file, relative to the repository. */
  file: string;
  /** Text found exactly once in `file`. */
  original: string;
  /** What replaces it. */
  replacement: string;
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
  m: Planted,
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

/** The files changed for the mutant now planted and their real text, for the Ctrl-C handler. */
let planted: { path: string; text: string }[] = [];

function restore(): void {
  for (const p of planted.reverse()) Deno.writeTextFileSync(p.path, p.text);
  planted = [];
}

/**
 * find's search worker runs from a bundle (lib/find/worker.gen.js), not from its modules: a
 * mutant in one of them is bundled in too, or the worker would run the real code and the mutant
 * would survive untested. The bundle is put back with the file.
 */
async function _rebundle(file: string): Promise<void> {
  const read = (f: string) => Deno.readTextFileSync(`${REPO}/${f}`);
  if (!workerInputs(read).includes(file)) return;
  const path = `${REPO}/${WORKER_GEN}`;
  const text = await Deno.readTextFile(path);
  planted.push({ path, text });
  await Deno.writeTextFile(path, await bundleWorker(REPO, false));
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
  m: Planted,
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
  planted = [{ path, text }];
  try {
    await Deno.writeTextFile(path, mutated);
    await _rebundle(m.file);
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
