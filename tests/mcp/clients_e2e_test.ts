/**
 * Real MCP clients against the server, where they install: the MCP Inspector CLI (tools/list, and
 * calls whose integer arguments it encodes from the schema) and Claude Code (`claude mcp add`, then
 * `claude mcp list` with a temporary HOME says Connected).
 *
 * The clients are installed once with npm into a cache folder ($LOCALEXEC_CLIENTS, default
 * ~/.cache/localexec/clients) and reused. When npm or the registry is not there, each test says
 * why on stderr and passes without running.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { FULL, MAIN } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";

/**
 * The newest Inspector whose `engines` admit Node 20 (0.16 and later want Node 22). Its CLI turns
 * `--tool-arg k=v` into a number only when the property's schema says `type: integer|number`.
 */
const INSPECTOR = "@modelcontextprotocol/inspector@0.15.0";
/** npm picks the newest Claude Code whose `engines` fit the installed Node. */
const CLAUDE = "@anthropic-ai/claude-code";

const CACHE = Deno.env.get("LOCALEXEC_CLIENTS") ??
  join(Deno.env.get("HOME") ?? "/tmp", ".cache", "localexec", "clients");

const SERVER = [Deno.execPath(), "run", "--no-prompt", ...FULL, MAIN];

/** The path of `bin` from `pkg`, installing it into the cache first; a reason when it cannot. */
async function _install(dir: string, pkg: string, bin: string): Promise<string | { skip: string }> {
  const path = join(CACHE, dir, "node_modules", ".bin", bin);
  if (await Deno.stat(path).then(() => true, () => false)) return path;
  await Deno.mkdir(join(CACHE, dir), { recursive: true });
  try {
    const { code, stderr } = await new Deno.Command("npm", {
      // npm's own cache first, and no retries: without a registry this fails in a second.
      args: [
        "install",
        "--prefix",
        join(CACHE, dir),
        pkg,
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        "--fetch-retries=0",
        "--fetch-timeout=30000",
      ],
      stdout: "null",
      signal: AbortSignal.timeout(180_000),
    }).output();
    if (code !== 0) {
      const why = new TextDecoder().decode(stderr).split("\n").find((l) => l.trim()) ??
        `exit ${code}`;
      return { skip: `npm install ${pkg} failed: ${why}` };
    }
  } catch (err) {
    return { skip: `npm install ${pkg} did not run: ${(err as Error).message}` };
  }
  return path;
}

async function _run(cmd: string, args: string[], opts: Deno.CommandOptions = {}) {
  const out = await new Deno.Command(cmd, {
    args,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
    ...opts,
  }).output();
  const dec = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: dec(out.stdout), stderr: dec(out.stderr) };
}

/** The clients, installed (or found in the cache) before the tests are declared: a client that
 * cannot be had makes its test reported as ignored, never passed having checked nothing. */
const INSPECTOR_BIN = await _install("inspector", INSPECTOR, "mcp-inspector");
const CLAUDE_BIN = await _install("claude", CLAUDE, "claude");
for (const bin of [INSPECTOR_BIN, CLAUDE_BIN]) {
  if (typeof bin !== "string") console.error(`ignored: ${bin.skip}`);
}

Deno.test({
  name: "Inspector CLI: tools/list, and integer --tool-arg values reach read_file",
  ignore: typeof INSPECTOR_BIN !== "string",
  fn: async () => {
    const inspector = INSPECTOR_BIN as string;
    const root = await tempProject({ "package.json": "{}\n", "a.py": "one\ntwo\nthree\n" });
    // The server's command right after `--`, the Inspector's options after it: then neither the
    // server's options nor a `--config` can be read as the Inspector's own.
    const cli = (...args: string[]) =>
      _run(inspector, ["--cli", "--", ...SERVER, ...args], { cwd: root });

    const list = await cli("--method", "tools/list");
    assert.equal(list.code, 0, list.stderr);
    const tools = JSON.parse(list.stdout).tools as { name: string; inputSchema: unknown }[];
    assert.ok(tools.some((t) => t.name === "read_file"));
    assert.doesNotMatch(JSON.stringify(tools.map((t) => t.inputSchema)), /anyOf/);

    const call = await cli(
      "--method",
      "tools/call",
      "--tool-name",
      "read_file",
      "--tool-arg",
      "path=a.py",
      "--tool-arg",
      "start_line=2",
      "--tool-arg",
      "end_line=2",
    );
    assert.equal(call.code, 0, call.stderr);
    const result = JSON.parse(call.stdout).structuredContent;
    assert.equal(result.status, "ok", result.error);
    assert.equal(result.content, "two\n");
  },
});

Deno.test({
  name: "Claude Code: claude mcp add, then claude mcp list says Connected",
  ignore: typeof CLAUDE_BIN !== "string",
  fn: async () => {
    const claude = CLAUDE_BIN as string;
    const root = await tempProject({ "package.json": "{}\n" });
    const home = await Deno.makeTempDir({ prefix: "localexec-claude-home-" });
    const denoDir = JSON.parse((await _run(Deno.execPath(), ["info", "--json"])).stdout).denoDir;
    // A temporary HOME, and Deno's warm cache so the server does not start cold.
    const env = { HOME: home, DENO_DIR: denoDir, NO_COLOR: "1" };
    try {
      const add = await _run(claude, ["mcp", "add", "localexec", "--", ...SERVER], {
        cwd: root,
        env,
      });
      assert.equal(add.code, 0, `claude mcp add failed: ${add.stderr}`);
      const list = await _run(claude, ["mcp", "list"], { cwd: root, env });
      assert.match(list.stdout, /localexec: .* - ✔ Connected/, list.stdout + list.stderr);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});
