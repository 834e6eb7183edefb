/**
 * Reading Ollama's model listings: `/api/tags` (installed), `/api/ps` (loaded) and `/api/show`
 * (one model's details), checked and reduced to the fields localexec uses.
 *
 * Field names follow Ollama's `api/types.go`; anything optional in older Ollama versions (such as
 * `context_length` in `/api/ps`, added in 0.9) is optional here too.
 */
import { badResponseError } from "./errors.ts";

/** A model installed in Ollama (`/api/tags`). */
export interface InstalledModel {
  /** Name as Ollama lists it, e.g. `qwen2.5-coder:7b`. */
  name: string;
  model: string;
  /** Bytes on disk. */
  size: number;
  digest: string;
  modifiedAt?: string;
  family?: string;
  /** E.g. `7.6B`. */
  parameterSize?: string;
  /** E.g. `Q4_K_M`. */
  quantization?: string;
}

/** A model loaded in memory right now (`/api/ps`). */
export interface LoadedModel {
  name: string;
  model: string;
  /** Bytes in memory, and how many of them are in GPU memory. */
  size: number;
  sizeVram: number;
  digest: string;
  /** When Ollama unloads it unless it is used again (ISO time). */
  expiresAt?: string;
  /** The context window it is loaded with (the `num_ctx` in force); absent before Ollama 0.9. */
  contextLength?: number;
}

/** What `/api/show` says about one model. */
export interface ModelInfo {
  /** The longest context the model was trained for (`<arch>.context_length`). */
  contextLength?: number;
  family?: string;
  parameterSize?: string;
  quantization?: string;
  /** `num_ctx` set in the model's Modelfile (`PARAMETER num_ctx`), if any. */
  numCtx?: number;
  /** E.g. `["completion", "tools", "thinking"]`; empty when Ollama does not say. */
  capabilities: string[];
}

type Obj = Record<string, unknown>;

/** Reads a `/api/tags` answer. */
export function parseTags(data: unknown, baseUrl: string): InstalledModel[] {
  return _models(data, baseUrl, "/api/tags").map((m) => {
    const d = _obj(m.details);
    return {
      name: _str(m.name) ?? _str(m.model) ?? "",
      model: _str(m.model) ?? _str(m.name) ?? "",
      size: _num(m.size) ?? 0,
      digest: _str(m.digest) ?? "",
      modifiedAt: _str(m.modified_at),
      family: _str(d.family) || undefined,
      parameterSize: _str(d.parameter_size) || undefined,
      quantization: _str(d.quantization_level) || undefined,
    };
  });
}

/** Reads a `/api/ps` answer. */
export function parsePs(data: unknown, baseUrl: string): LoadedModel[] {
  return _models(data, baseUrl, "/api/ps").map((m) => ({
    name: _str(m.name) ?? _str(m.model) ?? "",
    model: _str(m.model) ?? _str(m.name) ?? "",
    size: _num(m.size) ?? 0,
    sizeVram: _num(m.size_vram) ?? 0,
    digest: _str(m.digest) ?? "",
    expiresAt: _str(m.expires_at),
    contextLength: _num(m.context_length) || undefined,
  }));
}

/** Reads a `/api/show` answer. */
export function parseShow(data: unknown, baseUrl: string): ModelInfo {
  if (!_isObj(data) || (!_isObj(data.model_info) && !_isObj(data.details))) {
    throw badResponseError(baseUrl, JSON.stringify(data) ?? "", "/api/show without model_info");
  }
  const info = _obj(data.model_info);
  const details = _obj(data.details);
  const arch = _str(info["general.architecture"]) ?? _str(details.family);
  let contextLength = arch ? _num(info[`${arch}.context_length`]) : undefined;
  if (!contextLength) {
    const key = Object.keys(info).find((k) => k.endsWith(".context_length") && _num(info[k]));
    contextLength = key ? _num(info[key]) : undefined;
  }
  const params = _str(data.parameters) ?? "";
  const numCtx = /^num_ctx\s+(\d+)\s*$/m.exec(params)?.[1];
  const caps = Array.isArray(data.capabilities) ? data.capabilities : [];
  return {
    contextLength: contextLength || undefined,
    family: _str(details.family) || arch || undefined,
    parameterSize: _str(details.parameter_size) || undefined,
    quantization: _str(details.quantization_level) || undefined,
    numCtx: numCtx ? Number(numCtx) : undefined,
    capabilities: caps.filter((c): c is string => typeof c === "string"),
  };
}

/** Reads a `/api/version` answer. */
export function parseVersion(data: unknown, baseUrl: string): string {
  const version = _isObj(data) ? _str(data.version) : undefined;
  if (version === undefined) {
    throw badResponseError(baseUrl, JSON.stringify(data) ?? "", "/api/version without version");
  }
  return version;
}

/** True when two model names mean the same model: `llama3` is `llama3:latest`, case aside. */
export function sameModel(a: string, b: string): boolean {
  return _canonical(a) === _canonical(b);
}

/** The entry of `models` that is `name` (see {@linkcode sameModel}), if any. */
export function findModel<T extends { name: string; model: string }>(
  models: readonly T[],
  name: string,
): T | undefined {
  return models.find((m) => sameModel(m.name, name) || sameModel(m.model, name));
}

function _canonical(name: string): string {
  const n = name.trim().toLowerCase();
  const slash = n.lastIndexOf("/");
  return n.indexOf(":", slash + 1) >= 0 ? n : `${n}:latest`;
}

function _models(data: unknown, baseUrl: string, path: string): Obj[] {
  if (!_isObj(data) || !(Array.isArray(data.models) || data.models === null)) {
    throw badResponseError(baseUrl, JSON.stringify(data) ?? "", `${path} without a models list`);
  }
  return ((data.models ?? []) as unknown[]).filter(_isObj);
}

function _isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function _obj(v: unknown): Obj {
  return _isObj(v) ? v : {};
}

function _str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function _num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}
