/**
 * The command line (docs/ARCHITECTURE.md, "Command line"): parsing, which is pure, and `init`,
 * which writes a `.localexec.json` (`init.ts`).
 */
import { parseArgs } from "../deps.ts";
import { firstLine } from "../errors.ts";

export { type InitOptions, initProject } from "./init.ts";
export {
  chooseRoot,
  configFile,
  envVar,
  judgeRoot,
  type RootChoice,
  type RootVerdict,
} from "./root.ts";
export { ProgressLine, type ProgressLineOptions } from "./progress_line.ts";
export { callExitCode, callText } from "./call.ts";

/** The parsed command line. */
export interface CliOptions {
  command: "serve" | "call" | "init" | "status" | "eval" | "version" | "help";
  root: string;
  /** True when `--root` gave the root (otherwise it is the working folder). */
  rootGiven: boolean;
  config?: string;
  tools?: string[];
  readOnly: boolean;
  /** `--wait-s`: implement_task's default `wait_s` in this server. */
  waitS?: number;
  /** For `call`: the tool name and its JSON arguments (text). */
  tool?: string;
  json?: string;
  /** For `eval`: what `--models`, `--tasks`, `--jobs` and `--json` asked. */
  eval?: EvalCli;
}

/** The options of `localexec eval`. */
export interface EvalCli {
  models?: string[];
  tasks?: string;
  jobs: number;
  json: boolean;
}

/** The text `--help` prints. */
export const HELP = `localexec — delegate small coding steps to a local model, over MCP on stdio

Usage:
  localexec [serve] [--root DIR] [--config FILE] [--tools a,b,c] [--read-only] [--wait-s N]
                                 serve MCP on stdio (default)
  localexec call TOOL [JSON]     run one tool once, print its JSON result
  localexec init                 write a .localexec.json for the project in this folder
  localexec status               print the status tool's result
  localexec eval [--models a,b] [--tasks DIR] [--jobs N] [--json]
                                 measure the model on small delegation tasks before use
  localexec --version | --help

Options:
  --root DIR       project root; every path is relative to it (default: the MCP client's
                   first root if it declares roots, else the current folder; / is refused)
  --config FILE    configuration file (default: <root>/.localexec.json)
  --tools a,b,c    offer only these tools
  --read-only      offer only tools that change nothing
  --wait-s N       implement_task answers "running" after N seconds and the task goes on
                   (wait_tasks collects it); default: the config's wait_s, else the verdict
  --models a,b     eval: these models instead of the configured one (one run each)
  --tasks DIR      eval: your own task set instead of the bundled suite (docs/EVAL.md)
  --jobs N         eval: tasks at once, up to one per model host (default 1)
  --json           eval: print the full result as JSON instead of the tables

Tools are offered only when Deno grants what they need (--allow-read, --allow-write,
--allow-run, --allow-net); 'localexec status' lists the ones that are off and why.`;

const OPTIONS = {
  root: { type: "string" },
  config: { type: "string" },
  tools: { type: "string" },
  "read-only": { type: "boolean", default: false },
  "wait-s": { type: "string" },
  models: { type: "string" },
  tasks: { type: "string" },
  jobs: { type: "string" },
  json: { type: "boolean", default: false },
  version: { type: "boolean", short: "V", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

/**
 * `args` with a negative number after an option that takes a value joined to it (`--wait-s -1` as
 * `--wait-s=-1`): `parseArgs` reads `-1` as an option, and said "--wait-s needs a value".
 */
function _joinNegatives(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i].startsWith("--") ? args[i].slice(2) : undefined;
    const takesValue = name !== undefined && Object.hasOwn(OPTIONS, name) &&
      OPTIONS[name as keyof typeof OPTIONS].type === "string";
    if (takesValue && /^-\d/.test(args[i + 1] ?? "")) out.push(`${args[i]}=${args[++i]}`);
    else out.push(args[i]);
  }
  return out;
}

/** `parseArgs` with its errors reworded as one short line each. */
function _parse(args: string[]) {
  try {
    return parseArgs({
      args: _joinNegatives(args),
      allowPositionals: true,
      strict: true,
      options: OPTIONS,
    });
  } catch (err) {
    const message = (err as Error).message;
    const option = message.match(/'(-[^' ]*)/)?.[1] ?? "";
    const code = (err as { code?: string }).code;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      throw new TypeError(`unknown option "${option}" (try --help)`);
    }
    if (/argument missing|ambiguous/.test(message)) {
      throw new TypeError(`${option} needs a value, for example ${option}=VALUE`);
    }
    if (/does not take an argument/.test(message)) {
      throw new TypeError(`${option} does not take a value`);
    }
    throw new TypeError(firstLine(message));
  }
}

/** `text` as seconds between 0 and a day; throws naming `option` otherwise. */
function _seconds(option: string, text: string): number {
  const n = Number(text);
  const got = `got "${text.slice(0, 20)}"`;
  if (n < 0) throw new TypeError(`${option} must be 0 or more seconds, ${got}`);
  if (!text.trim() || !Number.isFinite(n) || n > 86_400) {
    throw new TypeError(`${option} takes seconds between 0 and 86400, ${got}`);
  }
  return n;
}

/** Parses `args`; throws a `TypeError` with a one-line message on bad usage. */
export function parseCli(args: string[], cwd: string): CliOptions {
  const { values, positionals } = _parse(args);
  const base = {
    root: values.root || cwd,
    rootGiven: !!values.root,
    config: values.config,
    tools: values.tools?.split(",").map((t) => t.trim()).filter(Boolean),
    readOnly: values["read-only"] ?? false,
    ...(values["wait-s"] !== undefined ? { waitS: _seconds("--wait-s", values["wait-s"]) } : {}),
  };
  if (values.help) return { ...base, command: "help" };
  if (values.version) return { ...base, command: "version" };
  const [command = "serve", ...rest] = positionals;
  const evalOnly = (["models", "tasks", "jobs", "json"] as const).find((k) =>
    k === "json" ? values.json : values[k] !== undefined
  );
  if (evalOnly && command !== "eval") {
    throw new TypeError(`--${evalOnly} is an option of eval (localexec eval --${evalOnly} ...)`);
  }
  switch (command) {
    case "help":
    case "version":
      return { ...base, command };
    case "serve":
    case "init":
    case "status":
      if (rest.length) throw new TypeError(`unexpected argument "${rest[0]}" after ${command}`);
      return { ...base, command };
    case "eval":
      if (rest.length) throw new TypeError(`unexpected argument "${rest[0]}" after eval`);
      return { ...base, command, eval: _evalOptions(values) };
    case "call":
      if (!rest.length) throw new TypeError("call needs a tool name: localexec call TOOL [JSON]");
      if (rest.length > 2) throw new TypeError("call takes a tool name and one JSON argument");
      return { ...base, command, tool: rest[0], json: rest[1] };
    default:
      throw new TypeError(`unknown command "${command}" (try --help)`);
  }
}

/** `eval`'s options, checked. */
function _evalOptions(
  values: { models?: string; tasks?: string; jobs?: string; json?: boolean },
): EvalCli {
  const models = values.models?.split(",").map((m) => m.trim()).filter(Boolean);
  if (values.models !== undefined && !models?.length) {
    throw new TypeError("--models needs at least one model name, for example --models qwen3:8b");
  }
  const jobs = values.jobs === undefined ? 1 : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) {
    throw new TypeError(`--jobs takes a whole number from 1 to 64, got "${values.jobs}"`);
  }
  if (values.tasks !== undefined && !values.tasks.trim()) {
    throw new TypeError("--tasks needs a folder, for example --tasks ./eval-tasks");
  }
  return { ...(models ? { models } : {}), tasks: values.tasks, jobs, json: !!values.json };
}
