/**
 * The checks runner (docs/ARCHITECTURE.md, "Checks"): runs configured checks in the order written, from the root.
 *
 * A string command runs through `sh -c`, an argv array directly. `{files}` expands to the given
 * files that match the check's `files_filter` (each shell-quoted in a string; in an array, one
 * argument each for an element that is exactly `{files}`, shell-quoted inside a longer element);
 * a check with `{files}` and no matching file is skipped. Each check has its own timeout,
 * after which its whole process group is killed. Every byte a check prints is appended to the log
 * file; only a head and a tail stay in memory, so a check printing gigabytes keeps the server flat.
 */
import type { Check } from "./config.ts";
import { join } from "./deps.ts";
import { globToRegExp } from "./glob/mod.ts";
import { cannotStart, type Command, runProcess } from "./process/mod.ts";

/** The outcome of one check, as tool results show it. */
export interface CheckResult {
  name: string;
  ok: boolean;
  secs: number;
  /** Present (true) when the check uses `{files}` and no file matched its `files_filter`. */
  skipped?: true;
  /** Present (true) when the check ran out of time and was killed. */
  timed_out?: true;
}

/** The outcome of a run of checks. */
export interface ChecksRun {
  /** One entry per check that ran or was skipped, in the order the checks were given. */
  results: CheckResult[];
  /** Name of the first check that failed. */
  failed_check?: string;
  /** That check's output, trimmed to a head and a tail (about `outputChars` characters). */
  failed_output?: string;
  /** Checks not started because an earlier one failed (only with `stopAtFirstFailure`). */
  not_run?: string[];
  /** Seconds spent running checks. */
  secs: number;
}

/** Options for {@linkcode runChecks}. */
export interface RunChecksOptions {
  /** Project-relative files (with `/`) that `{files}` may expand to; missing files are dropped. */
  files?: readonly string[];
  /** Cancels the running check (its group is killed) and rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** File that receives every check's full output, appended (created when missing). */
  logPath?: string;
  /** Called before each check, e.g. `("running check lint 1/2", 0, 2)`: how many are done. */
  onProgress?: (message: string, index: number, total: number) => void;
  /** Stop after the first failing check; default false (run them all, for the most information). */
  stopAtFirstFailure?: boolean;
  /** Size of `failed_output` in characters; default 2,000. */
  outputChars?: number;
}

/** The `{files}` placeholder. */
const FILES_PLACEHOLDER = "{files}";

/** Quotes `s` for a POSIX shell: single quotes, with embedded `'` written as `'\''`. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * True when `path` matches one of `filters` (all paths match when there are none). A glob without
 * `/` is matched against the file's basename, one with `/` against the whole project path.
 */
export function matchesFilter(path: string, filters?: readonly string[]): boolean {
  if (!filters?.length) return true;
  const base = path.slice(path.lastIndexOf("/") + 1);
  return filters.some((f) => globToRegExp(f).test(f.includes("/") ? path : base));
}

/** What a check runs after `{files}` is expanded; `skipped` when it uses `{files}` and none match. */
export function expandCommand(
  check: Pick<Check, "command" | "files_filter">,
  files: readonly string[],
): { command: Command; skipped: boolean; files: string[] } {
  const uses = typeof check.command === "string"
    ? check.command.includes(FILES_PLACEHOLDER)
    : check.command.some((a) => a.includes(FILES_PLACEHOLDER));
  if (!uses) return { command: check.command, skipped: false, files: [] };
  // A name that starts with "-" would read as an option.
  const matched = [...new Set(files)].filter((f) => matchesFilter(f, check.files_filter));
  const args = matched.map((f) => (f.startsWith("-") ? `./${f}` : f));
  if (!args.length) return { command: check.command, skipped: true, files: [] };
  if (typeof check.command === "string") {
    const quoted = args.map(shellQuote).join(" ");
    return {
      command: check.command.replaceAll(FILES_PLACEHOLDER, quoted),
      skipped: false,
      files: matched,
    };
  }
  // Inside a longer element (`["sh", "-c", "ruff {files}"]`) the names are shell-quoted, as in a
  // string command: such an element is most often a script, where a raw name could run code.
  const quoted = args.map(shellQuote).join(" ");
  const argv = check.command.flatMap((a) =>
    a === FILES_PLACEHOLDER ? args : [a.replaceAll(FILES_PLACEHOLDER, quoted)]
  );
  return { command: argv, skipped: false, files: matched };
}

/** Removes terminal colour codes and carriage-return redraws from check output. */
function cleanOutput(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/[^\n]*\r(?!\n)/g, "");
}

/** Keeps about `max` characters of `text`: a third from the start and the rest from the end. */
export function trimOutput(text: string, max = 2000): string {
  const t = cleanOutput(text).trim();
  if (t.length <= max) return t;
  const head = t.slice(0, Math.floor(max / 3)).replace(/\n[^\n]*$/, "");
  const tail = t.slice(t.length - Math.ceil((max * 2) / 3)).replace(/^[^\n]*\n/, "");
  const cut = t.length - head.length - tail.length;
  return `${head}\n[… ${cut} characters cut; the log has the full output …]\n${tail}`;
}

async function _writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
}

async function _existingFiles(root: string, files: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const f of new Set(files)) {
    const info = await Deno.stat(join(root, f)).catch(() => undefined);
    if (info?.isFile) out.push(f);
  }
  return out;
}

function _show(command: Command): string {
  return typeof command === "string" ? command : command.map(shellQuote).join(" ");
}

/**
 * Runs `checks` in order from `root` and reports each one. Runs them all unless
 * `stopAtFirstFailure`; the first failure's trimmed output comes back as `failed_output`.
 * Rejects with an `AbortError` when `signal` aborts (the running check's group is killed first).
 */
export async function runChecks(
  root: string,
  checks: readonly Check[],
  options: RunChecksOptions = {},
): Promise<ChecksRun> {
  const files = await _existingFiles(root, options.files ?? []);
  const log = options.logPath
    ? await Deno.open(options.logPath, { append: true, create: true })
    : undefined;
  const enc = new TextEncoder();
  const note = (text: string) => (log ? _writeAll(log, enc.encode(text)) : Promise.resolve());
  const run: ChecksRun = { results: [], secs: 0 };
  try {
    for (const [i, check] of checks.entries()) {
      options.signal?.throwIfAborted();
      if (run.failed_check && options.stopAtFirstFailure) {
        (run.not_run ??= []).push(check.name);
        continue;
      }
      const { command, skipped } = expandCommand(check, files);
      if (skipped) {
        run.results.push({ name: check.name, ok: true, secs: 0, skipped: true });
        await note(`=== ${check.name}: skipped (no file matches {files} and its files_filter)\n`);
        continue;
      }
      // The checks done so far: the first check's start is 0 of N, not N of N when N is 1.
      options.onProgress?.(
        `running check ${check.name} ${i + 1}/${checks.length}`,
        i,
        checks.length,
      );
      await note(
        `=== ${check.name}: ${_show(command)} (timeout ${check.timeout_s} s) at ${
          new Date().toISOString()
        }\n`,
      );
      const r = await runProcess(command, {
        cwd: root,
        timeoutS: check.timeout_s,
        signal: options.signal,
        env: { NO_COLOR: "1" },
        sink: log ? (chunk) => _writeAll(log, chunk) : undefined,
      });
      if (r.cancelled) {
        await note(`\n=== ${check.name}: cancelled after ${r.secs} s\n`);
        throw new DOMException("cancelled", "AbortError");
      }
      const ok = !r.timedOut && r.code === 0;
      let output = r.output;
      const how = r.timedOut
        ? `timed out after ${check.timeout_s} s; the check and its child processes were killed`
        : r.code === null
        ? `killed by ${r.signal}`
        : `exit code ${r.code}`;
      if (r.timedOut) output += `\n[${how}]`;
      await note(`\n=== ${check.name}: ${ok ? "passed" : "failed"} (${how}) in ${r.secs} s\n`);
      run.secs += r.secs;
      run.results.push({
        name: check.name,
        ok,
        secs: r.secs,
        ...(r.timedOut ? { timed_out: true } : {}),
      });
      if (!ok && !run.failed_check) {
        run.failed_check = check.name;
        run.failed_output = trimOutput(output || `(no output; ${how})`, options.outputChars);
      }
    }
  } finally {
    log?.close();
  }
  run.secs = Math.round(run.secs * 100) / 100;
  return run;
}

/**
 * The first of `checks` that cannot start from `root` (a program not found, not executable, or a
 * toolchain that does not run: `lib/process/probe.ts`), as one message that names the check and
 * the fix; undefined when each can start. With `files`, a check that uses `{files}` and whose
 * `files_filter` matches none of them is left out: it would be skipped. `configName` is the
 * configuration file's name, for the fix.
 */
export async function checkCannotStart(
  root: string,
  checks: readonly Check[],
  options: { files?: readonly string[]; configName: string },
): Promise<{ check: string; message: string } | undefined> {
  for (const check of checks) {
    if (options.files) {
      const expanded = expandCommand(check, options.files);
      if (expanded.skipped) continue;
    }
    const found = await cannotStart(check.command, root);
    if (!found) continue;
    const key = `checks.${check.name}`;
    const fix = /command not found$/.test(found.problem)
      ? `is it installed and on PATH? fix the "command" of ${key} in ${options.configName}`
      : `fix that, or the "command" of ${key} in ${options.configName}`;
    return {
      check: check.name,
      message: `check ${check.name} cannot start: ${found.problem} — ${fix}`,
    };
  }
  return undefined;
}

async function _git(root: string, args: string[]): Promise<string[] | undefined> {
  const r = await runProcess(["git", ...args], {
    cwd: root,
    timeoutS: 20,
    keepBytes: 1 << 20,
    env: { GIT_OPTIONAL_LOCKS: "0" },
  });
  if (r.code !== 0 || r.droppedBytes) return undefined;
  return r.output.split("\0").filter(Boolean);
}

/** Tracked files with uncommitted changes, relative to `root`; empty outside a git repository. */
export async function gitChangedFiles(root: string): Promise<string[]> {
  const base = ["diff", "--name-only", "-z", "--relative", "--no-renames"];
  const vsHead = await _git(root, [...base, "HEAD", "--"]);
  if (vsHead) return vsHead;
  // A repository without commits yet: staged and unstaged changes.
  const staged = await _git(root, [...base, "--cached", "--"]) ?? [];
  const unstaged = await _git(root, [...base, "--"]) ?? [];
  return [...new Set([...staged, ...unstaged])];
}
