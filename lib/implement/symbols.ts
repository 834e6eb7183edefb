/**
 * Symbol lookup for implement_task's `symbols` parameter: `path::name` → a line range, using the
 * same outline as the `outline` tool.
 *
 * A name is an outline name (`Class.method`, `Outer.Inner.method`; `::` and `#` are read as `.`)
 * or a unique suffix of one (`method` when only one item is called that, `Inner.method`). An
 * unknown or ambiguous name is a {@linkcode ToolError} whose message lists candidates.
 */
import { quote, ToolError } from "../errors.ts";
import { type Kind, type OutlineItem, outlineSource, readSource } from "../outline/mod.ts";
import { resolveForRead } from "../paths.ts";

/** A resolved symbol: its full outline name, kind and 1-based inclusive lines. */
export interface SymbolRange {
  name: string;
  kind: Kind;
  start: number;
  end: number;
}

const MAX_LISTED = 12;

function _normalise(name: string): string {
  return name.trim().replace(/::|#/g, ".").replace(/^\.+|\.+$/g, "");
}

function _show(item: OutlineItem): string {
  return `${item.name} (${item.kind}, lines ${item.start}-${item.end})`;
}

function _list(items: OutlineItem[]): string {
  const shown = items.slice(0, MAX_LISTED).map(_show).join(", ");
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}

function _range(item: OutlineItem): SymbolRange {
  return { name: item.name, kind: item.kind, start: item.start, end: item.end };
}

/**
 * Finds `name` among outline `items` of the file `rel`: an exact full name first, then a unique
 * suffix after a dot. Throws a {@linkcode ToolError} listing candidates when none or several match.
 */
function findSymbol(items: OutlineItem[], name: string, rel: string): SymbolRange {
  const wanted = _normalise(name);
  if (!wanted) throw new ToolError(`symbol name ${quote(name)} is empty`);
  const exact = items.filter((i) => i.name === wanted);
  if (exact.length === 1) return _range(exact[0]);
  const matches = exact.length ? exact : items.filter((i) => i.name.endsWith(`.${wanted}`));
  if (matches.length === 1) return _range(matches[0]);
  if (matches.length > 1) {
    throw new ToolError(
      `symbol ${quote(name)} is ambiguous in ${quote(rel)}: ${_list(matches)}; ` +
        `use the full name`,
      { candidates: matches.slice(0, MAX_LISTED).map((i) => i.name) },
    );
  }
  const last = wanted.slice(wanted.lastIndexOf(".") + 1).toLowerCase();
  const similar = items.filter((i) => i.name.toLowerCase().includes(last));
  const candidates = similar.length ? similar : items;
  if (!candidates.length) {
    throw new ToolError(`symbol ${quote(name)} not found: ${quote(rel)} defines no symbols`);
  }
  throw new ToolError(
    `symbol ${quote(name)} not found in ${quote(rel)}; ${
      similar.length ? "similar names" : "it defines"
    }: ${_list(candidates)}`,
    { candidates: candidates.slice(0, MAX_LISTED).map((i) => i.name) },
  );
}

async function _load(root: string, path: string): Promise<{ rel: string; items: OutlineItem[] }> {
  const file = await resolveForRead(root, path);
  const source = await readSource(file.abs, file.rel);
  return { rel: file.rel, items: (await outlineSource(source.language, source.text)).items };
}

/**
 * Resolves `name` in the file `path` (relative to `root`) to its line range.
 * Throws {@linkcode ToolError} (or a `PathError`) with a short, caller-safe message.
 */
export async function resolveSymbol(
  root: string,
  path: string,
  name: string,
): Promise<SymbolRange> {
  const { rel, items } = await _load(root, path);
  return findSymbol(items, name, rel);
}

/** Resolves several names in one file, parsing it once. */
export async function resolveSymbols(
  root: string,
  path: string,
  names: readonly string[],
): Promise<SymbolRange[]> {
  const { rel, items } = await _load(root, path);
  return names.map((n) => findSymbol(items, n, rel));
}
