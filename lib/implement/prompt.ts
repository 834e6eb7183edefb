/**
 * The prompt for one implement_task attempt: instructions and reply format, the spec, each file
 * to edit (whole, or only its `symbols` with a few lines around them), the read-only context files
 * cut to the token budget, and on a retry what went wrong last time.
 *
 * Pure: the caller reads the files and decides the budget.
 */
import { estimateTokens } from "./context_size.ts";
import { formatInstructions, type ReplyFormat } from "../edit/mod.ts";
import type { ChatMessage } from "../ollama/mod.ts";
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
  spec: string;
  /** The fence replies are asked to use (`chooseFence`, once per task); default ```. */
  fence?: string;
  files: PromptFile[];
  context: ContextFile[];
  /** What went wrong in the previous attempt, written for the model. */
  feedback?: string;
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
    return `### ${f.rel}\n(does not exist yet: create it${
      f.format === "diff" ? " with an empty SEARCH part" : ""
    })`;
  }
  const lines = f.content.split("\n").length - (f.content.endsWith("\n") ? 1 : 0);
  if (f.ranges?.length) {
    return `### ${f.rel}\n(only parts of this ${lines}-line file are shown; lines marked ⋯ are left out ` +
      `and must never appear in SEARCH)\n${_fence(f.rel, excerpt(f.content, f.ranges))}`;
  }
  const how = f.format === "whole" ? " — reply with the whole new file" : "";
  return `### ${f.rel}${how}\n${_fence(f.rel, f.content)}`;
}

function _formatSection(files: PromptFile[], fence?: string): string {
  const formats = new Set(files.map((f) => f.format));
  if (formats.size === 1) return formatInstructions([...formats][0], fence);
  const whole = files.filter((f) => f.format === "whole").map((f) => f.rel).join(", ");
  return `Files marked "whole" (${whole}) get their complete new content.\n${
    formatInstructions("both", fence)
  }`;
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
  const system = `${SYSTEM}\n\n${_formatSection(input.files, input.fence)}`;
  const head = [
    `## Task\n${input.spec.trim()}`,
    `## Files to edit\n${input.files.map(_fileSection).join("\n\n")}`,
  ];
  const tail = input.feedback
    ? [
      `## Your previous reply did not work\n${input.feedback.trim()}\n\nThe files above are as they are now. Reply again with the edits in the format asked for.`,
    ]
    : [];
  const base = estimateTokens(system) + estimateTokens([...head, ...tail].join("\n\n")) + 24;
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
  const sections = [...head];
  if (shown.length) {
    sections.push(`## Read-only context (do not edit these)\n${shown.join("\n\n")}`);
  }
  sections.push(...tail);
  const user = sections.join("\n\n");
  const messages: ChatMessage[] = [{ role: "system", content: system }, {
    role: "user",
    content: user,
  }];
  return { messages, estimate: base + (input.contextBudget - left), truncated };
}
