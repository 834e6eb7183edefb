import assert from "node:assert/strict";
import { PROVIDERS } from "../lib/providers/mod.ts";
import { ToolError } from "../lib/errors.ts";
import { join } from "../lib/deps.ts";
import {
  ConfigError,
  didYouMean,
  loadConfig,
  loadToolConfig,
  parseConfig,
  selectChecks,
  UnknownCheckError,
} from "../lib/config.ts";
import { detectChecks, initProject } from "../lib/cli/init.ts";
import { tempProject } from "./helpers/project.ts";
import { normalizeHost } from "../lib/ollama/mod.ts";

function _error(data: unknown): string {
  try {
    parseConfig(data, "cfg", PROVIDERS);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message;
  }
  assert.fail("expected a ConfigError");
}

Deno.test("config missing file gives defaults and no checks", async () => {
  const root = await tempProject();
  const c = await loadConfig(join(root, ".localexec.json"), PROVIDERS);
  assert.equal(c.exists, false);
  assert.deepEqual(c.checks, []);
  assert.equal(c.max_attempts, 3);
  assert.equal(c.lock_timeout_s, 120);
  assert.equal(c.model, undefined);
});

Deno.test("config keeps checks in the order written with default timeouts", async () => {
  const root = await tempProject({
    ".localexec.json": JSON.stringify({
      model: "qwen2.5-coder:7b",
      checks: {
        tests: { command: ["deno", "test", "-A"] },
        lint: { command: "deno lint {files}", files_filter: ["*.ts"], timeout_s: 60 },
      },
    }),
  });
  const c = await loadConfig(join(root, ".localexec.json"), PROVIDERS);
  assert.equal(c.exists, true);
  assert.deepEqual(c.checks, [
    { name: "tests", command: ["deno", "test", "-A"], timeout_s: 300 },
    { name: "lint", command: "deno lint {files}", files_filter: ["*.ts"], timeout_s: 60 },
  ]);
  assert.deepEqual(c.warnings, []);
});

Deno.test("config ollama_host falls back to OLLAMA_HOST, then the default", () => {
  const before = Deno.env.get("OLLAMA_HOST");
  try {
    Deno.env.set("OLLAMA_HOST", "gpu-box:9999");
    assert.equal(parseConfig({}, "cfg", PROVIDERS).hosts[0], "http://gpu-box:9999");
    assert.equal(
      parseConfig({ ollama_host: "http://10.0.0.2:11434/" }, "cfg", PROVIDERS).hosts[0],
      "http://10.0.0.2:11434",
    );
    Deno.env.delete("OLLAMA_HOST");
    assert.equal(parseConfig({}, "cfg", PROVIDERS).hosts[0], "http://127.0.0.1:11434");
  } finally {
    if (before === undefined) Deno.env.delete("OLLAMA_HOST");
    else Deno.env.set("OLLAMA_HOST", before);
  }
  assert.equal(normalizeHost("0.0.0.0"), "http://127.0.0.1:11434");
});

Deno.test("config bad JSON says where", async () => {
  const root = await tempProject({ ".localexec.json": '{\n  "model": "x",\n  "checks": {,}\n}' });
  await assert.rejects(
    () => loadConfig(join(root, ".localexec.json"), PROVIDERS),
    (err: Error) =>
      err instanceof ConfigError && /not valid JSON/.test(err.message) &&
      /line 3/.test(err.message),
  );
});

Deno.test("config errors name the key and the problem", () => {
  assert.match(_error({ max_attempts: "3" }), /max_attempts: expected an integer, got string/);
  assert.match(_error({ max_attempts: 0 }), /max_attempts: must be between 1 and 10, got 0/);
  assert.match(_error({ checks: [] }), /checks: expected an object of named checks, got array/);
  assert.match(_error({ checks: { lint: {} } }), /checks\.lint\.command: missing/);
  assert.match(_error({ checks: { lint: "deno lint" } }), /checks\.lint: expected an object/);
  assert.match(
    _error({ checks: { lint: { command: 5 } } }),
    /checks\.lint\.command: expected a shell string or an argv array, got number/,
  );
  assert.match(
    _error({ checks: { lint: { command: [] } } }),
    /checks\.lint\.command: the argv array must not be empty/,
  );
  assert.match(
    _error({ checks: { lint: { command: ["a", 3] } } }),
    /checks\.lint\.command\.1: expected a string, got number/,
  );
  assert.match(
    _error({ checks: { "bad name": { command: "x" } } }),
    /checks\.bad name: check names may use/,
  );
  assert.match(
    _error({ checks: { lint: { command: "x", files_filter: "*.ts" } } }),
    /checks\.lint\.files_filter: expected a list of globs/,
  );
  assert.match(
    _error({ checks: { lint: { command: "x", timeout: 5 } } }),
    /checks\.lint: unknown key "timeout" \(did you mean "timeout_s"\?\)/,
  );
  assert.match(
    _error({ checks: { lint: { command: "x", timeout_s: -1 } } }),
    /checks\.lint\.timeout_s: must be between/,
  );
  assert.match(_error({ model: 5 }), /model: expected a string, got number/);
  assert.match(_error({ edit_format: "patch" }), /edit_format: expected one of auto, whole, diff/);
  assert.match(_error([1]), /expected a JSON object at the top level, got array/);
  const many = _error({ model: 1, max_attempts: "x", num_ctx: 1, temperature: 9 });
  assert.match(many, /and 1 more problem$/);
});

Deno.test("config unknown top-level keys are warnings", () => {
  const c = parseConfig({ modle: "x", checks: { t: { command: "true" } } }, "cfg", PROVIDERS);
  assert.deepEqual(c.warnings, ['cfg: unknown key "modle" ignored (did you mean "model"?)']);
  assert.equal(c.checks.length, 1);
});

Deno.test("config unknown keys at every level get the key they may mean", () => {
  const warned = (data: Record<string, unknown>) => parseConfig(data, "cfg", PROVIDERS).warnings;
  assert.deepEqual(warned({ max_attempt: 2, chekcs: {}, Temperature: 0.2, colour: "x" }), [
    'cfg: unknown key "max_attempt" ignored (did you mean "max_attempts"?)',
    'cfg: unknown key "chekcs" ignored (did you mean "checks"?)',
    'cfg: unknown key "Temperature" ignored (did you mean "temperature"?)',
    'cfg: unknown key "colour" ignored',
  ]);
  assert.match(
    _error({ checks: { t: { comand: "true", files_filters: ["*.py"] } } }),
    /unknown key "comand" \(did you mean "command"\?\), "files_filters" \(did you mean "files_filter"\?\)/,
  );
  assert.match(didYouMean("ollama_hots", ["ollama_host", "model"]), /"ollama_host"/);
  assert.equal(didYouMean("zzz", ["model"]), "");
});

Deno.test("config selectChecks keeps config order and lists the known names", () => {
  const c = parseConfig(
    {
      checks: { a: { command: "true" }, b: { command: "true" }, c: { command: "true" } },
    },
    "cfg",
    PROVIDERS,
  );
  assert.deepEqual(selectChecks(c).map((x) => x.name), ["a", "b", "c"]);
  assert.deepEqual(selectChecks(c, ["c", "a"]).map((x) => x.name), ["a", "c"]);
  assert.throws(
    () => selectChecks(c, ["a", "zz"]),
    (err: Error) =>
      err instanceof UnknownCheckError && /"zz"; configured checks: a, b, c/.test(err.message),
  );
});

Deno.test("init writes a config that loads, with checks for the project kind", async () => {
  const root = await tempProject({ "deno.json": "{}" });
  const path = join(root, ".localexec.json");
  const message = await initProject(root, path);
  assert.match(message, /wrote .* checks lint, tests/);
  const c = await loadConfig(path, PROVIDERS);
  assert.deepEqual(c.checks.map((x) => x.name), ["lint", "tests"]);
  assert.match(await initProject(root, path), /already exists/);
  const py = await tempProject({ "pyproject.toml": "" });
  assert.deepEqual(Object.keys(await detectChecks(py)), ["compile", "tests"]);
  assert.deepEqual(await detectChecks(await tempProject()), {});
});

Deno.test("init takes npm scripts and ruff settings into account", async () => {
  const node = await tempProject({
    "package.json": JSON.stringify({ scripts: { lint: "eslint .", test: "vitest run" } }),
  });
  assert.deepEqual(Object.keys(await detectChecks(node)), ["lint", "tests"]);
  const bare = await tempProject({
    "package.json": JSON.stringify({
      scripts: { test: 'echo "Error: no test specified" && exit 1' },
    }),
  });
  assert.deepEqual(await detectChecks(bare), {});
  const ruff = await tempProject({ "pyproject.toml": "[tool.ruff]\nline-length = 100\n" });
  assert.deepEqual(Object.keys(await detectChecks(ruff)), ["compile", "lint", "tests"]);
});

Deno.test("loadToolConfig names the file relative to the root, never its absolute path", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  const path = `${root}/.localexec.json`;
  await Deno.writeTextFile(path, '{"checks": {"a": {"command": 5}}}');
  try {
    await loadToolConfig(path, root, PROVIDERS);
    assert.fail("expected an error");
  } catch (err) {
    assert.ok(err instanceof ToolError);
    assert.match(err.message, /^invalid configuration: \.localexec\.json: checks\.a\.command/);
    assert.ok(!err.message.includes(root), err.message);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("config wait_s: seconds from 0 to a day, a bad one named", () => {
  assert.equal(parseConfig({ wait_s: 30 }, "cfg", PROVIDERS).wait_s, 30);
  assert.equal(parseConfig({}, "cfg", PROVIDERS).wait_s, undefined);
  assert.match(_error({ wait_s: "30" }), /wait_s: expected a number, got string/);
  assert.match(_error({ wait_s: -1 }), /wait_s: must be between 0 and 86400, got -1/);
});

Deno.test("config parallel: a whole number or host: number, a bad one named", () => {
  assert.equal(parseConfig({ parallel: 2 }, "cfg", PROVIDERS).parallel, 2);
  assert.deepEqual(parseConfig({ parallel: { "gpu:11434": 4 } }, "cfg", PROVIDERS).parallel, {
    "gpu:11434": 4,
  });
  assert.match(_error({ parallel: 0 }), /parallel: expected a whole number .* got 0/);
  assert.match(_error({ parallel: 1.5 }), /parallel: expected a whole number .* got 1\.5/);
  assert.match(_error({ parallel: "2" }), /parallel: expected a number or an object/);
  assert.match(
    _error({ parallel: { gpu: "2" } }),
    /parallel\.gpu: expected a whole number .* got string/,
  );
});

Deno.test("config first_token_timeout_s: 300 by default, request_timeout_s leaves room after it", () => {
  const timeouts = (data: Record<string, unknown>) => {
    const c = parseConfig(data, "cfg", PROVIDERS);
    return [c.first_token_timeout_s, c.request_timeout_s];
  };
  assert.deepEqual(timeouts({}), [300, 600]);
  // Raised alone, the whole chat grows with it: a model silent for 900 s does not fail at 600 s.
  assert.deepEqual(timeouts({ first_token_timeout_s: 900 }), [900, 1200]);
  assert.deepEqual(timeouts({ first_token_timeout_s: 301 }), [301, 601]);
  assert.deepEqual(timeouts({ first_token_timeout_s: 60 }), [60, 600]);
  // Both given: kept as written, equal allowed.
  assert.deepEqual(timeouts({ first_token_timeout_s: 900, request_timeout_s: 900 }), [900, 900]);
  assert.deepEqual(timeouts({ first_token_timeout_s: 30, request_timeout_s: 60 }), [30, 60]);
  // request_timeout_s alone keeps bounding every wait, the first token's too.
  assert.deepEqual(timeouts({ request_timeout_s: 1000 }), [300, 1000]);
  assert.deepEqual(timeouts({ request_timeout_s: 60 }), [60, 60]);
  assert.deepEqual(parseConfig({ first_token_timeout_s: 900 }, "cfg", PROVIDERS).warnings, []);
});

Deno.test("config first_token_timeout_s: a bad one, or one above request_timeout_s, is named", () => {
  assert.match(
    _error({ first_token_timeout_s: "900" }),
    /first_token_timeout_s: expected a number, got string/,
  );
  assert.match(
    _error({ first_token_timeout_s: 0 }),
    /first_token_timeout_s: must be between 1 and 86400, got 0/,
  );
  assert.match(
    _error({ first_token_timeout_s: 86_401 }),
    /first_token_timeout_s: must be between 1 and 86400, got 86401/,
  );
  assert.match(
    _error({ first_token_timeout_s: 900, request_timeout_s: 600 }),
    /^cfg: first_token_timeout_s: must not exceed request_timeout_s \(600\).* got 900/,
  );
});
