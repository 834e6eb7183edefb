/**
 * What an OpenAI-compatible server serves and with which context window.
 *
 * `/v1/models` lists the models everywhere; the window comes from where each server says it:
 * llama-server's `/props` (`default_generation_settings.n_ctx`, the per-slot window), vLLM's
 * `max_model_len` in `/v1/models`, LM Studio's `/api/v0/models` (`loaded_context_length` of a
 * loaded model, else `max_context_length`). Which server it is shows in `/v1/models`: `owned_by`
 * `llamacpp` (or a `meta` object), `vllm` (or `max_model_len`); LM Studio answers `/api/v0/models`.
 * A model's trained maximum (`n_ctx_train`, `max_context_length`) is not read: it says nothing of
 * the window the server runs it with.
 */

/** One served model. */
export interface ServedModel {
  id: string;
  /** The window it is served with, when the server says. */
  context?: number;
  /** False when LM Studio has it on disk but not in memory. */
  loaded: boolean;
}

/** What the server said. */
export interface ServedInfo {
  /** `llama-server`, `vLLM`, `LM Studio` or `OpenAI-compatible`. */
  server: string;
  models: ServedModel[];
}

type Obj = Record<string, unknown>;

/** Reads `/v1/models`; undefined when it is not a model list. */
export function parseModels(data: unknown): ServedInfo | undefined {
  if (!_isObj(data) || !Array.isArray(data.data)) return undefined;
  const entries = data.data.filter(_isObj).filter((m) => typeof m.id === "string");
  const owner = (m: Obj) => String(m.owned_by ?? "").toLowerCase();
  let server = "OpenAI-compatible";
  if (entries.some((m) => owner(m) === "vllm" || typeof m.max_model_len === "number")) {
    server = "vLLM";
  } else if (entries.some((m) => owner(m) === "llamacpp" || _isObj(m.meta))) {
    server = "llama-server";
  }
  const models = entries.map((m): ServedModel => {
    return {
      id: m.id as string,
      context: _int(m.max_model_len) ?? _int(m.context_length) ?? _int(m.context_window),
      loaded: true,
    };
  });
  return { server, models };
}

/** llama-server's served window from `/props`, when the answer has one. */
export function parseProps(data: unknown): number | undefined {
  if (!_isObj(data)) return undefined;
  const settings = _isObj(data.default_generation_settings) ? data.default_generation_settings : {};
  return _int(settings.n_ctx) ?? _int(data.n_ctx);
}

/** Folds LM Studio's `/api/v0/models` into `info`; false when it is not that list. */
export function mergeLmStudio(info: ServedInfo, data: unknown): boolean {
  if (!_isObj(data) || !Array.isArray(data.data)) return false;
  const entries = data.data.filter(_isObj).filter((m) => typeof m.id === "string");
  if (!entries.some((m) => typeof m.state === "string")) return false;
  info.server = "LM Studio";
  for (const e of entries) {
    if (e.type === "embeddings") continue;
    const loaded = e.state === "loaded";
    const found = info.models.find((m) => m.id === e.id);
    const entry: ServedModel = {
      id: e.id as string,
      context: loaded ? _int(e.loaded_context_length) : undefined,
      loaded,
    };
    if (found) Object.assign(found, entry);
    else info.models.push(entry);
  }
  return true;
}

/**
 * The served model that `name` means: the same id, the same id but for case, or the file name
 * of a path id (llama-server lists `-m`'s path) without `.gguf`.
 */
export function findServed(models: readonly ServedModel[], name: string): ServedModel | undefined {
  const lower = name.trim().toLowerCase();
  const base = (id: string) => id.split(/[\\/]/).pop()!.replace(/\.gguf$/i, "").toLowerCase();
  return models.find((m) => m.id === name) ??
    models.find((m) => m.id.toLowerCase() === lower) ??
    models.find((m) => base(m.id) === lower || base(m.id) === base(name));
}

function _isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function _int(v: unknown): number | undefined {
  return typeof v === "number" && Number.isInteger(v) && v > 0 ? v : undefined;
}
