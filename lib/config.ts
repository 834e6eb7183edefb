/**
 * `.localexec.json`: loading, defaults and validation (SPEC §5).
 *
 * A missing file is not an error: it means no checks and no model. Bad JSON or a wrong type is a
 * {@linkcode ConfigError} whose message names the key and the problem. Unknown top-level keys are
 * warnings, so a newer config still loads in an older binary.
 */
import { z } from "zod";

/** The file name looked up at the project root. */
export const CONFIG_NAME = ".localexec.json";

/** Where Ollama listens when neither the config nor `OLLAMA_HOST` says otherwise. */
export const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";

/** The configuration is unreadable or invalid; the message names the key and the problem. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

const CheckSchema = z.object({
  command: z.union([z.string().min(1), z.array(z.string()).min(1)]),
  files_filter: z.array(z.string()).optional(),
  timeout_s: z.number().positive().max(24 * 3600).default(300),
}).strict();

const ConfigSchema = z.object({
  model: z.string().min(1).optional(),
  ollama_host: z.string().min(1).optional(),
  max_attempts: z.number().int().min(1).max(10).default(3),
  checks: z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/), CheckSchema).default({}),
  temperature: z.number().min(0).max(2).optional(),
  num_ctx: z.number().int().min(512).max(1_048_576).optional(),
  keep_alive: z.union([z.string(), z.number()]).optional(),
  request_timeout_s: z.number().positive().max(24 * 3600).default(600),
  edit_format: z.enum(["auto", "whole", "diff"]).default("auto"),
  lock_timeout_s: z.number().min(0).max(24 * 3600).default(120),
});

/** One configured check, in the order written. */
export interface Check {
  name: string;
  command: string | string[];
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
  /** Base URL of Ollama, e.g. `http://127.0.0.1:11434`. */
  ollama_host: string;
  max_attempts: number;
  checks: Check[];
  temperature?: number;
  num_ctx?: number;
  keep_alive?: string | number;
  request_timeout_s: number;
  edit_format: "auto" | "whole" | "diff";
  lock_timeout_s: number;
  /** Problems that do not stop loading (unknown keys). */
  warnings: string[];
}

function _envHost(): string | undefined {
  const granted =
    Deno.permissions.querySync({ name: "env", variable: "OLLAMA_HOST" }).state === "granted";
  return granted ? Deno.env.get("OLLAMA_HOST") || undefined : undefined;
}

/** Normalises an Ollama host the way the Ollama CLI does: scheme and port are optional. */
export function normalizeHost(host: string): string {
  let h = host.trim().replace(/\/+$/, "");
  if (!/^[a-z]+:\/\//i.test(h)) h = `http://${h}`;
  const url = new URL(h);
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  if (!url.port) url.port = url.protocol === "https:" ? "443" : "11434";
  return url.origin;
}

/** `host:port` of an Ollama base URL, as Deno's net permission names it. */
export function hostPort(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

function _describe(issue: z.core.$ZodIssue): string {
  const key = issue.path.map(String).join(".") || "(top level)";
  if (issue.code === "invalid_type") {
    const input = (issue as { input?: unknown }).input;
    if (input === undefined) return `${key}: required ${issue.expected} is missing`;
    const got = input === null ? "null" : Array.isArray(input) ? "array" : typeof input;
    return `${key}: expected ${issue.expected}, got ${got}`;
  }
  if (issue.code === "unrecognized_keys") {
    return `${key}: unknown key ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  }
  if (issue.code === "invalid_key") {
    return `${key}: check names may use letters, digits, ., _ and - (up to 64)`;
  }
  return `${key}: ${issue.message}`;
}

/** Validates parsed JSON `data` from `path`. */
export function parseConfig(data: unknown, path: string): Config {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ConfigError(`${path}: expected a JSON object at the top level`);
  }
  const parsed = ConfigSchema.safeParse(data);
  if (!parsed.success) {
    throw new ConfigError(`${path}: ${parsed.error.issues.slice(0, 3).map(_describe).join("; ")}`);
  }
  const known = new Set(Object.keys(ConfigSchema.shape));
  const warnings = Object.keys(data).filter((k) => !known.has(k)).map((k) =>
    `${path}: unknown key "${k}" ignored`
  );
  const c = parsed.data;
  let host: string;
  try {
    host = normalizeHost(c.ollama_host ?? _envHost() ?? DEFAULT_OLLAMA_HOST);
  } catch {
    throw new ConfigError(`${path}: ollama_host: not a valid URL or host:port`);
  }
  return {
    path,
    exists: true,
    model: c.model,
    ollama_host: host,
    max_attempts: c.max_attempts,
    checks: Object.entries(c.checks).map(([name, check]) => ({ name, ...check })),
    temperature: c.temperature,
    num_ctx: c.num_ctx,
    keep_alive: c.keep_alive,
    request_timeout_s: c.request_timeout_s,
    edit_format: c.edit_format,
    lock_timeout_s: c.lock_timeout_s,
    warnings,
  };
}

/** Loads the configuration at `path`; a missing file yields the defaults with `exists: false`. */
export async function loadConfig(path: string): Promise<Config> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return { ...parseConfig({}, path), exists: false };
    throw new ConfigError(`${path}: cannot read: ${(err as Error).message.split("\n", 1)[0]}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${path}: not valid JSON: ${(err as Error).message.split("\n", 1)[0]}`);
  }
  return parseConfig(data, path);
}
