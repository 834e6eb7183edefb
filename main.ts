/**
 * localexec's entry point: parse the command line, build one state, then serve MCP on stdio or
 * run one command. Nothing but the MCP transport (or `call`'s single JSON line) writes to stdout.
 */
import { CONFIG_NAME, hostPort, loadConfig } from "./lib/config.ts";
import { HELP, initProject, parseCli } from "./lib/cli/mod.ts";
import { resolve } from "./lib/deps.ts";
import { errorLine, isPermissionError } from "./lib/errors.ts";
import {
  availableTools,
  type CallResult,
  createState,
  dispatch,
  errorResult,
  type ServerState,
  serveStdio,
} from "./lib/mcp/mod.ts";
import { startWatchdog } from "./lib/process.ts";
import { removeStaleTemps } from "./lib/tasks/mod.ts";
import { VERSION } from "./lib/version.ts";
import { TOOLS } from "./tools/mod.ts";

// stdout belongs to the protocol: anything a dependency logs goes to stderr instead.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

function _fail(message: string): never {
  console.error(`localexec: ${message}`);
  Deno.exit(2);
}

/** The root as a real path; without read permission for it, the path as given (every tool is off). */
async function _root(given: string): Promise<string> {
  try {
    const root = await Deno.realPath(resolve(given));
    if (!(await Deno.stat(root)).isDirectory) _fail(`root "${given}" is not a folder`);
    return root;
  } catch (err) {
    if (isPermissionError(err)) {
      console.error(
        `localexec: no read permission for "${given}": every tool is off (grant --allow-read)`,
      );
      return resolve(given);
    }
    if (err instanceof Deno.errors.NotFound) _fail(`root "${given}" does not exist`);
    _fail(`cannot use root "${given}": ${errorLine(err)}`);
  }
}

async function _state(opts: ReturnType<typeof parseCli>): Promise<ServerState> {
  const root = await _root(opts.root);
  // A relative --config is relative to the current folder, as on any command line.
  const configPath = opts.config ? resolve(opts.config) : resolve(root, CONFIG_NAME);
  const ollamaHost = await loadConfig(configPath).then((c) => hostPort(c.ollama_host)).catch(() =>
    "127.0.0.1:11434"
  );
  if (opts.tools) {
    if (!opts.tools.length) {
      _fail("--tools needs at least one tool name, for example --tools read_file");
    }
    const unknown = opts.tools.filter((t) => !TOOLS.some((tool) => tool.name === t));
    if (unknown.length) _fail(`unknown tool in --tools: ${unknown.join(", ")}`);
  }
  const tools = availableTools(TOOLS, { root, ollamaHost }, {
    readOnly: opts.readOnly,
    only: opts.tools,
  });
  return createState(root, configPath, tools);
}

async function _print(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(`${text}\n`);
  for (let done = 0; done < bytes.length;) done += await Deno.stdout.write(bytes.subarray(done));
}

async function _printTool(state: ServerState, name: string, json: string | undefined) {
  let args: unknown = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json);
    } catch (err) {
      const why = errorLine(err).slice(0, 200);
      return await _printResult(errorResult(`the JSON argument is not valid JSON: ${why}`));
    }
  }
  await _printResult(await dispatch(name, args, { state }));
}

async function _printResult(result: CallResult): Promise<void> {
  const text = result.content[0];
  await _print(text.type === "text" ? text.text : "");
  if (result.isError) Deno.exitCode = 1;
}

async function main(args: string[]): Promise<void> {
  let opts;
  try {
    opts = parseCli(args, Deno.cwd());
  } catch (err) {
    _fail((err as Error).message);
  }
  if (opts.command === "help" || opts.command === "version") {
    await _print(opts.command === "help" ? HELP : `localexec ${VERSION}`);
    return;
  }
  const state = await _state(opts);
  switch (opts.command) {
    case "call":
      _watchdog(state);
      return await _printTool(state, opts.tool!, opts.json);
    case "status":
      return await _printTool(state, "status", undefined);
    case "init": {
      try {
        console.error(await initProject(state.root, state.configPath));
      } catch (err) {
        _fail(
          isPermissionError(err)
            ? `cannot write ${state.configPath}: init needs write permission (--allow-write)`
            : `cannot write ${state.configPath}: ${errorLine(err)}`,
        );
      }
      return;
    }
    case "serve":
      if (Deno.stdin.isTerminal()) {
        console.error(
          `localexec ${VERSION} serving MCP on stdio for ${state.root} (${state.tools.on.length} tools on). ` +
            `Point an MCP client at this command; see README "Use it from Claude Code".`,
        );
      }
      _watchdog(state);
      // Temporary files that killed task runs left behind (their records name them), in the
      // background: it never throws.
      if (state.tools.on.some((t) => t.name === "revert_task")) removeStaleTemps(state.root);
      return await serveStdio(state);
  }
}

/** Commands started by tools die with this process, however it dies (see `lib/process.ts`). */
function _watchdog(state: ServerState): void {
  if (state.tools.on.some((t) => t.needs.includes("run"))) startWatchdog();
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (err) {
    // Never a stack trace: one line saying what went wrong.
    _fail(errorLine(err));
  }
}
