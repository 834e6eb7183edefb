/**
 * The model ladder of `.localexec.json` (docs/ARCHITECTURE.md, "Delegation"): `ladder` is a list
 * of rungs, cheapest first, each `{"model": "...", ...}` with optional `provider`, its host key
 * (`ollama_host`, `base_url`) and its own keys (`api_key_env`, `context_length`, `num_ctx`, …:
 * the provider table's, `lib/providers/`), `max_attempts` and `temperature`. A rung inherits every
 * top-level setting it does not set (the servers, the key and the provider's own keys only from a
 * top level of the same provider); without `ladder` the top-level `model` is the one rung. A ladder has at
 * most 16 rungs (`MAX_RUNGS`). The timeouts (`first_token_timeout_s`, `request_timeout_s`)
 * are top-level only: they apply to every rung, so set them for the slowest.
 *
 * ```json
 * { "model": "qwen2.5-coder:7b", "max_attempts": 2,
 *   "ladder": [{ "model": "qwen2.5-coder:7b" },
 *              { "model": "qwen2.5-coder:32b", "ollama_host": "http://gpu:11434", "max_attempts": 3 }] }
 * ```
 *
 * The configuration loader keeps `ladder` as written; {@linkcode readLadder} checks it when the
 * engine or `status` needs the rungs, and names the rung and the key of every problem.
 */
import {
  didYouMean,
  findProvider,
  type ModelSettings,
  type Parallel,
  providerKeys,
  type ProviderTable,
  readEnv,
  readModelSettings,
  readParallel,
} from "../config.ts";

/** One rung: a model and everything needed to ask it, inherited keys filled in. */
export interface Rung extends ModelSettings {
  model: string;
  /** `num_ctx` for Ollama: used as it is. */
  num_ctx?: number;
  max_attempts: number;
  temperature?: number;
  /** Chats each of `hosts` serves at once, in their order (`parallel`); absent: 1 each. */
  capacity?: number[];
}

/** The top-level settings a rung inherits (a loaded `Config` has them all). */
export interface LadderBase {
  model?: string;
  provider: string;
  hosts: string[];
  api_key_env?: string;
  context_length?: number;
  options?: Record<string, unknown>;
  num_ctx?: number;
  max_attempts: number;
  temperature?: number;
  /** `parallel` as written (checked by the configuration's loader). */
  parallel?: Parallel;
  /** The `ladder` key as written, unchecked. */
  ladder?: unknown;
}

/** A bad `ladder`; the message names the rung and the key (`ladder.1.base_url: …`). */
export class LadderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LadderError";
  }
}

/** The most rungs a ladder may have: each is a model asked in turn, and `status` asks them all. */
const MAX_RUNGS = 16;

/** Keys that only the top level takes, with what to do instead. */
const TOP_ONLY: Readonly<Record<string, string>> = {
  first_token_timeout_s: "set it at the top level: the timeouts apply to every rung",
  request_timeout_s: "set it at the top level: the timeouts apply to every rung",
};

/** The keys a rung may set besides its providers' (`providerKeys`). */
export const RUNG_KEYS: readonly string[] = [
  "model",
  "provider",
  "max_attempts",
  "temperature",
  "parallel",
];

/**
 * The rungs of `base`, cheapest first: its `ladder` checked and filled from the top level, or the
 * top-level `model` alone; empty when neither names a model. `table` is the provider table;
 * `env` reads a provider's host variable (`OLLAMA_HOST`). Throws {@linkcode LadderError} naming
 * the rung and the key of the first problems.
 */
export function readLadder(
  base: LadderBase,
  table: ProviderTable,
  env: (name: string) => string | undefined = readEnv,
): Rung[] {
  if (base.ladder === undefined) {
    if (!base.model) return [];
    const rung = _fromBase(base, base.model, table);
    _unmatched(base, [rung], table);
    return [rung];
  }
  const problems: string[] = [];
  const fail = (key: string, problem: string) => void problems.push(`${key}: ${problem}`);
  if (!Array.isArray(base.ladder)) {
    throw new LadderError(
      `ladder: expected a list of rungs such as [{"model": "..."}], got ${_kind(base.ladder)}`,
    );
  }
  if (!base.ladder.length) {
    throw new LadderError("ladder: the list must not be empty (leave it out for one model)");
  }
  if (base.ladder.length > MAX_RUNGS) {
    throw new LadderError(`ladder: at most ${MAX_RUNGS} rungs, got ${base.ladder.length}`);
  }
  const rungs: Rung[] = [];
  for (const [i, raw] of base.ladder.entries()) {
    const at = `ladder.${i}`;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      fail(at, `expected an object such as {"model": "..."}, got ${_kind(raw)}`);
      continue;
    }
    const rung = _rung(
      base,
      raw as Record<string, unknown>,
      { table, env },
      (key, p) => fail(`${at}.${key}`, p),
    );
    if (!rung) continue;
    const twin = rungs.findIndex((r) => r.model === rung.model);
    if (twin >= 0) fail(`${at}.model`, `"${rung.model}" is already rung ${twin}`);
    else rungs.push(rung);
  }
  if (!problems.length) _unmatched(base, rungs, table, fail);
  if (problems.length) {
    const extra = problems.length - 3;
    throw new LadderError(
      problems.slice(0, 3).join("; ") +
        (extra > 0 ? `; and ${extra} more problem${extra === 1 ? "" : "s"}` : ""),
    );
  }
  return rungs;
}

/** The rung at which a task asked for `model` starts; throws listing the rungs when none has it. */
export function startRung(rungs: readonly Rung[], model: string | undefined): number {
  if (model === undefined) return 0;
  const at = rungs.findIndex((r) => r.model === model);
  if (at >= 0) return at;
  throw new LadderError(
    `model ${JSON.stringify(model.slice(0, 100))} is not on the ladder; ${
      rungs.length === 1 ? "the one model is" : "its rungs are"
    } ${rungs.map((r) => JSON.stringify(r.model)).join(", ")}`,
  );
}

function _fromBase(base: LadderBase, model: string, table: ProviderTable): Rung {
  return {
    model,
    provider: base.provider,
    hosts: base.hosts,
    ...(base.api_key_env !== undefined ? { api_key_env: base.api_key_env } : {}),
    ...(base.context_length !== undefined ? { context_length: base.context_length } : {}),
    ...(base.options !== undefined ? { options: base.options } : {}),
    ...(base.num_ctx !== undefined ? { num_ctx: base.num_ctx } : {}),
    max_attempts: base.max_attempts,
    ...(base.temperature !== undefined ? { temperature: base.temperature } : {}),
    ..._capacity(base.hosts, _normalize(table, base.provider), undefined, base.parallel),
  };
}

/** How `provider` normalises a host as written (a `parallel` key). */
type Normalize = (text: string) => string;

function _normalize(table: ProviderTable, provider: string): Normalize {
  return findProvider(table, provider)?.normalize ?? ((text) => text);
}

/** Whether the host `key` (as written in `parallel`) is `url` for `provider`. */
function _names(key: string, url: string, provider: Normalize): boolean {
  try {
    return provider(key) === url;
  } catch {
    return false;
  }
}

/** `p`'s chats at once for `url`, when it says. */
function _count(p: Parallel | undefined, url: string, provider: Normalize): number | undefined {
  if (p === undefined || typeof p === "number") return p;
  return Object.entries(p).find(([key]) => _names(key, url, provider))?.[1];
}

/** A rung's `parallel`: its own, else the top level's, else 1 for each host; absent when all 1. */
function _capacity(
  hosts: string[],
  provider: Normalize,
  own: Parallel | undefined,
  top: Parallel | undefined,
): { capacity?: number[] } {
  const counts = hosts.map((url) => _count(own, url, provider) ?? _count(top, url, provider) ?? 1);
  return counts.some((n) => n !== 1) ? { capacity: counts } : {};
}

/** Reports each host of the top level's `parallel` that no rung uses (a misspelt host). */
function _unmatched(
  base: LadderBase,
  rungs: Rung[],
  table: ProviderTable,
  fail: (key: string, problem: string) => void = (key, problem) => {
    throw new LadderError(`${key}: ${problem}`);
  },
): void {
  if (base.parallel === undefined || typeof base.parallel === "number") return;
  for (const key of Object.keys(base.parallel)) {
    const named = (r: Rung) =>
      r.hosts.some((url) => _names(key, url, _normalize(table, r.provider)));
    if (!rungs.some(named)) {
      fail(`parallel.${key}`, `not one of the model hosts (${_hostList(rungs)})`);
    }
  }
}

function _hostList(rungs: Rung[]): string {
  return [...new Set(rungs.flatMap((r) => r.hosts))].join(", ");
}

/** What a rung's checks need besides the rung: the provider table and the environment. */
interface RungContext {
  table: ProviderTable;
  env: (name: string) => string | undefined;
}

function _rung(
  base: LadderBase,
  raw: Record<string, unknown>,
  rc: RungContext,
  fail: (key: string, problem: string) => void,
): Rung | undefined {
  let bad = false;
  const problem = (key: string, text: string) => {
    bad = true;
    fail(key, text);
  };
  const keys = [...RUNG_KEYS, ...providerKeys(rc.table)];
  for (const key of Object.keys(raw)) {
    if (Object.hasOwn(TOP_ONLY, key)) problem(key, TOP_ONLY[key]);
    else if (!keys.includes(key)) {
      problem(key, `unknown key${didYouMean(key, keys)} (a rung takes ${keys.join(", ")})`);
    }
  }
  const model = raw.model;
  if (model === undefined) problem("model", "missing: every rung names its model");
  else if (typeof model !== "string") problem("model", `expected a string, got ${_kind(model)}`);
  else if (!model.trim()) problem("model", "must not be empty");
  const provider = raw.provider ?? base.provider;
  const same = provider === base.provider;
  const spec = findProvider(rc.table, provider);
  const settings = readModelSettings(_inherited(base, raw, rc.table), rc.table, rc.env, problem);
  const own = readParallel("parallel", raw.parallel, problem);
  if (settings && own !== undefined && typeof own !== "number") {
    for (const key of Object.keys(own)) {
      if (!settings.hosts.some((url) => _names(key, url, spec!.normalize))) {
        problem(`parallel.${key}`, `not one of this rung's hosts (${settings.hosts.join(", ")})`);
      }
    }
  }
  const numCtx = _int(raw.num_ctx, 512, 1_048_576, "num_ctx", problem);
  const attempts = _int(raw.max_attempts, 1, 10, "max_attempts", problem);
  const temperature = raw.temperature;
  if (
    temperature !== undefined &&
    (typeof temperature !== "number" || !(temperature >= 0 && temperature <= 2))
  ) {
    problem("temperature", `expected a number between 0 and 2, got ${JSON.stringify(temperature)}`);
  }
  if (bad || !settings) return undefined;
  const inherited = spec?.keys.includes("num_ctx") && same ? base.num_ctx : undefined;
  const ctx = numCtx ?? inherited;
  const window = settings.context_length ?? (same ? base.context_length : undefined);
  const temp = (temperature as number | undefined) ?? base.temperature;
  return {
    model: model as string,
    ...settings,
    ...(window !== undefined ? { context_length: window } : {}),
    ...(ctx !== undefined ? { num_ctx: ctx } : {}),
    max_attempts: attempts ?? base.max_attempts,
    ...(temp !== undefined ? { temperature: temp } : {}),
    ..._capacity(settings.hosts, spec!.normalize, own, base.parallel),
  };
}

/**
 * The model keys of rung `raw` with what it inherits: the servers, the key and the provider's
 * own keys come from the top level only when it speaks the same API.
 */
function _inherited(
  base: LadderBase,
  raw: Record<string, unknown>,
  table: ProviderTable,
): Record<string, unknown> {
  const provider = raw.provider ?? base.provider;
  const data: Record<string, unknown> = { ...raw, provider };
  const spec = findProvider(table, provider);
  if (provider !== base.provider || !spec) return data;
  if (!table.some((p) => raw[p.hostKey] !== undefined)) data[spec.hostKey] = base.hosts;
  if (raw.api_key_env === undefined && base.api_key_env !== undefined) {
    data.api_key_env = base.api_key_env;
  }
  for (const [key, value] of Object.entries(base.options ?? {})) {
    if (raw[key] === undefined) data[key] = value;
  }
  return data;
}

function _int(
  v: unknown,
  min: number,
  max: number,
  key: string,
  problem: (key: string, text: string) => void,
): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v)) {
    problem(key, `expected an integer, got ${typeof v === "number" ? v : _kind(v)}`);
    return undefined;
  }
  if (v < min || v > max) {
    problem(key, `must be between ${min} and ${max}, got ${v}`);
    return undefined;
  }
  return v;
}

function _kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}
