/**
 * The prompt for one implement_task attempt, ordered stable-first so that a model server's prompt
 * cache (Ollama's, llama-server's) reuses the longest prefix (docs/ARCHITECTURE.md, "Delegation"):
 * the instructions and reply-format rules (the same for every task of a project: they depend on
 * `edit_format` only, never on one file's format), then the read-only context files cut to the
 * token budget, then the task, then each file to edit as it is now (whole, or only its `symbols`
 * with a few lines around them), then what an earlier model tried, then what went wrong last time.
 *
 * Pure: the caller reads the files and decides the budget.
 */
import { estimateTokens } from "./context_size.ts";
import { formatInstructions, formatOf, type ReplyFormat } from "../edit/mod.ts";
import type { ChatMessage } from "../model/mod.ts";
import { splitLines } from "../text.ts";

/** Lines shown above and below each symbol. */
const SYMBOL_MARGIN = 3;

/** A 1-based inclusive line range. */
export interface LineRange {
  start: number;
  end: number;
}

/** One file the model may edit. */
export interface PromptFile {
  rel: string;
  /** Current content; null when the file does not exist yet. */
  content: string | null;
  /** When set, show only these ranges (plus {@linkcode SYMBOL_MARGIN} lines around each). */
  ranges?: LineRange[];
  format: ReplyFormat;
}

/** One read-only file. */
export interface ContextFile {
  rel: string;
  content: string;
  /** When set, show only these ranges of it. */
  ranges?: LineRange[];
}

/** What {@linkcode buildPrompt} needs. */
export interface PromptInput {
  /** `edit_format` of the configuration: the one thing the instructions depend on. */
  editFormat?: "auto" | "whole" | "diff";
  spec: string;
  /** The fence replies are asked to use (`chooseFence`, once per task); default ```. */
  fence?: string;
  files: PromptFile[];
  context: ContextFile[];
  /** What went wrong in the previous attempt, written for the model. */
  feedback?: string;
  /** What an earlier model (the ladder's previous rung) tried and how it failed. */
  earlier?: string;
  /** Tokens the context files may use at most, after everything else. */
  contextBudget: number;
}

/** The messages to send, their estimated size, and the context files that were cut. */
export interface BuiltPrompt {
  messages: ChatMessage[];
  estimate: number;
  /** Paths of context files cut or left out to fit. */
  truncated: string[];
}

const FENCE_LANG: Record<string, string> = {
  py: "python",
  ts: "typescript",
  tsx: "tsx",
  js: "javascript",
  jsx: "jsx",
  mjs: "javascript",
  go: "go",
  rs: "rust",
  rb: "ruby",
  java: "java",
  c: "c",
  h: "c",
  cpp: "cpp",
  sh: "bash",
  json: "json",
  md: "markdown",
};

const SYSTEM = `You are a careful programmer making one small change to a software project.
Make exactly the change the task asks for: no unrelated edits, no reformatting, no renames nobody asked for.
Keep the existing style and indentation. Code must be complete: never leave placeholders or "..." for the reader.`;

function _fence(rel: string, body: string): string {
  const ext = rel.slice(rel.lastIndexOf(".") + 1).toLowerCase();
  const ticks = body.includes("```") ? "````" : "```";
  const text = body.endsWith("\n") || body === "" ? body : `${body}\n`;
  return `${ticks}${FENCE_LANG[ext] ?? ""}\n${text}${ticks}`;
}

/** Merges ranges widened by `margin` lines, clamped to `1..lines`. */
export function mergeRanges(
  ranges: LineRange[],
  lines: number,
  margin = SYMBOL_MARGIN,
): LineRange[] {
  const wide = ranges
    .map((r) => ({ start: Math.max(1, r.start - margin), end: Math.min(lines, r.end + margin) }))
    .sort((a, b) => a.start - b.start);
  const out: LineRange[] = [];
  for (const r of wide) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/**
 * Shows only `ranges` of `content`, with a marker line for each gap (`⋯ lines 1-119 not shown ⋯`).
 */
export function excerpt(content: string, ranges: LineRange[]): string {
  const lines = splitLines(content);
  const parts: string[] = [];
  let next = 1;
  for (const r of mergeRanges(ranges, lines.length)) {
    if (r.start > next) parts.push(`⋯ lines ${next}-${r.start - 1} not shown ⋯`);
    parts.push(...lines.slice(r.start - 1, r.end));
    next = r.end + 1;
  }
  if (next <= lines.length) parts.push(`⋯ lines ${next}-${lines.length} not shown ⋯`);
  return parts.join("\n");
}

function _fileSection(f: PromptFile): string {
  if (f.content === null) {
    return `### ${f.rel}\n(does not exist yet: create it${formatOf(f.format).create})`;
  }
  const lines = f.content.split("\n").length - (f.content.endsWith("\n") ? 1 : 0);
  if (f.ranges?.length) {
    return `### ${f.rel}\n(only parts of this ${lines}-line file are shown; lines marked ⋯ are left out ` +
      `and must never appear in SEARCH)\n${_fence(f.rel, excerpt(f.content, f.ranges))}`;
  }
  const mark = formatOf(f.format).mark;
  return `### ${f.rel}${mark ? ` — ${mark}` : ""}\n${_fence(f.rel, f.content)}`;
}

/**
 * The instructions and reply-format rules: the first message of every prompt, identical for every
 * attempt and every task of a project. With `edit_format` "diff" every file gets SEARCH/REPLACE;
 * otherwise a file may get either, so both are explained and each file section says which.
 */
export function instructions(
  editFormat: PromptInput["editFormat"] = "auto",
  fence?: string,
): string {
  const rules = formatInstructions(editFormat === "diff" ? "diff" : "both", fence);
  return `${SYSTEM}\n\n${rules}`;
}

/** Cuts `content` to about `tokens`, keeping whole lines from the start. */
function _cutToTokens(content: string, tokens: number): string | null {
  const lines = content.split("\n");
  let used = 0;
  let keep = 0;
  for (; keep < lines.length; keep++) {
    used += estimateTokens(lines[keep]) + 1;
    if (used > tokens) break;
  }
  if (keep < 5) return null;
  return `${lines.slice(0, keep).join("\n")}\n⋯ ${lines.length - keep} more lines not shown ⋯`;
}

/** Builds the chat messages for one attempt. */
export function buildPrompt(input: PromptInput): BuiltPrompt {
  const system = instructions(input.editFormat, input.fence);
  const middle = [
    `## Task\n${input.spec.trim()}`,
    `## Files to edit\n${input.files.map(_fileSection).join("\n\n")}`,
  ];
  const tail: string[] = [];
  if (input.earlier) tail.push(input.earlier.trim());
  if (input.feedback) {
    tail.push(
      `## Your previous reply did not work\n${input.feedback.trim()}\n\nThe files above are as they are now. Reply again with the edits in the format asked for.`,
    );
  }
  const base = estimateTokens(system) + estimateTokens([...middle, ...tail].join("\n\n")) + 24;
  const truncated: string[] = [];
  const shown: string[] = [];
  let left = input.contextBudget;
  for (const c of input.context) {
    const body = c.ranges?.length ? excerpt(c.content, c.ranges) : c.content;
    const full = `### ${c.rel}\n${_fence(c.rel, body)}`;
    const cost = estimateTokens(full) + 2;
    if (cost <= left) {
      shown.push(full);
      left -= cost;
      continue;
    }
    truncated.push(c.rel);
    const cut = left > 200 ? _cutToTokens(body, left - 40) : null;
    if (cut) {
      const section = `### ${c.rel} (cut to fit)\n${_fence(c.rel, cut)}`;
      shown.push(section);
      left -= estimateTokens(section) + 2;
    }
  }
  const sections: string[] = [];
  if (shown.length) {
    sections.push(`## Read-only context (do not edit these)\n${shown.join("\n\n")}`);
  }
  sections.push(...middle, ...tail);
  const user = sections.join("\n\n");
  const messages: ChatMessage[] = [{ role: "system", content: system }, {
    role: "user",
    content: user,
  }];
  return { messages, estimate: base + (input.contextBudget - left), truncated };
}

/**
 * The share of `next`'s prompt (the characters of its messages' contents, concatenated) that is
 * an identical prefix of `previous`'s: what a server's prompt cache can reuse. 0 to 1.
 */
export function prefixShare(
  previous: readonly { content: string }[],
  next: readonly { content: string }[],
): number {
  const a = previous.map((m) => m.content).join("");
  const b = next.map((m) => m.content).join("");
  if (!b.length) return 1;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i / b.length;
}
