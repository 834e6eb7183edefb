/**
 * The reply formats, as plug-ins (Aider's `coders/` is the model: one module per format, the list
 * of valid formats derived from the registry). Adding a format = its module + one line in
 * {@linkcode FORMATS}; every guard applies to it through the validation stage, with no line of
 * its own.
 */
import { DIFF } from "./diff.ts";
import { WHOLE } from "./whole.ts";
import type { FormatPlugin } from "./types.ts";
import type { FormatEdit } from "../types.ts";

export type { FormatPlugin } from "./types.ts";

/** The built-in formats, by name. */
export const FORMATS = { whole: WHOLE, diff: DIFF } as const satisfies Record<string, FormatPlugin>;

/** A built-in format's name. */
export type BuiltinFormat = keyof typeof FORMATS;

const _registry = new Map<string, FormatPlugin>(Object.entries(FORMATS));

/**
 * Registers another format (one line for a new format's module; tests register their own). A name
 * taken already is refused, so a format cannot silently stand in for another.
 */
export function registerFormat(format: FormatPlugin): void {
  if (_registry.has(format.name)) throw new Error(`format ${format.name} is registered already`);
  _registry.set(format.name, format);
}

/** Removes a format registered with {@linkcode registerFormat} (built-ins stay). */
export function unregisterFormat(name: string): void {
  if (!(name in FORMATS)) _registry.delete(name);
}

/** The format named `name`; an unknown name is an error, never another format. */
export function formatOf(name: string): FormatPlugin {
  const format = _registry.get(name);
  if (!format) throw new Error(`no reply format is named ${JSON.stringify(name)}`);
  return format;
}

/** Every registered format's name. */
export function formatNames(): string[] {
  return [..._registry.keys()];
}

/** The edits of the registered formats that read their own shape, or `null` when none is there. */
export function readOwnShapes(reply: string, known: readonly string[]): FormatEdit[] | null {
  for (const format of _registry.values()) {
    const edits = format.read?.(reply, known);
    if (edits?.length) return edits;
  }
  return null;
}
