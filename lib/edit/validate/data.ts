/**
 * Data files still parse: JSON, YAML and TOML, read with their own parsers (`JSON.parse`, the
 * `yaml` and `smol-toml` packages). A file that did not parse before is left to the checks; a new
 * file must parse. JSON-with-comments files (tsconfig, VS Code settings, `.jsonc`) are not JSON.
 */
import { parseAllDocuments } from "yaml";
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
