/**
 * localexec's entry point: parse the command line, build one state, then serve MCP on stdio or
 * run one command. Nothing but the MCP transport (or `call`'s single JSON line) writes to stdout.
 */
import { CONFIG_NAME, hostPort, loadConfig } from "./lib/config.ts";
import { HELP, parseCli } from "./lib/cli.ts";
import { resolve } from "./lib/deps.ts";
import { initProject } from "./lib/init.ts";
import { availableTools } from "./lib/permissions.ts";
import { dispatch, serveStdio } from "./lib/server.ts";
import { createState, type ServerState } from "./lib/state.ts";
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

async function _state(opts: ReturnType<typeof parseCli>): Promise<ServerState> {
  let root: string;
  try {
    root = await Deno.realPath(resolve(opts.root));
    if (!(await Deno.stat(root)).isDirectory) _fail(`root "${opts.root}" is not a folder`);
  } catch (err) {
    _fail(`cannot use root "${opts.root}": ${(err as Error).message.split("\n", 1)[0]}`);
  }
  const configPath = resolve(root, opts.config ?? CONFIG_NAME);
  const ollamaHost = await loadConfig(configPath).then((c) => hostPort(c.ollama_host)).catch(() =>
    "127.0.0.1:11434"
  );
  if (opts.tools) {
    const unknown = opts.tools.filter((t) => !TOOLS.some((tool) => tool.name === t));
    if (unknown.length) _fail(`unknown tool in --tools: ${unknown.join(", ")}`);
  }
  const tools = availableTools(TOOLS, { root, ollamaHost }, {
    readOnly: opts.readOnly,
    only: opts.tools,
  });
  return createState(root, configPath, tools);
}

async function _printTool(state: ServerState, name: string, json: string | undefined) {
  let args: unknown = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json);
    } catch {
      _fail("the JSON argument is not valid JSON");
    }
  }
  const result = await dispatch(name, args, { state });
  const text = result.content[0];
  await Deno.stdout.write(new TextEncoder().encode(`${text.type === "text" ? text.text : ""}\n`));
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
    const text = opts.command === "help" ? HELP : `localexec ${VERSION}`;
    await Deno.stdout.write(new TextEncoder().encode(`${text}\n`));
    return;
  }
  const state = await _state(opts);
  switch (opts.command) {
    case "call":
      return await _printTool(state, opts.tool!, opts.json);
    case "status":
      return await _printTool(state, "status", undefined);
    case "init": {
      const message = await initProject(state.root, state.configPath);
      console.error(message);
      return;
    }
    case "serve":
      if (Deno.stdin.isTerminal()) {
        console.error(
          `localexec ${VERSION} serving MCP on stdio for ${state.root} (${state.tools.on.length} tools on). ` +
            `Point an MCP client at this command; see README "Use it from Claude Code".`,
        );
      }
      return await serveStdio(state);
  }
}

if (import.meta.main) await main(Deno.args);
