/**
 * `localexec init`: writes a starter `.localexec.json` with checks for the project it finds.
 *
 * The test checks it writes pass on a project that has no tests yet (`deno test --permit-no-files`,
 * pytest's "no tests ran" exit code 5), so the first implement_task is not failed by a missing test
 * suite. `ollama_host` is the host in effect: `OLLAMA_HOST` when it is set, else the default.
 */
import { DEFAULT_OLLAMA_HOST, normalizeHost } from "../config.ts";
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

/** `OLLAMA_HOST` (normalised) when it is set and readable, else the default host. */
function _ollamaHost(): string {
  try {
    const granted =
      Deno.permissions.querySync({ name: "env", variable: "OLLAMA_HOST" }).state === "granted";
    const host = granted ? Deno.env.get("OLLAMA_HOST")?.trim() : undefined;
    return host ? normalizeHost(host) : DEFAULT_OLLAMA_HOST;
  } catch {
    return DEFAULT_OLLAMA_HOST;
  }
}

/** Writes a starter config at `configPath` unless one exists; returns a line for the user. */
export async function initProject(root: string, configPath: string): Promise<string> {
  if (await _exists(configPath)) return `${configPath} already exists; nothing written`;
  const checks = await detectChecks(root);
  const config = {
    model: "qwen2.5-coder:7b",
    ollama_host: _ollamaHost(),
    max_attempts: 3,
    checks,
  };
  await writeFileAtomic(configPath, JSON.stringify(config, null, 2) + "\n");
  const names = Object.keys(checks);
  return `wrote ${configPath} with model qwen2.5-coder:7b and ${
    names.length ? `checks ${names.join(", ")}` : 'no checks (add some under "checks")'
  }; run 'ollama pull qwen2.5-coder:7b' if the model is not installed yet`;
}
