/**
 * `localexec init`: writes a starter `.localexec.json` with checks for the project it finds.
 *
 * The test checks it writes pass on a project that has no tests yet (`deno test --permit-no-files`,
 * pytest's "no tests ran" exit code 5), so the first implement_task is not failed by a missing test
 * suite. `ollama_host` is the host in effect: `OLLAMA_HOST` when it is set, else the default; when
 * `OLLAMA_HOST` is not set and no Ollama answers, a local llama-server or LM Studio that does is
 * written instead (`provider: "openai"`, see `detect.ts`). When the server has more than one model
 * made for code, a ladder of them is proposed, cheapest first (`proposeLadder`).
 */
import { DEFAULT_OLLAMA_HOST, normalizeHost } from "../config.ts";
import { type Detected, detectServer, LOCAL_SERVERS, type ProbeTargets } from "./detect.ts";
import { join } from "../deps.ts";
import { writeFileAtomic } from "../fs_atomic.ts";

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
    return {
      compile: { command: "python3 -m py_compile {files}", files_filter: ["*.py"], timeout_s: 60 },
      ...(/^\[tool\.ruff/m.test(pyproject)
        ? { lint: { command: "ruff check {files}", files_filter: ["*.py"], timeout_s: 60 } }
        : {}),
      // pytest exits with 5 when it collects no test: a project without tests yet passes.
      tests: { command: "python3 -m pytest -q -x || [ $? -eq 5 ]", timeout_s: 300 },
    };
  }
  if (await has("go.mod")) {
    return {
      vet: { command: "go vet ./...", timeout_s: 120 },
      tests: { command: "go test ./...", timeout_s: 300 },
    };
  }
  if (await has("Cargo.toml")) return { tests: { command: "cargo test -q", timeout_s: 600 } };
  return {};
}

/** `OLLAMA_HOST` (normalised) when it is set and readable, else undefined. */
function _ollamaHost(): string | undefined {
  try {
    const granted =
      Deno.permissions.querySync({ name: "env", variable: "OLLAMA_HOST" }).state === "granted";
    const host = granted ? Deno.env.get("OLLAMA_HOST")?.trim() : undefined;
    return host ? normalizeHost(host) : undefined;
  } catch {
    return undefined;
  }
}

/** Options for {@linkcode initProject}. */
export interface InitOptions {
  /** Where to look for model servers (tests point these at scripted servers). */
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
  const cost = (m: { name: string; size?: number }) => m.size || (_params(m.name) ?? Infinity);
  const sorted = [...fit].sort((a, b) => cost(a) - cost(b));
  const picks = sorted.length <= MAX_RUNGS
    ? sorted
    : [sorted[0], sorted[Math.floor((sorted.length - 1) / 2)], sorted[sorted.length - 1]];
  return picks.slice(0, MAX_RUNGS).map((m) => m.name);
}

/** Writes a starter config at `configPath` unless one exists; returns a line for the user. */
export async function initProject(
  root: string,
  configPath: string,
  opts: InitOptions = {},
): Promise<string> {
  if (await _exists(configPath)) return `${configPath} already exists; nothing written`;
  const checks = await detectChecks(root);
  const envHost = _ollamaHost();
  // OLLAMA_HOST set means Ollama; otherwise whichever local server answers.
  const found: Detected = envHost && !opts.probe
    ? { provider: "ollama", host: envHost }
    : await detectServer(
      opts.probe ?? { ollama: DEFAULT_OLLAMA_HOST, servers: [...LOCAL_SERVERS] },
    );
  const model = found.provider === "openai" && found.models.length ? found.models[0] : MODEL;
  const server = found.provider === "ollama"
    ? { ollama_host: found.host }
    : { provider: "openai", base_url: found.base_url };
  const ladder = proposeLadder(
    found.provider === "ollama" ? found.models ?? [] : found.models.map((name) => ({ name })),
  );
  const config = ladder
    ? { ...server, max_attempts: 3, ladder: ladder.map((m) => ({ model: m })), checks }
    : { model, ...server, max_attempts: 3, checks };
  await writeFileAtomic(configPath, JSON.stringify(config, null, 2) + "\n");
  const names = Object.keys(checks);
  const what = `${
    names.length ? `checks ${names.join(", ")}` : 'no checks (add some under "checks")'
  }`;
  if (ladder) {
    const where = found.provider === "ollama" ? `Ollama at ${found.host}` : found.base_url;
    return `wrote ${configPath} for ${where} with a ladder of ${ladder.length} models, ` +
      `cheapest first: ${ladder.join(", ")} (each gets max_attempts, then hands the task to the ` +
      `next), and ${what}`;
  }
  if (found.provider === "openai") {
    return `wrote ${configPath} for the ${found.server} at ${found.base_url} with model ${model} ` +
      `and ${what}${
        found.models.length > 1 ? `; it also serves ${found.models.slice(1, 4).join(", ")}` : ""
      }`;
  }
  return `wrote ${configPath} with model ${MODEL} and ${what}; run 'ollama pull ${MODEL}' if the ` +
    "model is not installed yet";
}
