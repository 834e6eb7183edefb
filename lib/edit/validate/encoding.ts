/**
 * The file's encoding kept: a byte-order mark once (as the file had it), and CRLF line endings
 * where the whole file used them, whatever the reply wrote.
 */
import { quoteValue } from "../refusal.ts";
import type { FileChange, Fitter } from "./types.ts";

const BOM = "\uFEFF";

function _bom(change: FileChange, text: string): string {
  const had = change.before?.startsWith(BOM) ?? false;
  const inside = (change.before ?? "").slice(had ? 1 : 0).includes(BOM);
  if (inside) return text;
  const bare = text.replaceAll(BOM, "");
  return had ? BOM + bare : bare;
}

function _crlf(change: FileChange, text: string): string {
  const before = change.before;
  if (!before || !before.includes("\r\n") || /(^|[^\r])\n/.test(before)) return text;
  return text.replace(/\r?\n/g, "\r\n");
}

/** BOM once and CRLF kept. */
export const ENCODING: Fitter = {
  name: "encoding",
  fit(change) {
    const after = _crlf(change, _bom(change, change.after));
    if (after === change.after) return null;
    return {
      after,
      note: `Kept the byte-order mark and line endings of ${quoteValue(change.path)} as they were`,
    };
  },
};
