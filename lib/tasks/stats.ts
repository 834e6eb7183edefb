/**
 * The delegation record's summary (docs/ARCHITECTURE.md, "Tasks and locking"): per model and kind
 * of file, how many tasks it took on, how many passed, how many on the first try, and the median
 * attempts and seconds, and what the passed ones saved the caller. Computed from the task index's
 * entries (`index.ts`), which keep every field it needs, so thousands of tasks cost one file read.
 */
import { z } from "zod";

/** The model's tokens and seconds summed over tasks (`taskTotals`), as output schemas declare them. */
export const TOTALS_OUTPUT = z.object({
  prompt_tokens: z.number(),
  reply_tokens: z.number(),
  model_secs: z.number(),
  check_secs: z.number(),
});

/** The caller's tokens, delegated and not (docs/EVAL.md, "What delegating saves"). */
export const SAVINGS_SHAPE = {
  call_tokens: z.number().describe(
    "Over the passed tasks: the caller's tokens for each call and its verdict",
  ),
  self_tokens: z.number().describe(
    "Over the same tasks: the tokens of reading the files and writing the change itself",
  ),
};

/** One row of `status.record` ({@linkcode RecordRow}), as status's output schema declares it. */
export const RECORD_ROW_OUTPUT = z.object({
  model: z.string(),
  kind: z.string().describe("The language of the edited files"),
  tasks: z.number(),
  passed: z.number(),
  first_try: z.number(),
  median_attempts: z.number(),
  median_seconds: z.number(),
  escalated: z.number(),
  ...SAVINGS_SHAPE,
});

/** One row of `status.record`. */
export interface RecordRow {
  model: string;
  /** The language of the edited files, from their extensions (`python`, `typescript+json`). */
  kind: string;
  tasks: number;
  passed: number;
  /** Passed on the first attempt of the first model asked. */
  first_try: number;
  median_attempts: number;
  median_seconds: number;
  /** Tasks whose verdict told the caller to do the step itself. */
  escalated: number;
  /** Over the passed tasks that recorded them: the caller's tokens for the call and verdict. */
  call_tokens: number;
  /** Over the same tasks: the tokens of reading the files and writing the change itself. */
  self_tokens: number;
}

/** The record fields a row is computed from; a stored task record has them all. */
export interface RecordFacts {
  status: string;
  files: readonly string[];
  attempts: number;
  model?: unknown;
  kind?: unknown;
  secs?: unknown;
  tried?: unknown;
  escalate?: unknown;
  call_tokens?: unknown;
  self_tokens?: unknown;
}

const LANGUAGES: Record<string, string> = {
  py: "python",
  pyi: "python",
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  go: "go",
  rs: "rust",
  rb: "ruby",
  java: "java",
  kt: "kotlin",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  cs: "csharp",
  swift: "swift",
  php: "php",
  lua: "lua",
  sh: "shell",
  bash: "shell",
  sql: "sql",
  html: "html",
  css: "css",
  json: "json",
  md: "markdown",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
};

/** The language of `files`, from their extensions: one name, or several joined by `+`. */
export function taskKind(files: readonly string[]): string {
  const kinds = new Set<string>();
  for (const f of files) {
    const name = f.slice(f.lastIndexOf("/") + 1);
    const dot = name.lastIndexOf(".");
    const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
    kinds.add(LANGUAGES[ext] ?? (ext || "other"));
  }
  return [...kinds].sort().join("+") || "other";
}

/** The median of `values` (0 when empty), to two decimals. */
export function median(values: readonly number[]): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const m = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return Math.round(m * 100) / 100;
}

/**
 * The caller's tokens over the passed tasks of `tasks` that recorded them: for the calls and their
 * verdicts, and for reading the files and writing the change itself (a task recorded before these
 * figures counts in neither).
 */
export function savedTokens(
  tasks: readonly { call_tokens?: unknown; self_tokens?: unknown }[],
): { call_tokens: number; self_tokens: number } {
  const counted = tasks.filter((t) =>
    typeof t.call_tokens === "number" && typeof t.self_tokens === "number"
  );
  const sum = (key: "call_tokens" | "self_tokens") =>
    counted.reduce((n, t) => n + (t[key] as number), 0);
  return { call_tokens: sum("call_tokens"), self_tokens: sum("self_tokens") };
}

/**
 * The record's rows: one per model (the one whose attempt produced the result) and kind, over the
 * finished tasks that name their model, most tasks first. Running and interrupted tasks are left
 * out, and so are records written before the model was recorded, and conflicts (the user's edit
 * met the task's: nothing the model did decided that).
 */
export function recordRows(tasks: Iterable<RecordFacts>): RecordRow[] {
  const groups = new Map<string, RecordFacts[]>();
  for (const t of tasks) {
    const open = t.status === "running" || t.status === "interrupted";
    if (typeof t.model !== "string" || open || t.status === "conflict") {
      continue;
    }
    const kind = typeof t.kind === "string" ? t.kind : taskKind(t.files);
    const key = JSON.stringify([t.model, kind]);
    const group = groups.get(key);
    if (group) group.push(t);
    else groups.set(key, [t]);
  }
  const rows: RecordRow[] = [];
  for (const [key, list] of groups) {
    const [model, kind] = JSON.parse(key) as [string, string];
    const passed = list.filter((t) => t.status === "passed");
    rows.push({
      model,
      kind,
      tasks: list.length,
      passed: passed.length,
      first_try: passed.filter((t) => t.attempts === 1 && !Array.isArray(t.tried)).length,
      median_attempts: median(list.map((t) => Number(t.attempts) || 0)),
      median_seconds: median(list.map((t) => Number(t.secs) || 0)),
      escalated: list.filter((t) => t.escalate === true).length,
      ...savedTokens(passed),
    });
  }
  return rows.sort((a, b) =>
    b.tasks - a.tasks || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0) ||
    (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0)
  );
}
