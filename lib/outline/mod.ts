/**
 * outline's engine: a file's classes, functions, methods, constants and types as items, read with
 * tree-sitter grammars that are part of the program.
 *
 * {@linkcode outlineSource} works on text; {@linkcode readSource} loads a project file for it with
 * the checks outline needs (supported language, size, UTF-8); {@linkcode formatItems} renders the
 * `start-end|kind|name|signature` lines within a character budget.
 */
import { ToolError } from "../errors.ts";
import { sha256Hex } from "../text.ts";
import type { OutlineItem } from "./items.ts";
import { type LanguageId, languageOf, SUPPORTED_EXTENSIONS } from "./languages.ts";
import { outlineInWorker } from "./host.ts";
import { decodeSource, type NotText, type Outline } from "./source.ts";
import { OutlineCache } from "./cache.ts";
import { keepBuffer, readKept } from "./read_buffer.ts";

export type { Kind, OutlineItem } from "./items.ts";
export { type LanguageId, languageOf, SUPPORTED_EXTENSIONS } from "./languages.ts";
export { type Outline, outlineSource } from "./source.ts";
export {
  OUTLINE_BUDGET_MS,
  OUTLINE_IDLE_MS,
  outlineWorkerStarts,
  outlineWorkerUp,
  prestartOutline,
  setOutlineIdleMs,
  stopOutlineWorker,
} from "./host.ts";
export { definitionsOf, primeSyntax, syntaxErrorLines } from "./syntax.ts";

/** Files larger than this are refused: parsing them would hold the server for too long. */
const MAX_OUTLINE_BYTES = 4 * 1024 * 1024;

/** A project file's text and language, ready for {@linkcode outlineSource}. */
export interface Source {
  language: LanguageId;
  text: string;
}

/**
 * A file checked for outlining: its language, identity and bytes, read into outline's kept buffer
 * (`read_buffer.ts`: give it back with `keepBuffer` once done with them).
 */
async function _load(
  abs: string,
  rel: string,
): Promise<{ language: LanguageId; mtime: number; bytes: Uint8Array }> {
  const language = languageOf(rel);
  if (!language) {
    throw new ToolError(
      `outline does not read ${JSON.stringify(rel)}: supported extensions are ${
        SUPPORTED_EXTENSIONS.join(" ")
      }`,
    );
  }
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(abs);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new ToolError(`file ${JSON.stringify(rel)} does not exist`);
    }
    throw err;
  }
  if (!info.isFile) throw new ToolError(`${JSON.stringify(rel)} is not a file`);
  if (info.size > MAX_OUTLINE_BYTES) {
    throw new ToolError(
      `file ${JSON.stringify(rel)} is too large to outline (${
        (info.size / 1048576).toFixed(1)
      } MB, limit ${MAX_OUTLINE_BYTES / 1048576} MB); use find to search it`,
    );
  }
  const bytes = await readKept(abs, info.size);
  // A `.h` is C or C++ by its text (languages.ts).
  return { language: languageOf(rel, bytes) ?? language, mtime: info.mtime?.getTime() ?? 0, bytes };
}

function _notText(rel: string, why: NotText): ToolError {
  return new ToolError(`file ${JSON.stringify(rel)} is ${why}`);
}

/**
 * Reads the file at `abs` (already checked against the root) for outlining; `rel` names it in
 * errors. Refuses unsupported extensions (listing the supported ones), folders, large, binary and
 * non-UTF-8 files.
 */
export async function readSource(abs: string, rel: string): Promise<Source> {
  const { language, bytes } = await _load(abs, rel);
  const source = decodeSource(bytes);
  keepBuffer(bytes.buffer);
  if ("notText" in source) throw _notText(rel, source.notText);
  return { language, text: source.text };
}

/** A file's outline and language. */
export interface FileOutline extends Outline {
  language: LanguageId;
}

const _cache = new OutlineCache();

/**
 * Outlines the file at `abs` (checked as {@linkcode readSource} does) in outline's worker, or
 * answers from the outline kept for the same bytes.
 */
export async function outlineFile(abs: string, rel: string): Promise<FileOutline> {
  const { language, mtime, bytes } = await _load(abs, rel);
  const size = bytes.length;
  if (_cache.mayHold(abs, size, mtime)) {
    const kept = _cache.get(abs, size, mtime, await sha256Hex(bytes));
    if (kept) {
      keepBuffer(bytes.buffer);
      return { language, ...kept };
    }
  }
  // The bytes go to the worker, which hashes them (off this thread, without a copy: host.ts).
  const outline = await outlineInWorker(language, bytes, abs);
  if (typeof outline === "string") throw _notText(rel, outline);
  const { sha256, ...found } = outline;
  _cache.set(abs, size, mtime, sha256, found);
  return { language, ...found };
}

/** Forgets the kept outlines (tests, benchmarks). */
export function clearOutlineCache(): void {
  _cache.clear();
}

/** One item as `start-end|kind|name|signature`. */
export function formatItem(item: OutlineItem): string {
  return `${item.start}-${item.end}|${item.kind}|${item.name}|${item.signature}`;
}

/** The default `max_items`, and the character cap that comes with it. */
const DEFAULT_MAX_ITEMS = 60;
const DEFAULT_MAX_CHARS = 3000;

/** The lines to show, how many were left out, and the `max_items` that would show them all. */
export interface Formatted {
  lines: string[];
  omitted: number;
  showAll: number;
}

/**
 * Formats the first `maxItems` items. Up to the default 60 items, the list is also capped near
 * 3,000 characters; a larger `maxItems` lifts that cap, so it is the way to see more.
 */
export function formatItems(items: OutlineItem[], maxItems: number): Formatted {
  const budget = maxItems <= DEFAULT_MAX_ITEMS ? DEFAULT_MAX_CHARS : Infinity;
  const lines: string[] = [];
  let used = 0;
  for (const item of items) {
    if (lines.length >= maxItems) break;
    const line = formatItem(item);
    if (lines.length > 0 && used + line.length + 1 > budget) break;
    lines.push(line);
    used += line.length + 1;
  }
  return {
    lines,
    omitted: items.length - lines.length,
    showAll: Math.max(items.length, DEFAULT_MAX_ITEMS + 1),
  };
}
