/**
 * localexec's entry point: parse the command line, build one state, then serve MCP on stdio or
 * run one command. Nothing but the MCP transport (or `call`'s single JSON line) writes to stdout.
 *
 * Everything past the command line is loaded when a command needs it: `--version` loads no tool,
 * `call TOOL` loads that tool and the boundary but not the MCP SDK or the other tools, and `serve`
 * answers `tools/list` from the tools' manifest, loading each tool's module on its first call.
 */
import {
  callExitCode,
  callText,
  chooseRoot,
  configFile,
  envVar,
  HELP,
  initProject,
  judgeRoot,
  parseCli,
  ProgressLine,
  type RootChoice,
} from "./lib/cli/mod.ts";
import { dirname, resolve } from "./lib/deps.ts";
import { errorLine, isPermissionError } from "./lib/errors.ts";
import type { CallResult, RootsOptions, ServeOptions, ServerState } from "./lib/mcp/mod.ts";
import { tuneMalloc } from "./lib/process/malloc.ts";
import { unrefTimer } from "./lib/quiet.ts";
import { VERSION } from "./lib/version.ts";
import { TOOL_NAMES, toolEntries } from "./tools/mod.ts";
import { fileURLToPath } from "node:url";

/** localexec's own folder: where `deno task --config …/deno.json start` runs it. */
const OWN_DIR = dirname(fileURLToPath(import.meta.url));

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
    if (!(await Deno.stat(root)).isDirectory) throw new Error(`root "${given}" is not a folder`);
    return root;
  } catch (err) {
    if (isPermissionError(err)) {
      console.error(
        `localexec: no read permission for "${given}": every tool is off (grant --allow-read)`,
      );
      return resolve(given);
    }
    if (err instanceof Deno.errors.NotFound) throw new Error(`root "${given}" does not exist`);
    if (err instanceof Error && err.message.startsWith("root ")) throw err;
    throw new Error(`cannot use root "${given}": ${errorLine(err)}`);
  }
}

/** The state for the chosen root, and the reason that root must not be served, if it must not. */
async function _state(
  opts: ReturnType<typeof parseCli>,
  choice: RootChoice,
): Promise<{ state: ServerState; refuse?: string }> {
  const [config, { availableTools, createState }, all, { PROVIDERS }] = await Promise.all([
    import("./lib/config.ts"),
    import("./lib/mcp/mod.ts"),
    toolEntries(),
    import("./lib/providers/mod.ts"),
  ]);
  const { CONFIG_NAME, hostPort, loadConfig } = config;
  const root = await _root(choice.path);
  const verdict = await judgeRoot(root, choice.explicit);
  // A relative --config is relative to the current folder, as on any command line.
  const configPath = configFile(opts.config, root, CONFIG_NAME, opts.command === "init");
  // implement_task needs the network for every model host the config names.
  const modelHosts = await loadConfig(configPath, PROVIDERS).then((c) => c.hosts.map(hostPort))
    .catch(() => PROVIDERS.flatMap((p) => p.defaultHost ? [hostPort(p.defaultHost)] : []));
  if (opts.tools) {
    if (!opts.tools.length) {
      _fail("--tools needs at least one tool name, for example --tools read_file");
    }
    const unknown = opts.tools.filter((t) => !TOOL_NAMES.includes(t));
    if (unknown.length) _fail(`unknown tool in --tools: ${unknown.join(", ")}`);
  }
  const tools = availableTools(all, { root, modelHosts }, {
    readOnly: opts.readOnly,
    only: opts.tools,
  });
  // `init` is how a bare folder becomes a project: no warning there.
  if (verdict.warning && opts.command !== "init") {
    console.error(`localexec: WARNING: ${verdict.warning}`);
  }
  return {
    state: createState(root, configPath, tools, verdict.warning, opts.waitS),
    refuse: verdict.refuse,
  };
}

/** How `serve` follows the client's MCP roots when no --root was given. */
function _roots(opts: ReturnType<typeof parseCli>, refuse?: string): RootsOptions {
  return {
    async stateFor(root) {
      const next = await _state(opts, { path: root, explicit: false });
      if (next.refuse) throw new Error(next.refuse);
      return next.state;
    },
    // Started in `/` and the client named no root either: refuse, loudly.
    noRoot: refuse ? () => _fail(refuse) : undefined,
  };
}

async function _print(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(`${text}\n`);
  for (let done = 0; done < bytes.length;) done += await Deno.stdout.write(bytes.subarray(done));
}

/**
 * Runs one tool for the command line: its progress on stderr (one live line on a terminal, a
 * line per step otherwise), its answer on stdout (indented for a person at a terminal, or always
 * with `pretty`), and the exit code `callExitCode` gives.
 */
async function _printTool(
  state: ServerState,
  name: string,
  json: string | undefined,
  pretty = Deno.stdout.isTerminal(),
) {
  const { dispatch, errorResult } = await import("./lib/mcp/mod.ts");
  let args: unknown = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json);
    } catch (err) {
      const why = errorLine(err).slice(0, 200);
      return await _printResult(errorResult(`the JSON argument is not valid JSON: ${why}`), pretty);
    }
  }
  const line = new ProgressLine(`localexec ${name}`);
  const notify = (message: string, progress: number, total?: number) =>
    line.show(message, progress, total);
  try {
    const result = await dispatch(name, args, { state, notify });
    line.end(); // (before the answer: the live line is gone when it prints)
    await _printResult(result, pretty);
  } finally {
    line.end();
  }
}

async function _printResult(result: CallResult, pretty: boolean): Promise<void> {
  const first = result.content[0];
  const text = first.type === "text" ? first.text : "";
  await _print(callText(text, pretty));
  Deno.exitCode = callExitCode(text, result.isError);
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
  const choice = chooseRoot(
    opts.rootGiven ? opts.root : undefined,
    Deno.cwd(),
    envVar("INIT_CWD"),
    OWN_DIR,
  );
  if (opts.command === "eval") return await _eval(opts, choice);
  const { state, refuse } = await _state(opts, choice);
  // `serve` may still get a root from the client (MCP roots); everything else refuses now.
  if (refuse && (opts.command !== "serve" || choice.explicit)) _fail(refuse);
  switch (opts.command) {
    case "call":
      await _watchdog(state);
      await _printTool({ ...state, once: true }, opts.tool!, opts.json);
      // The answer is written, and the tool's work with it (its commands reaped, its files
      // closed): end now instead of waiting for the runtime to wind down (tests/cli/exit_test.ts).
      return Deno.exit();
    case "status":
      return await _printTool(state, "status", undefined, true);
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
      // A server gives back what a burst of work took (lib/process/malloc.ts): set before workers start.
      tuneMalloc();
      if (Deno.stdin.isTerminal()) {
        console.error(
          `localexec ${VERSION} serving MCP on stdio for ${state.root} (${state.tools.on.length} tools on). ` +
            `Point an MCP client at this command; see README "Use it from MCP clients".`,
        );
      }
      await _watchdog(state);
      await (await import("./lib/mcp/mod.ts")).serveStdio(state, {
        roots: choice.explicit ? undefined : _roots(opts, refuse),
        later: refuse ? undefined : _cleanup(state),
        idle: refuse ? undefined : _prestart(state),
        called: refuse ? undefined : _called(state),
      });
      // find's search workers would keep the process up (see lib/find/search.ts): ended here.
      // One ended while it runs code under node:vm (a search, a collection) goes on until that
      // code returns (Deno 2.9), and a server was once seen not to end: it ends anyway, 2 s later.
      if (_findOn(state)) {
        (await import("./lib/find/mod.ts")).endFind();
        unrefTimer(setTimeout(() => Deno.exit(), END_GRACE_MS));
      }
      // The client never named another root (or never said `initialized`).
      if (refuse && state.root === "/") _fail(refuse);
      // Tasks still running in the background end with the process, as a kill would end them:
      // their records read `interrupted` and revert_task undoes them (README, "wait_tasks").
      if (state.tasks.running().length) Deno.exit();
      return;
  }
}

/** `localexec eval`: its own module, loaded here and nowhere else (no server state needed). */
async function _eval(opts: ReturnType<typeof parseCli>, choice: RootChoice): Promise<void> {
  const [{ evalCommand }, { CONFIG_NAME }, tools] = await Promise.all([
    import("./lib/eval/mod.ts"),
    import("./lib/config.ts"),
    toolEntries(),
  ]);
  const root = await _root(choice.path);
  const e = opts.eval!;
  Deno.exitCode = await evalCommand({
    root,
    configPath: configFile(opts.config, root, CONFIG_NAME),
    models: e.models,
    tasksDir: e.tasks === undefined ? undefined : resolve(e.tasks),
    jobs: e.jobs,
    json: e.json,
    tools,
  });
}

/**
 * Removes the temporary files that killed task runs left behind (their records name them), once
 * the client has its first answers; it never throws.
 */
function _cleanup(state: ServerState): (() => void) | undefined {
  if (!state.tools.on.some((t) => t.name === "revert_task")) return undefined;
  const root = state.root;
  return () => void import("./lib/tasks/mod.ts").then((tasks) => tasks.removeStaleTemps(root));
}

/** How long a server whose session is over waits for find's workers to stop before it exits. */
const END_GRACE_MS = 2000;

function _findOn(state: ServerState): boolean {
  return state.tools.on.some((t) => t.name === "find");
}

/**
 * With find on, its engine and search worker are made ready at the server's first quiet moment
 * rather than in the first find, where starting the worker held the thread (and every call beside
 * the find) for 0.1–0.4 s; see `lib/find/mod.ts`.
 */
function _prestart(state: ServerState): (() => void) | undefined {
  if (!_findOn(state)) return undefined;
  return () => void import("./lib/find/mod.ts").then((find) => find.prestartFind());
}

/** What the server does once a call is answered: find's idle clock, outline's worker ahead. */
function _called(state: ServerState): ServeOptions["called"] {
  const ahead = _ahead(state);
  if (!_findOn(state)) return ahead;
  return (name, args, result) => {
    if (name === "find") void import("./lib/mcp/find_idle.ts").then((idle) => idle.findAnswered());
    ahead?.(name, args, result);
  };
}

/**
 * outline's worker, started ahead of need (it ends when idle; see `lib/outline/host.ts`): after a
 * `read_file` of a file outline reads, or a find whose first match is in one, with that grammar.
 */
function _ahead(state: ServerState): ServeOptions["called"] {
  if (!state.tools.on.some((t) => t.name === "outline")) return undefined;
  return (name, args, result) => {
    const path = name === "read_file"
      ? (args as { filename?: unknown } | undefined)?.filename
      : name === "find" && Array.isArray(result?.matches)
      ? /^(.+?):\d+:/.exec(String(result.matches[0]))?.[1]
      : undefined;
    if (typeof path !== "string" || result?.status !== "ok") return;
    void Promise.all([import("./lib/outline/mod.ts"), import("./lib/paths.ts")]).then(
      async ([outline, paths]) => {
        const language = outline.languageOf(path);
        const file = language && await paths.resolveForRead(state.root, path).catch(() => null);
        if (file) outline.prestartOutline(language, file.abs);
      },
    );
  };
}

/**
 * Commands started by tools die with this process, however it dies (see
 * `lib/process/watchdog.ts`): the watchdog starts with the first command.
 */
async function _watchdog(state: ServerState): Promise<void> {
  if (state.tools.on.some((t) => t.needs.includes("run"))) {
    (await import("./lib/process/mod.ts")).wantWatchdog();
  }
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (err) {
    // Never a stack trace: one line saying what went wrong.
    _fail(errorLine(err));
  }
}
