/**
 * `localexec init`: writes a starter `.localexec.json` with checks for the project it finds (a
 * folder of Python files without any marker too) and the models installed on the model server
 * that answers, and says which servers answered and which did not.
 *
 * The test checks it writes pass on a project that has no tests yet (`deno test --permit-no-files`,
 * pytest's "no tests ran" exit code 5), so the first implement_task is not failed by a missing test
 * suite. The model server is the first that answers, in the provider table's order (`detect.ts`):
 * a provider's host variable (`OLLAMA_HOST`) when set means that provider, there only; otherwise
 * Ollama at its default host, else a local llama-server or LM Studio (`provider: "openai"`). When the server has more than one model
 * made for code, a ladder of them is proposed, cheapest first (`proposeLadder`); with one, that
 * one; never a model that is not installed when others are (`chooseModels`).
 */
import { readEnv } from "../config.ts";
import type { Provider } from "../model/mod.ts";
import { type Detected, detectServer, type ProbeTargets } from "./detect.ts";
import { join } from "../deps.ts";
import { writeFileAtomic } from "../fs_atomic.ts";
import { cannotStart } from "../process/mod.ts";

async function _exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** npm scripts `lint` and `test` as checks; npm's placeholder test script does not count. */
async function _nodeChecks(path: string): Promise<Record<string, unknown>> {
  let scripts: Record<string, unknown> = {};
  try {
    scripts = JSON.parse(await Deno.readTextFile(path)).scripts ?? {};
  } catch {
    // An unreadable package.json still gets the default test check.
    scripts = { test: "npm test" };
  }
  const out: Record<string, unknown> = {};
  if (typeof scripts.lint === "string") {
    out.lint = { command: "npm run --silent lint", timeout_s: 120 };
  }
  const test = scripts.test;
  if (typeof test === "string" && !/no test specified/.test(test)) {
    out.tests = { command: "npm test --silent", timeout_s: 300 };
  }
  return out;
}

/** Checks for the kind of project found at `root`, judged by its marker files. */
export async function detectChecks(root: string): Promise<Record<string, unknown>> {
  const has = (name: string) => _exists(join(root, name));
  if (await has("deno.json") || await has("deno.jsonc")) {
    return {
      lint: {
        command: "deno lint {files}",
        files_filter: ["*.ts", "*.tsx", "*.js", "*.jsx"],
        timeout_s: 60,
      },
      tests: { command: ["deno", "test", "-A", "--permit-no-files"], timeout_s: 300 },
    };
  }
  if (await has("package.json")) return await _nodeChecks(join(root, "package.json"));
  if (await has("pyproject.toml") || await has("setup.py") || await has("requirements.txt")) {
    const pyproject = await Deno.readTextFile(join(root, "pyproject.toml")).catch(() => "");
    return await _pythonChecks(root, /^\[tool\.ruff/m.test(pyproject));
  }
  if (await has("go.mod")) {
    return {
      vet: { command: "go vet ./...", timeout_s: 120 },
      tests: { command: "go test ./...", timeout_s: 300 },
    };
  }
  if (await has("Cargo.toml")) return { tests: { command: "cargo test -q", timeout_s: 600 } };
  // A folder of Python files with no marker (a plain folder, or a git repository of scripts).
  if (await _hasPython(root)) return await _pythonChecks(root, false);
  return {};
}

/** Compiles each file given in memory: a syntax check that writes no `__pycache__/`. */
const PY_COMPILE = "import sys; [compile(open(f, 'rb').read(), f, 'exec') for f in sys.argv[1:]]";

/**
 * Python checks: a syntax check of the files a task edits, ruff when the project configures it,
 * and the tests: pytest when it can be imported here, else unittest (both pass a project with no
 * tests yet: pytest's "no tests ran" exit code 5, unittest's too since Python 3.12). None of them
 * leaves `__pycache__/` (`-B`; the syntax check compiles in memory) or `.pytest_cache/`.
 */
async function _pythonChecks(root: string, ruff: boolean): Promise<Record<string, unknown>> {
  const pytest = !(await cannotStart("python3 -m pytest", root));
  return {
    compile: {
      command: ["python3", "-c", PY_COMPILE, "{files}"],
      files_filter: ["*.py"],
      timeout_s: 60,
    },
    ...(ruff
      ? { lint: { command: "ruff check {files}", files_filter: ["*.py"], timeout_s: 60 } }
      : {}),
    tests: {
      command: pytest
        ? "python3 -B -m pytest -q -x -p no:cacheprovider || [ $? -eq 5 ]"
        : "python3 -B -m unittest -q || [ $? -eq 5 ]",
      timeout_s: 300,
    },
  };
}

/** Folders a look for Python files passes over. */
const NOT_SOURCE = new Set([
  "node_modules",
  "__pycache__",
  "venv",
  "site-packages",
  "dist",
  "build",
]);

/** True when a `.py` file is within three folders of `root` (at most 2,000 entries looked at). */
async function _hasPython(root: string): Promise<boolean> {
  let budget = 2000;
  const look = async (dir: string, depth: number): Promise<boolean> => {
    const subdirs: string[] = [];
    try {
      for await (const e of Deno.readDir(dir)) {
        if (--budget < 0) return false;
        if (e.isFile && e.name.endsWith(".py")) return true;
        if (e.isDirectory && !e.name.startsWith(".") && !NOT_SOURCE.has(e.name)) {
          subdirs.push(e.name);
        }
      }
    } catch {
      return false;
    }
    if (depth >= 3) return false;
    for (const d of subdirs) if (await look(join(dir, d), depth + 1)) return true;
    return false;
  };
  return await look(root, 1);
}

/** The places of the first provider whose host variable (`OLLAMA_HOST`) is set, if any. */
function _fromEnv(table: readonly Provider[]): ProbeTargets | undefined {
  for (const p of table) {
    const value = p.hostEnv ? readEnv(p.hostEnv) : undefined;
    if (value === undefined) continue;
    try {
      return { [p.name]: [p.normalize(value)] };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Options for {@linkcode initProject}. */
export interface InitOptions {
  /** Where to look for model servers, only there (tests point these at scripted servers). */
  probe?: ProbeTargets;
}

const MODEL = "qwen2.5-coder:7b";

/** Most rungs a proposed ladder has. */
const MAX_RUNGS = 3;

/** A model made for code (and not an embedding model): what a ladder's rungs should be. */
function _suitable(name: string): boolean {
  return /cod|devstral/i.test(name) && !/embed|rerank/i.test(name);
}

/** Billions of parameters a model's name states (`qwen2.5-coder:32b`, `…-7b-instruct`), if any. */
function _params(name: string): number | undefined {
  const m = /(?:^|[^a-z0-9.])(\d+(?:\.\d+)?)b(?![a-z])/i.exec(name);
  return m ? Number(m[1]) : undefined;
}

/**
 * The ladder to propose for the models a server has, cheapest first (by size on disk when known,
 * else by the parameters in the name): the smallest, the largest and one between, of the models
 * made for code. Undefined when fewer than two are suitable.
 */
export function proposeLadder(
  models: readonly { name: string; size?: number }[],
): string[] | undefined {
  const fit = models.filter((m) => _suitable(m.name));
  if (fit.length < 2) return undefined;
  const sorted = [...fit].sort((a, b) => _cost(a) - _cost(b));
  const picks = sorted.length <= MAX_RUNGS
    ? sorted
    : [sorted[0], sorted[Math.floor((sorted.length - 1) / 2)], sorted[sorted.length - 1]];
  return picks.slice(0, MAX_RUNGS).map((m) => m.name);
}

/** The model(s) to write for what was found, and what to tell the user about them. */
interface Choice {
  model?: string;
  ladder?: string[];
  /** Said after what was written: a model to pull, a model not made for code. */
  advice?: string;
}

/** Billions of parameters or bytes on disk, whichever is known (for ordering models by cost). */
function _cost(m: { name: string; size?: number }): number {
  return m.size || (_params(m.name) ?? Infinity);
}

/**
 * The installed models to write: a ladder of those made for code when there are several, the one
 * made for code, else the largest other installed model (never an embedding model), else
 * {@linkcode MODEL}, which the user still has to install.
 */
export function chooseModels(
  models: readonly { name: string; size?: number }[],
  pull: string,
): Choice {
  const ladder = proposeLadder(models);
  if (ladder) return { ladder };
  const code = models.find((m) => _suitable(m.name));
  if (code) return { model: code.name };
  const other = models.filter((m) => !/embed|rerank/i.test(m.name));
  if (other.length) {
    const largest = [...other].sort((a, b) => _cost(b) - _cost(a))[0].name;
    return {
      model: largest,
      advice: `${largest} is not made for code; ${pull} for one that is (then set "model")`,
    };
  }
  return { model: MODEL, advice: `${MODEL} is not installed yet: ${pull}` };
}

/** One line per server looked at: which answered (with how many models) and which did not. */
function _servers(found: Detected): string {
  const count = found.models?.length;
  return found.probes.map((p) => {
    const mine = found.url === p.url;
    const models = mine && count !== undefined ? ` (${count} model${count === 1 ? "" : "s"})` : "";
    return `  ${p.name} at ${p.url}: ${p.answered ? `answered${models}` : "did not answer"}`;
  }).join("\n");
}

/** What to do when no model server answered. */
function _noServer(configPath: string, table: readonly Provider[]): string {
  return "no model server answered. To delegate steps you need one: " +
    `${table.map((p) => p.init.help(MODEL)).join("; or ")} in ${configPath}. ` +
    "The file tools, find, outline and run_checks work without one.";
}

/**
 * Writes a starter config at `configPath` unless one exists; returns what to tell the user (on
 * stderr): which model servers answered and which did not, and what was written.
 */
export async function initProject(
  root: string,
  configPath: string,
  opts: InitOptions = {},
): Promise<string> {
  if (await _exists(configPath)) return `${configPath} already exists; nothing written`;
  const checks = await detectChecks(root);
  // A provider's host variable set means that provider, there only; else every default place.
  const { PROVIDERS } = await import("../providers/mod.ts");
  const only = opts.probe ?? _fromEnv(PROVIDERS);
  const found = await detectServer(only, { only: only !== undefined, table: PROVIDERS });
  const answered = found.probes.some((p) => p.answered);
  const installed = found.models ?? [];
  const choice = chooseModels(installed, found.provider.init.pull(MODEL, found.server));
  const server = {
    ...(found.provider === PROVIDERS[0] ? {} : { provider: found.provider.name }),
    [found.provider.hostKey]: found.url,
  };
  const config = choice.ladder
    ? { ...server, max_attempts: 3, ladder: choice.ladder.map((m) => ({ model: m })), checks }
    : { model: choice.model, ...server, max_attempts: 3, checks };
  await writeFileAtomic(configPath, JSON.stringify(config, null, 2) + "\n");
  const names = Object.keys(checks);
  const what = names.length ? `checks ${names.join(", ")}` : 'no checks (add some under "checks")';
  const where = `${
    found.server === found.provider.label ? "" : "the "
  }${found.server} at ${found.url}`;
  const models = choice.ladder
    ? `a ladder of ${choice.ladder.length} models, cheapest first: ${choice.ladder.join(", ")} ` +
      "(each gets max_attempts, then hands the task to the next)"
    : `model ${choice.model}`;
  // Sizes tell which model is largest; a server that does not say gets the others named.
  const also =
    !choice.ladder && installed.length > 1 && installed.every((m) => m.size === undefined)
      ? `; it also serves ${
        installed.filter((m) => m.name !== choice.model).slice(0, 3).map((m) => m.name).join(", ")
      }`
      : "";
  return [
    `model servers:\n${_servers(found)}`,
    `wrote ${configPath} for ${where} with ${models}, and ${what}${also}`,
    ...(answered ? (choice.advice ? [choice.advice] : []) : [_noServer(configPath, PROVIDERS)]),
  ].join("\n");
}
