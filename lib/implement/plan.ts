/**
 * Step 1 of implement_task: check the input against the project and the configuration before
 * anything is touched, and gather what the attempts need (the task's plan).
 */
import { quote, ToolError } from "../errors.ts";
import { type Check, type Config, selectChecks } from "../config.ts";
import { decodeText } from "../text.ts";
import { readChecked } from "../fs_atomic.ts";
import { resolveForRead, resolveForWrite, type SafePath } from "../paths.ts";
import { resolveSymbols } from "./symbols.ts";
import type { LineRange } from "./prompt.ts";

/** implement_task's arguments, as validated by its schema. */
export interface TaskInput {
  task_id: string;
  spec: string;
  files_to_edit: string[];
  context_files?: string[];
  checks?: string[];
  symbols?: string[];
  /** Start at the ladder's rung with this model (default: the first rung). */
  model?: string;
}

/** Everything the attempts need, checked. */
export interface TaskPlan {
  id: string;
  spec: string;
  /** Project-relative files to edit, unique, in the order given. */
  files: string[];
  /** Read-only files with their text. */
  context: { rel: string; content: string; ranges?: LineRange[] }[];
  /** The selected checks, in the order the config writes them. */
  checks: Check[];
  /** Per file to edit: the symbol ranges the model is shown (absent: the whole file). */
  ranges: Map<string, LineRange[]>;
  /** Problems that do not stop the task. */
  warnings: string[];
}

const MAX_CONTEXT_BYTES = 2 * 1024 * 1024;

async function _text(root: string, safe: SafePath, what: string): Promise<string> {
  const { abs, rel } = safe;
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(abs);
    if (!info.isFile) throw new ToolError(`${what} ${quote(rel)} is not a file`);
    if (info.size > MAX_CONTEXT_BYTES) throw new ToolError(`${what} ${quote(rel)} is over 2 MB`);
    bytes = await readChecked(root, safe);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new ToolError(`${what} ${quote(rel)} does not exist`);
    }
    throw err;
  }
  const text = decodeText(bytes);
  if (text === undefined) throw new ToolError(`${what} ${quote(rel)} is binary, not text`);
  return text;
}

/** Splits `path::name`; the name may itself contain `::` (`Class::method`). */
function _splitSymbol(entry: string): [string, string] {
  const at = entry.indexOf("::");
  if (at <= 0 || at === entry.length - 2) {
    throw new ToolError(`symbols: ${quote(entry)} is not of the form path::name`);
  }
  return [entry.slice(0, at), entry.slice(at + 2)];
}

/** Checks `input` against the project at `root` and `config`; throws ToolError on any problem. */
export async function planTask(root: string, input: TaskInput, config: Config): Promise<TaskPlan> {
  const warnings: string[] = [];
  const files: string[] = [];
  for (const f of input.files_to_edit) {
    const safe = await resolveForWrite(root, f);
    if (files.includes(safe.rel)) {
      throw new ToolError(`files_to_edit lists ${quote(safe.rel)} twice`);
    }
    if (safe.exists) await _text(root, safe, "file to edit");
    files.push(safe.rel);
  }
  const context: TaskPlan["context"] = [];
  for (const f of input.context_files ?? []) {
    const safe = await resolveForRead(root, f);
    if (files.includes(safe.rel)) {
      warnings.push(`${safe.rel} is a file to edit; it is not repeated as context`);
      continue;
    }
    if (context.some((c) => c.rel === safe.rel)) continue;
    context.push({ rel: safe.rel, content: await _text(root, safe, "context file") });
  }
  // An explicit empty list means no checks; absent means all of them.
  const checks = input.checks?.length === 0 ? [] : selectChecks(config, input.checks);
  const byFile = new Map<string, string[]>();
  for (const entry of input.symbols ?? []) {
    const [path, name] = _splitSymbol(entry);
    const rel = (await resolveForRead(root, path)).rel;
    if (!files.includes(rel) && !context.some((c) => c.rel === rel)) {
      throw new ToolError(`symbols: ${quote(rel)} is neither a file to edit nor a context file`);
    }
    byFile.set(rel, [...(byFile.get(rel) ?? []), name]);
  }
  const ranges = new Map<string, LineRange[]>();
  for (const [rel, names] of byFile) {
    // The message lists the candidates; the result keeps to the fields of docs/reference/.
    const found = await resolveSymbols(root, rel, names).catch((err) => {
      throw err instanceof ToolError ? new ToolError(err.message) : err;
    });
    const list = found.map((s) => ({ start: s.start, end: s.end }));
    const ctx = context.find((c) => c.rel === rel);
    if (ctx) ctx.ranges = list;
    else ranges.set(rel, list);
  }
  return { id: input.task_id, spec: input.spec, files, context, checks, ranges, warnings };
}
