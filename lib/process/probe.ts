/**
 * Whether a command can start at all, told apart from a command that starts and fails: each
 * program it names is found the way `sh` finds it (`command -v`, one `sh` for all of them); a file
 * named by a path must be executable; a toolchain wrapper (`cargo`, `go`, `python3`, `npx`, …) must
 * answer its version probe with exit code 0 (rustup's `cargo` with no default toolchain exits 1);
 * `python -m mod` needs `mod` to be importable; a version manager's shim (`…/shims/pytest`) must
 * not exit 126 or 127 on `--version`. A probe that passes, and a program found, are kept for the
 * process's life (per folder and program), so a server pays them once; one that fails is asked
 * again next time, so a fixed toolchain is seen at once.
 *
 * Only what can be read without running the command is probed: the first word of each simple
 * command of a shell string's plain prefix (up to its first quote, `$`, backslash, backtick or
 * bracket; a path only in the first, as an earlier command may make the file), or an argv array's
 * first element. Anything else starts and speaks for itself.
 */
import { errorLine } from "../errors.ts";
import { isAbsolute, join } from "../deps.ts";
import { type Command, runProcess } from "./run.ts";

/** A program of a command that cannot start, and why (`pytestt: command not found`). */
export interface StartProblem {
  program: string;
  problem: string;
}

/** Toolchain wrappers and the cheap call that proves they run. */
const WRAPPERS: Record<string, readonly string[]> = {
  cargo: ["--version"],
  rustc: ["--version"],
  go: ["version"],
  node: ["--version"],
  npm: ["--version"],
  npx: ["--version"],
  pnpm: ["--version"],
  yarn: ["--version"],
  deno: ["--version"],
  bun: ["--version"],
  python: ["--version"],
  python3: ["--version"],
  pip: ["--version"],
  pip3: ["--version"],
  uv: ["--version"],
  ruby: ["--version"],
  dotnet: ["--version"],
};

/** How long one probe may take, in seconds (a wrapper's first run may install a toolchain). */
const PROBE_TIMEOUT_S = 60;

/** Where a shell command's plain prefix ends: what this module does not try to read. */
const NOT_PLAIN = /['"`\\$(){}<>]/;
/** What separates simple commands in a plain prefix. */
const SEPARATORS = /&&|\|\||[;|&\n]/;
/** Words that may stand before a command's program. */
const LEADING = new Set([
  "!",
  "time",
  "exec",
  "then",
  "do",
  "else",
  "if",
  "elif",
  "while",
  "until",
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Commands that may change where the programs after them are found. */
const CHANGES_ENV = new Set([".", "source", "export", "eval", "alias", "hash"]);
const PYTHON = /^python(\d+(\.\d+)*)?$/;

/** One program a command runs: its name and the words after it. */
interface Simple {
  program: string;
  args: string[];
}

function _simple(words: string[]): Simple | undefined {
  let i = 0;
  while (i < words.length && (LEADING.has(words[i]) || ASSIGNMENT.test(words[i]))) i++;
  return i < words.length ? { program: words[i], args: words.slice(i + 1) } : undefined;
}

/** The simple commands whose program can be read without running `command` (exported for tests). */
export function programsOf(command: Command): { program: string; args: string[] }[] {
  if (typeof command !== "string") {
    const [program, ...args] = command;
    return program && !program.includes("{files}") ? [{ program, args }] : [];
  }
  const cut = command.search(NOT_PLAIN);
  const plain = cut < 0 ? command : command.slice(0, cut);
  const segments = plain.split(SEPARATORS);
  const out: Simple[] = [];
  for (const [i, segment] of segments.entries()) {
    let words = segment.trim().split(/\s+/).filter(Boolean);
    // The last segment of a cut prefix ends mid-word: only its complete words count.
    if (cut >= 0 && i === segments.length - 1 && !/\s$/.test(segment)) words = words.slice(0, -1);
    // A command that sets PATH (`PATH=… jest`, `export PATH=…`, `. venv/bin/activate`) finds
    // its programs, and those after it, where this module cannot look.
    if (words.some((w) => /^PATH=/.test(w)) || CHANGES_ENV.has(words[0])) break;
    const simple = _simple(words);
    // A file named by a path after the first command may be made by an earlier one (`rustc -o
    // check_bin check.rs && ./check_bin`), or be relative to where `cd` went.
    if (simple && (i === 0 || !simple.program.includes("/"))) out.push(simple);
  }
  return out;
}

/** Probes that passed, and where `sh` found a program, per folder, PATH and program. */
const _passed = new Map<string, true>();
const _where = new Map<string, string>();

/** Where a probe runs, and the PATH it sees (default: the server's). */
interface ProbeOptions {
  cwd: string;
  path?: string;
}

function _env(path?: string): Record<string, string> {
  return path === undefined ? { NO_COLOR: "1" } : { NO_COLOR: "1", PATH: path };
}

/** A probe that did not exit 0: its exit code (null: killed or not run) and what it said. */
interface Failed {
  code: number | null;
  said: string;
}

/** Runs `argv` in `cwd`; undefined when it exits 0 (kept), else how it failed. */
async function _probe(argv: string[], o: ProbeOptions): Promise<Failed | undefined> {
  const { cwd, path } = o;
  const key = `${cwd}\0${path ?? ""}\0${argv.join("\0")}`;
  if (_passed.has(key)) return undefined;
  let r;
  try {
    r = await runProcess(argv, { cwd, timeoutS: PROBE_TIMEOUT_S, env: _env(path) });
  } catch (err) {
    return { code: null, said: `\`${argv.join(" ")}\` did not run: ${errorLine(err)}` };
  }
  if (r.code === 0) {
    _passed.set(key, true);
    return undefined;
  }
  const how = r.timedOut ? `did not answer in ${PROBE_TIMEOUT_S} s` : `exited ${r.code}`;
  const said = r.output.trim().split("\n").slice(0, 3).join(" ").slice(0, 300);
  return { code: r.code, said: `\`${argv.join(" ")}\` ${how}${said ? `: ${said}` : ""}` };
}

/** Where `sh` finds each of `names` (undefined: not found), one `sh` for all of them. */
async function _found(names: string[], o: ProbeOptions): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  const keyOf = (name: string) => `${o.cwd}\0${o.path ?? ""}\0${name}`;
  const ask = names.filter((n) => {
    const known = _where.get(keyOf(n));
    if (known !== undefined) out.set(n, known);
    return known === undefined;
  });
  if (!ask.length) return out;
  const script = 'for p do if r=$(command -v "$p" 2>/dev/null); then printf "+%s\\n" "$r"; ' +
    "else echo -; fi; done";
  const r = await runProcess(["sh", "-c", script, "sh", ...ask], {
    cwd: o.cwd,
    timeoutS: 30,
    env: _env(o.path),
  });
  const lines = r.output.split("\n");
  // Cannot tell (the shell failed, or an answer is not one line per name): all found.
  const sure = r.code === 0 && lines.length >= ask.length;
  for (const [i, name] of ask.entries()) {
    const where = !sure ? name : lines[i].startsWith("+") ? lines[i].slice(1) : undefined;
    // A file named by a path may go away: only names found on PATH are kept.
    if (sure && where !== undefined && !name.includes("/")) _where.set(keyOf(name), where);
    out.set(name, where);
  }
  return out;
}

async function _notExecutable(path: string, cwd: string): Promise<boolean> {
  const info = await Deno.stat(isAbsolute(path) ? path : join(cwd, path)).catch(() => undefined);
  return !!info?.isFile && ((info.mode ?? 0o111) & 0o111) === 0;
}

/** Why one found program (at `where`) does not run, or undefined. */
async function _runs(s: Simple, where: string, o: ProbeOptions): Promise<string | undefined> {
  if (s.program.includes("/") && await _notExecutable(s.program, o.cwd)) {
    return `${s.program}: permission denied (the file is not executable: chmod +x ${s.program})`;
  }
  const base = s.program.slice(s.program.lastIndexOf("/") + 1);
  const version = WRAPPERS[base] ?? (PYTHON.test(base) ? ["--version"] : undefined);
  if (!version) {
    // A version manager's shim (pyenv, rbenv, asdf) is found for a program the current version
    // lacks, and then exits 127: "pyenv: pytest: command not found".
    if (!/\/shims\//.test(where)) return undefined;
    const shim = await _probe([s.program, "--version"], o);
    return shim && (shim.code === 126 || shim.code === 127)
      ? `${s.program} cannot start: ${shim.said}`
      : undefined;
  }
  const broken = await _probe([s.program, ...version], o);
  if (broken) return `${s.program} is installed but does not run: ${broken.said}`;
  const at = s.args.indexOf("-m");
  const mod = PYTHON.test(base) && at >= 0 ? s.args[at + 1] : undefined;
  if (!mod || !/^[A-Za-z_][\w.]*$/.test(mod)) return undefined;
  const find = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec(sys.argv[1]) " +
    "else 1)";
  const missing = await _probe([s.program, "-c", find, mod], o);
  return missing ? `${s.program} -m ${mod}: No module named ${mod} (is it installed?)` : undefined;
}

/**
 * The first program of `command` that cannot start from `cwd`, or undefined when every program
 * this module can read starts. `path` replaces the PATH the probes see (default: the server's).
 * Never throws for the command's own problems.
 */
export async function cannotStart(
  command: Command,
  cwd: string,
  options: { path?: string } = {},
): Promise<StartProblem | undefined> {
  const o = { cwd, path: options.path };
  const simple = programsOf(command);
  const found = await _found([...new Set(simple.map((s) => s.program))], o);
  for (const s of simple) {
    const where = found.get(s.program);
    if (where === undefined) {
      const what = s.program.includes("/") ? "no such file" : "command not found";
      return { program: s.program, problem: `${s.program}: ${what}` };
    }
    const problem = await _runs(s, where, o);
    if (problem) return { program: s.program, problem };
  }
  return undefined;
}
