/**
 * Data files still parse: JSON, YAML and TOML, read with their own parsers (`JSON.parse`, the
 * `yaml` and `smol-toml` packages). A file that did not parse before is left to the checks; a new
 * file must parse. JSON-with-comments files (tsconfig, VS Code settings, `.jsonc`) are not JSON.
 */
import { parse as parseYaml, parseAllDocuments } from "yaml";
import { parse as parseToml } from "smol-toml";
import { quoteValue } from "../refusal.ts";
import type { Validator } from "./types.ts";

const JSONC =
  /(^|\/)(tsconfig[^/]*|jsconfig[^/]*|\.eslintrc|\.babelrc|deno|devcontainer)\.json$|(^|\/)\.vscode\/|\.jsonc$/i;

type Reader = { kind: string; error(text: string): string | null };

function _json(text: string): string | null {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ""));
    return null;
  } catch (e) {
    return (e as Error).message.split("\n")[0];
  }
}

function _yaml(text: string): string | null {
  const docs = parseAllDocuments(text.replace(/^\uFEFF/, ""));
  const list = Array.isArray(docs) ? docs : [];
  for (const d of list) if (d.errors.length) return d.errors[0].message.split("\n")[0];
  return null;
}

function _toml(text: string): string | null {
  try {
    parseToml(text.replace(/^\uFEFF/, ""));
    return null;
  } catch (e) {
    return (e as Error).message.split("\n")[0];
  }
}

/** The parser for `path`, or `null` for a file that is not JSON, YAML or TOML. */
function _reader(path: string): Reader | null {
  if (/\.json$/i.test(path) && !JSONC.test(path)) return { kind: "JSON", error: _json };
  if (/\.ya?ml$/i.test(path)) return { kind: "YAML", error: _yaml };
  if (/\.toml$/i.test(path)) return { kind: "TOML", error: _toml };
  return null;
}

/** JSON, YAML and TOML files that parsed before parse after. */
export const DATA_SYNTAX: Validator = {
  name: "data-syntax",
  reason: "syntax",
  check(change) {
    const reader = _reader(change.path);
    if (!reader) return null;
    if (change.before !== null && reader.error(change.before) !== null) return null;
    const error = reader.error(change.after);
    if (error === null) return null;
    const note = reader.kind === "JSON" && /^\s*\/\//m.test(change.after)
      ? " JSON has no comments: say what you changed outside the code block."
      : "";
    return `The edit leaves ${quoteValue(change.path)} no longer valid ${reader.kind} ` +
      `(${error}), so nothing was written.${note} Send the file as it must be, every line ` +
      `valid ${reader.kind}`;
  },
};

/** The value a data file holds, or `undefined` when it does not parse (or holds several). */
function _value(path: string, text: string): unknown {
  const bare = text.replace(/^\uFEFF/, "");
  try {
    if (/\.json$/i.test(path) && !JSONC.test(path)) return JSON.parse(bare);
    if (/\.ya?ml$/i.test(path)) return parseYaml(bare);
    if (/\.toml$/i.test(path)) return parseToml(bare);
  } catch {
    return undefined;
  }
  return undefined;
}

/** Every key path of `value` (`server.timeout`), to `depth` levels. */
function _paths(value: unknown, prefix: string[] = [], depth = 4): string[][] {
  if (!value || typeof value !== "object" || Array.isArray(value) || depth === 0) return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => [
    [...prefix, k],
    ..._paths(v, [...prefix, k], depth - 1),
  ]);
}

function _says(clause: string, word: string): boolean {
  const w = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[-_]/g, "[-_ ]?");
  return new RegExp(`(^|[^\\w])${w}s?($|[^\\w])`, "i").test(clause);
}

/**
 * A key the edit adds to a JSON, YAML or TOML file under another section than the one the task's
 * words put it in: "add a timeout to the server settings" with the new `timeout` under
 * `database:`. Valid data, wrong place; judged only where one clause of the task names both the
 * new key and another section the file has.
 */
export const DATA_PLACEMENT: Validator = {
  name: "data-placement",
  reason: "destructive",
  check(change, task) {
    if (change.before === null || !_reader(change.path)) return null;
    const before = _value(change.path, change.before);
    const after = _value(change.path, change.after);
    if (before === undefined || after === undefined) return null;
    const had = new Set(_paths(before).map((p) => p.join("\0")));
    const sections = Object.keys(
      before && typeof before === "object" && !Array.isArray(before) ? before : {},
    );
    const clauses = task.spec.split(/[.;,]\s|\band\b|\n/i);
    for (const path of _paths(after)) {
      if (path.length < 2 || had.has(path.join("\0"))) continue;
      if (path.length > 2 && !had.has(path.slice(0, -1).join("\0"))) continue;
      const key = path[path.length - 1];
      for (const clause of clauses) {
        if (!_says(clause, key) || _says(clause, path[0])) continue;
        const other = sections.find((s) => s !== path[0] && _says(clause, s));
        if (!other) continue;
        return `The edit adds ${quoteValue(key)} under ${
          quoteValue(path.slice(0, -1).join("."))
        } ` +
          `of ${quoteValue(change.path)}, while the task puts it in ${quoteValue(other)}, so ` +
          "nothing was written; add it under the section the task names";
      }
    }
    return null;
  },
};
