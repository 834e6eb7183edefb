/**
 * `.localexec.json`: loading, defaults and validation (docs/ARCHITECTURE.md, "Configuration").
 *
 * A missing file is not an error: it means no checks and no model. Bad JSON, a wrong type, a bad
 * check name or a check without a command is a {@linkcode ConfigError} whose message names the key
 * and the problem. Unknown top-level keys are warnings, so a newer config still loads in an older
 * binary; unknown keys inside a check are errors, because a misspelt `files_filter` or `timeout_s`
 * would silently change what runs.
 *
 * The chat timeouts: `first_token_timeout_s` (default 300) is how long a chat may wait for its first
 * chunk (a large model loading cold), `request_timeout_s` how long the whole chat may take. When
 * `request_timeout_s` is not given it is the larger of 600 and `first_token_timeout_s` + 300, so
 * raising the first alone never ends a chat early; when both are given the first may not exceed it,
 * and a `request_timeout_s` under 300 given alone lowers the first's default to it.
 *
 * The model-server keys (`provider`, its host key — `ollama_host`, `base_url` — as one host or a
 * list, `api_key_env`, `context_length`, a provider's own keys) are read by
 * {@linkcode readModelSettings} with the provider table the caller hands in (`lib/providers/`,
 * docs/PROVIDERS.md): the loader knows no provider by name, and an unknown one is an error.
 *
 * ```json
 * { "provider": "openai", "base_url": ["http://gpu1:8000/v1", "http://gpu2:8000/v1"],
 *   "api_key_env": "VLLM_API_KEY", "context_length": 32768 }
 * ```
 */
import { errorLine, firstLine, ToolError } from "./errors.ts";
import { basename } from "./deps.ts";
import { isInside, toRel } from "./paths.ts";

/**
 * What the configuration reads of a model provider: one record of the provider table
 * (`lib/providers/`, docs/PROVIDERS.md), whose other fields (the backend) the loader never needs.
 * The loader is handed the table: it knows no provider by name.
 */
export interface ProviderSpec {
  /** The value of `provider`, e.g. `ollama`. */
  readonly name: string;
  /** The key that names its servers, one URL or a list (`ollama_host`, `base_url`). */
  readonly hostKey: string;
  /** Its server when the host key is absent; without one the host key is required. */
  readonly defaultHost?: string;
  /** An environment variable that replaces `defaultHost` when set (`OLLAMA_HOST`). */
  readonly hostEnv?: string;
  /** A host key's value to show when it is missing, e.g. `http://127.0.0.1:8080/v1`. */
  readonly example: string;
  /**
   * The other keys it takes (`api_key_env`, `context_length`, `num_ctx`, or its own): another
   * provider's key is refused naming the providers that take it. Keys the loader does not check
   * itself are kept as written in `ModelSettings.options`.
   */
  readonly keys: readonly string[];
  /** A host as written, as one URL (throws when it is not one). */
  normalize(text: string): string;
  /** What to say when one of its keys is set with another provider, by key (`; use …`). */
  readonly keyHints?: Readonly<Record<string, string>>;
}

/** The provider table the loader is handed (the first one is the default). */
export type ProviderTable = readonly ProviderSpec[];

/** The model-server settings, normalised. */
export interface ModelSettings {
  /** The provider's name (one of the table's). */
  provider: string;
  /** Base URLs of the model servers, in the order to try them (its host key's value). */
  hosts: string[];
  api_key_env?: string;
  context_length?: number;
  /** The provider's own keys the loader does not check, as written. */
  options?: Record<string, unknown>;
}

/** Keys whose values the loader checks itself, whichever provider takes them. */
const CHECKED_KEYS = ["api_key_env", "context_length", "num_ctx"];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `host:port` of a base URL, as Deno's net permission names it. */
export function hostPort(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

/** Every key some provider of `table` takes: its host key and its own. */
export function providerKeys(table: ProviderTable): string[] {
  return [...new Set(table.flatMap((p) => [p.hostKey, ...p.keys]))];
}

/** The provider `name` of `table`; undefined when the table has none of that name. */
export function findProvider(table: ProviderTable, name: unknown): ProviderSpec | undefined {
  return table.find((p) => p.name === name);
}

/** `provider: unknown provider "x"; known: a, b` (with the closest name when one is close). */
export function unknownProvider(table: ProviderTable, name: unknown): string {
  const names = table.map((p) => p.name);
  const shown = typeof name === "string" ? JSON.stringify(name.slice(0, 64)) : _kind(name);
  return `unknown provider ${shown}${
    typeof name === "string" ? didYouMean(name, names) : ""
  }; known: ${names.join(", ")}`;
}

/**
 * Reads the model keys of `data` with the providers of `table` (absent `provider`: the table's
 * first). `env` reads an environment variable (a provider's `hostEnv`). Problems go to `fail` as
 * `key: problem`; the result is undefined when any was found.
 */
export function readModelSettings(
  data: Record<string, unknown>,
  table: ProviderTable,
  env: (name: string) => string | undefined,
  fail: (key: string, problem: string) => void,
): ModelSettings | undefined {
  let bad = false;
  const problem = (key: string, text: string) => {
    bad = true;
    fail(key, text);
  };
  const spec = findProvider(table, data.provider ?? table[0]?.name);
  if (!spec) {
    problem("provider", unknownProvider(table, data.provider));
    return undefined;
  }
  const mine = [spec.hostKey, ...spec.keys];
  for (const key of providerKeys(table)) {
    if (data[key] === undefined || mine.includes(key)) continue;
    const owners = table.filter((p) => p.hostKey === key || p.keys.includes(key));
    const hint = (owners.length === 1 ? owners[0].keyHints?.[key] : undefined) ??
      ` (add "provider": ${owners.map((p) => JSON.stringify(p.name)).join(" or ")})${
        owners.some((p) => p.hostKey === key)
          ? `; provider "${spec.name}" names its servers with ${spec.hostKey}`
          : ""
      }`;
    problem(
      key,
      `only used with provider ${owners.map((p) => `"${p.name}"`).join(" or ")}${hint}`,
    );
  }
  const hosts = _hosts(spec, data[spec.hostKey], env, problem);
  const settings = _checkedKeys(data, problem);
  const options: Record<string, unknown> = {};
  for (const key of spec.keys) {
    if (!CHECKED_KEYS.includes(key) && data[key] !== undefined) options[key] = data[key];
  }
  if (bad) return undefined;
  return {
    provider: spec.name,
    hosts,
    ...settings,
    ...(Object.keys(options).length ? { options } : {}),
  };
}

/** The hosts of `spec`: its host key's value, else its environment variable, else its default. */
function _hosts(
  spec: ProviderSpec,
  value: unknown,
  env: (name: string) => string | undefined,
  problem: (key: string, text: string) => void,
): string[] {
  if (value !== undefined) return _urls(spec.hostKey, value, spec.normalize, problem);
  const fromEnv = spec.hostEnv ? env(spec.hostEnv) : undefined;
  if (fromEnv === undefined && spec.defaultHost === undefined) {
    problem(
      spec.hostKey,
      `required with provider "${spec.name}", e.g. ${JSON.stringify(spec.example)}`,
    );
    return [];
  }
  try {
    return [spec.normalize(fromEnv ?? spec.defaultHost!)];
  } catch {
    problem(fromEnv !== undefined ? spec.hostEnv! : spec.hostKey, "not a valid URL or host:port");
    return [];
  }
}

/** `api_key_env` and `context_length`, checked. */
function _checkedKeys(
  data: Record<string, unknown>,
  problem: (key: string, text: string) => void,
): { api_key_env?: string; context_length?: number } {
  const env = data.api_key_env;
  if (env !== undefined) {
    if (typeof env !== "string") problem("api_key_env", `expected a string, got ${_kind(env)}`);
    else if (!ENV_NAME.test(env)) {
      problem(
        "api_key_env",
        "must be the name of an environment variable (such as OPENAI_API_KEY), never the key itself",
      );
    }
  }
  const ctx = data.context_length;
  if (ctx !== undefined) {
    if (typeof ctx !== "number" || !Number.isInteger(ctx)) {
      problem(
        "context_length",
        `expected an integer, got ${typeof ctx === "number" ? ctx : _kind(ctx)}`,
      );
    } else if (ctx < 512 || ctx > 1_048_576) {
      problem("context_length", `must be between 512 and 1048576, got ${ctx}`);
    }
  }
  return {
    ...(typeof env === "string" ? { api_key_env: env } : {}),
    ...(typeof ctx === "number" ? { context_length: ctx } : {}),
  };
}

function _urls(
  key: string,
  v: unknown,
  normalize: (text: string) => string,
  problem: (key: string, text: string) => void,
): string[] {
  const list = Array.isArray(v) ? v : [v];
  if (Array.isArray(v) && !v.length) {
    problem(key, "the list must not be empty");
    return [];
  }
  const out: string[] = [];
  for (const [i, item] of list.entries()) {
    const at = Array.isArray(v) ? `${key}.${i}` : key;
    if (typeof item !== "string") {
      problem(
        at,
        `expected a URL string${Array.isArray(v) ? "" : " or a list of them"}, got ${_kind(item)}`,
      );
      continue;
    }
    if (!item.trim()) {
      problem(at, "must not be empty");
      continue;
    }
    try {
      const url = normalize(item);
      if (out.includes(url)) problem(at, `${url} is listed twice`);
      else out.push(url);
    } catch {
      problem(at, `not a valid URL or host:port: ${JSON.stringify(item.slice(0, 100))}`);
    }
  }
  return out;
}

/** `parallel` as written: chats every host serves at once, or per host (its URL or host:port). */
export type Parallel = number | Record<string, number>;

/** The most chats one host may be given at once. */
const MAX_PARALLEL = 64;

/**
 * Checks a `parallel` value at `key` (a whole number from 1 to 64, or an object of them keyed by
 * host); problems go to `fail` as `key: problem`, and the result is then undefined.
 */
export function readParallel(
  key: string,
  v: unknown,
  fail: (key: string, problem: string) => void,
): Parallel | undefined {
  if (v === undefined) return undefined;
  const count = (at: string, n: unknown): n is number => {
    if (typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= MAX_PARALLEL) return true;
    fail(
      at,
      `expected a whole number of chats at once from 1 to ${MAX_PARALLEL}, got ${
        typeof n === "number" ? n : _kind(n)
      }`,
    );
    return false;
  };
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    if (typeof v !== "number") {
      fail(key, `expected a number or an object of host: number, got ${_kind(v)}`);
      return undefined;
    }
    return count(key, v) ? v : undefined;
  }
  const out: Record<string, number> = {};
  let bad = false;
  for (const [host, n] of Object.entries(v)) {
    if (!host.trim()) {
      fail(`${key}.${host}`, "a host must not be empty");
      bad = true;
    } else if (count(`${key}.${host}`, n)) out[host] = n;
    else bad = true;
  }
  return bad ? undefined : out;
}

/** The file name looked up at the project root. */
export const CONFIG_NAME = ".localexec.json";

/** Check names: letters, digits, `.`, `_` and `-`, up to 64 characters. */
const CHECK_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** The configuration is unreadable or invalid; the message names the key and the problem. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** A caller named checks the configuration does not have. */
export class UnknownCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnknownCheckError";
  }
}

/** One configured check, in the order written. */
export interface Check {
  name: string;
  /** A shell string (run by `sh -c`) or an argv array (run directly); may contain `{files}`. */
  command: string | string[];
  /** Globs on the basename (`*.py`) or, when they hold a `/`, on the whole path (`src/**\/*.ts`). */
  files_filter?: string[];
  timeout_s: number;
}

/** The loaded configuration with defaults filled in. */
export interface Config {
  /** Path of the file it came from. */
  path: string;
  /** False when the file does not exist (defaults only). */
  exists: boolean;
  model?: string;
  /** Which API the model servers speak: a provider of the table (its first by default). */
  provider: string;
  /**
   * Base URLs of the model servers, in the order to try them: the provider's host key
   * (`ollama_host`, `base_url`: one or a list), else its default.
   */
  hosts: string[];
  /** The name of the environment variable that holds the API key. */
  api_key_env?: string;
  /** The context window the server runs with, when it does not say. */
  context_length?: number;
  /** The provider's own keys the loader does not check, as written. */
  options?: Record<string, unknown>;
  max_attempts: number;
  checks: Check[];
  temperature?: number;
  num_ctx?: number;
  keep_alive?: string | number;
  /**
   * Seconds a chat may wait for its first chunk (model load and prompt reading). Default 300, or
   * `request_timeout_s` when that is smaller; never more than `request_timeout_s`.
   */
  first_token_timeout_s: number;
  /**
   * Seconds a whole chat may take. Default: the larger of 600 and `first_token_timeout_s` + 300.
   */
  request_timeout_s: number;
  edit_format: "auto" | "whole" | "diff";
  /** Seconds a call waits for the project write lock before it gives up. */
  lock_timeout_s: number;
  /** implement_task's default `wait_s` (seconds before it answers `running`), when set. */
  wait_s?: number;
  /**
   * Whether a copy of the project is kept ready in the cache, so that a task started beside another
   * gets its workspace in about a second instead of copying the tree. Default true.
   */
  workspace_standby: boolean;
  /** Problems that do not stop loading (unknown keys). */
  warnings: string[];
  /** Chats each model host serves at once, as written (`lib/model/` resolves it per host). */
  parallel?: Parallel;
  /** The model ladder as written; `lib/model/` checks it (`readLadder`) when the rungs are needed. */
  ladder?: unknown;
}

/** The top-level keys besides the providers' own (`providerKeys`). */
const TOP_KEYS = [
  "model",
  "provider",
  "max_attempts",
  "checks",
  "temperature",
  "num_ctx",
  "keep_alive",
  "first_token_timeout_s",
  "request_timeout_s",
  "edit_format",
  "lock_timeout_s",
  "wait_s",
  "workspace_standby",
  "parallel",
  "ladder",
];
const CHECK_KEYS = ["command", "files_filter", "timeout_s"];
/** `edit_format` values: "auto" and the built-in reply formats (lib/edit/formats; a test holds them equal). */
export const EDIT_FORMATS = ["auto", "whole", "diff"] as const;

/** `first_token_timeout_s` when not given. */
const FIRST_TOKEN_TIMEOUT_S = 300;
/** `request_timeout_s` when not given, unless `first_token_timeout_s` needs more. */
const REQUEST_TIMEOUT_S = 600;
/** What a default `request_timeout_s` leaves for the reply after the first token's timeout. */
const REPLY_ROOM_S = 300;

/** The variable `name` when it is set, not empty and may be read; else undefined. */
export function readEnv(name: string): string | undefined {
  try {
    const granted = Deno.permissions.querySync({ name: "env", variable: name }).state === "granted";
    return granted ? Deno.env.get(name)?.trim() || undefined : undefined;
  } catch {
    return undefined;
  }
}

/** The edit distance between `a` and `b` (insertions, deletions, substitutions, swaps). */
function _distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * ` (did you mean "X"?)` for an unknown `key` when one of `known` is close to it (an edit
 * distance of at most a third of its length, two at least, case aside), else "".
 */
export function didYouMean(key: string, known: readonly string[]): string {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(key.length / 3)) + 1;
  for (const k of known) {
    const d = _distance(lower, k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best === undefined ? "" : ` (did you mean "${best}"?)`;
}

function _kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function _isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Collects problems while reading one config object. */
class _Reader {
  problems: string[] = [];
  constructor(readonly data: Record<string, unknown>) {}

  fail(key: string, problem: string): undefined {
    this.problems.push(`${key}: ${problem}`);
    return undefined;
  }

  number(key: string, v: unknown, min: number, max: number, int = false): number | undefined {
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isFinite(v)) {
      return this.fail(key, `expected ${int ? "an integer" : "a number"}, got ${_kind(v)}`);
    }
    if (int && !Number.isInteger(v)) return this.fail(key, `expected an integer, got ${v}`);
    if (v < min || v > max) return this.fail(key, `must be between ${min} and ${max}, got ${v}`);
    return v;
  }

  string(key: string, v: unknown): string | undefined {
    if (v === undefined) return undefined;
    if (typeof v !== "string") return this.fail(key, `expected a string, got ${_kind(v)}`);
    if (!v.trim()) return this.fail(key, "must not be empty");
    return v;
  }

  check(name: string, v: unknown): Check | undefined {
    const key = `checks.${name}`;
    if (!CHECK_NAME.test(name)) {
      return this.fail(key, "check names may use letters, digits, ., _ and - (up to 64)");
    }
    if (!_isObject(v)) {
      return this.fail(key, `expected an object such as {"command": "..."}, got ${_kind(v)}`);
    }
    const extra = Object.keys(v).filter((k) => !CHECK_KEYS.includes(k));
    if (extra.length) {
      return this.fail(
        key,
        `unknown key ${extra.map((k) => `"${k}"${didYouMean(k, CHECK_KEYS)}`).join(", ")} ` +
          `(a check takes ${CHECK_KEYS.join(", ")})`,
      );
    }
    const command = this.command(`${key}.command`, v.command);
    const filter = this.filter(`${key}.files_filter`, v.files_filter);
    const timeout = this.number(`${key}.timeout_s`, v.timeout_s, 0.001, 86_400);
    if (command === undefined) return undefined;
    return {
      name,
      command,
      ...(filter ? { files_filter: filter } : {}),
      timeout_s: timeout ?? 300,
    };
  }

  command(key: string, v: unknown): string | string[] | undefined {
    if (v === undefined) {
      return this.fail(key, "missing: a check needs a shell string or an argv array");
    }
    if (typeof v === "string") return v.trim() ? v : this.fail(key, "must not be empty");
    if (!Array.isArray(v)) {
      return this.fail(key, `expected a shell string or an argv array, got ${_kind(v)}`);
    }
    if (!v.length) return this.fail(key, "the argv array must not be empty");
    const bad = v.findIndex((a) => typeof a !== "string");
    if (bad >= 0) return this.fail(`${key}.${bad}`, `expected a string, got ${_kind(v[bad])}`);
    if (!(v[0] as string).trim()) {
      return this.fail(`${key}.0`, "the program name must not be empty");
    }
    return v as string[];
  }

  filter(key: string, v: unknown): string[] | undefined {
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) {
      return this.fail(key, `expected a list of globs such as ["*.ts"], got ${_kind(v)}`);
    }
    const bad = v.findIndex((g) => typeof g !== "string" || !g.trim());
    if (bad >= 0) return this.fail(`${key}.${bad}`, "expected a non-empty glob string");
    return v as string[];
  }
}

/**
 * Validates parsed JSON `data` from `path` with the providers of `table`; throws
 * {@linkcode ConfigError} naming the key.
 */
export function parseConfig(data: unknown, path: string, table: ProviderTable): Config {
  if (!_isObject(data)) {
    throw new ConfigError(`${path}: expected a JSON object at the top level, got ${_kind(data)}`);
  }
  const r = new _Reader(data);
  const checks: Check[] = [];
  if (data.checks !== undefined) {
    if (!_isObject(data.checks)) {
      r.fail("checks", `expected an object of named checks, got ${_kind(data.checks)}`);
    } else {
      for (const [name, value] of Object.entries(data.checks)) {
        const check = r.check(name, value);
        if (check) checks.push(check);
      }
    }
  }
  const model = r.string("model", data.model);
  const models = readModelSettings(data, table, readEnv, (key, problem) => r.fail(key, problem));
  const maxAttempts = r.number("max_attempts", data.max_attempts, 1, 10, true);
  const temperature = r.number("temperature", data.temperature, 0, 2);
  const numCtx = r.number("num_ctx", data.num_ctx, 512, 1_048_576, true);
  const keepAlive = data.keep_alive;
  if (keepAlive !== undefined && typeof keepAlive !== "string" && typeof keepAlive !== "number") {
    r.fail("keep_alive", `expected a string such as "10m" or a number, got ${_kind(keepAlive)}`);
  }
  const firstToken = r.number("first_token_timeout_s", data.first_token_timeout_s, 1, 86_400);
  const requestTimeout = r.number("request_timeout_s", data.request_timeout_s, 1, 86_400);
  if (firstToken !== undefined && requestTimeout !== undefined && firstToken > requestTimeout) {
    r.fail(
      "first_token_timeout_s",
      `must not exceed request_timeout_s (${requestTimeout}), which bounds the whole chat, got ` +
        `${firstToken}: raise request_timeout_s or leave it out`,
    );
  }
  const lockTimeout = r.number("lock_timeout_s", data.lock_timeout_s, 0, 86_400);
  const waitS = r.number("wait_s", data.wait_s, 0, 86_400);
  const standby = data.workspace_standby;
  if (standby !== undefined && typeof standby !== "boolean") {
    r.fail("workspace_standby", `expected true or false, got ${_kind(standby)}`);
  }
  const parallel = readParallel("parallel", data.parallel, (key, problem) => r.fail(key, problem));
  const format = data.edit_format;
  if (format !== undefined && !EDIT_FORMATS.includes(format as "auto")) {
    r.fail(
      "edit_format",
      `expected one of ${EDIT_FORMATS.join(", ")}, got ${JSON.stringify(format)}`,
    );
  }
  if (r.problems.length || !models) {
    const extra = r.problems.length - 3;
    const more = extra > 0 ? `; and ${extra} more problem${extra === 1 ? "" : "s"}` : "";
    throw new ConfigError(`${path}: ${r.problems.slice(0, 3).join("; ")}${more}`);
  }
  const known = [...TOP_KEYS, ...providerKeys(table)];
  const warnings = Object.keys(data).filter((k) => !known.includes(k) && k !== "$schema")
    .map((k) => `${path}: unknown key "${k}" ignored${didYouMean(k, known)}`);
  return {
    path,
    exists: true,
    model,
    ...models,
    max_attempts: maxAttempts ?? 3,
    checks,
    temperature,
    num_ctx: numCtx,
    keep_alive: keepAlive as string | number | undefined,
    first_token_timeout_s: firstToken ??
      Math.min(FIRST_TOKEN_TIMEOUT_S, requestTimeout ?? Infinity),
    request_timeout_s: requestTimeout ??
      Math.max(REQUEST_TIMEOUT_S, (firstToken ?? FIRST_TOKEN_TIMEOUT_S) + REPLY_ROOM_S),
    edit_format: (format as Config["edit_format"] | undefined) ?? "auto",
    lock_timeout_s: lockTimeout ?? 120,
    ...(waitS !== undefined ? { wait_s: waitS } : {}),
    workspace_standby: standby !== false,
    ...(parallel !== undefined ? { parallel } : {}),
    warnings,
    ...(data.ladder !== undefined ? { ladder: data.ladder } : {}),
  };
}

function _jsonProblem(text: string, err: Error): string {
  const message = firstLine(err.message);
  const at = /position (\d+)/.exec(message);
  if (!at || /line \d+/.test(message)) return message;
  const before = text.slice(0, Number(at[1])).split("\n");
  return `${message} (line ${before.length} column ${before[before.length - 1].length + 1})`;
}

/**
 * Loads the configuration at `path` with the providers of `table`; a missing file yields the
 * defaults with `exists: false`.
 */
export async function loadConfig(path: string, table: ProviderTable): Promise<Config> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      return { ...parseConfig({}, path, table), exists: false };
    }
    throw new ConfigError(`${path}: cannot read: ${errorLine(err)}`);
  }
  let data: unknown;
  try {
    // Editors on Windows may start the file with a byte order mark, which JSON does not allow.
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    throw new ConfigError(`${path}: not valid JSON: ${_jsonProblem(text, err as Error)}`);
  }
  return parseConfig(data, path, table);
}

/**
 * The checks named in `names`, in the order the config lists them; all of them when `names` is
 * absent or empty. Throws {@linkcode UnknownCheckError} listing the configured names otherwise.
 */
export function selectChecks(config: Config, names?: readonly string[]): Check[] {
  if (!names?.length) return config.checks;
  const known = new Set(config.checks.map((c) => c.name));
  const unknown = [...new Set(names)].filter((n) => !known.has(n));
  if (unknown.length) {
    const list = config.checks.length
      ? `configured checks: ${config.checks.map((c) => c.name).join(", ")}`
      : `no checks are configured in ${config.path}`;
    throw new UnknownCheckError(
      `unknown check${unknown.length > 1 ? "s" : ""} ${
        unknown.map((n) => JSON.stringify(n.slice(0, 64))).join(", ")
      }; ${list}`,
    );
  }
  const wanted = new Set(names);
  return config.checks.filter((c) => wanted.has(c.name));
}

/**
 * {@linkcode loadConfig} for a tool call: a {@linkcode ConfigError} becomes a `ToolError` saying
 * "invalid configuration: …", which the result boundary shows as it is; each of the config's
 * warnings (an unknown key, with the key it may mean) goes to `warn`, for the call's answer.
 */
export async function loadToolConfig(
  path: string,
  root: string,
  table: ProviderTable,
  warn?: (text: string) => void,
): Promise<Config> {
  const shown = isInside(root, path) ? toRel(root, path) : basename(path);
  let config: Config;
  try {
    config = await loadConfig(path, table);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    throw new ToolError(`invalid configuration: ${err.message.replaceAll(path, shown)}`);
  }
  for (const w of config.warnings) warn?.(w.replaceAll(path, shown));
  return config;
}
