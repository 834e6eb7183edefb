/** find: search the project's files with a regular expression. */
import { z } from "zod";
import description from "./find.md" with { type: "text" };
import { findInProject, MAX_LINE_CHARS, type SkippedFile } from "../lib/find/mod.ts";
import { ANNOTATIONS, defineTool, MAX_RESULT_BYTES, prose } from "../lib/mcp/mod.ts";

/**
 * The most lines one answer may hold: what fits one MCP message even when every line is as long as
 * find makes it (UTF-8, escaped twice: JSON inside JSON-RPC) with a long path; rounded to 100.
 */
const MAX_RESULTS = Math.floor(MAX_RESULT_BYTES / (MAX_LINE_CHARS * 6 + 1040) / 100) * 100;

/** `text` quoted for a POSIX shell. */
function _sh(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** What to use for a file find skipped, for the caller to read it another way. */
function _instead(file: SkippedFile, pattern: string, ignoreCase: boolean): string {
  const path = _sh(file.path);
  const grep = `grep -n${ignoreCase ? "i" : ""}`;
  const size = file.bytes >= 1_048_576
    ? `${(file.bytes / 1_048_576).toFixed(1)} MB`
    : `${Math.ceil(file.bytes / 1024)} KB`;
  switch (file.kind) {
    case "too_large":
      return `${size}, over find's 1 MB limit: search it with shell (${grep}P ${
        _sh(pattern)
      } ${path}) or read parts of it with read_file (start_line, end_line)`;
    case "binary":
      return `${size}, binary: read it with read_file (binary_as_hex) or shell (strings, xxd)`;
    default:
      return `${size}, not UTF-8: search it with shell (${grep}aP ${_sh(pattern)} ${path})`;
  }
}

export default defineTool({
  name: "find",
  title: "Find in files",
  description: prose(description).replace("{MAX_LINE_CHARS}", String(MAX_LINE_CHARS))
    .replace("{MAX_RESULTS}", String(MAX_RESULTS)),
  input: z.object({
    pattern: z.string().min(1).max(10_000).describe("JavaScript regular expression"),
    glob: z.string().max(1000).nullable().optional().describe(
      "Only paths matching this glob, e.g. src/**/*.py",
    ),
    max_results: z.number().default(30).describe(
      `Most matching lines to return; default 30, clamped between 1 and ${MAX_RESULTS}`,
    ),
    ignore_case: z.boolean().default(false).describe("Match case-insensitively"),
  }),
  output: z.looseObject({
    status: z.string(),
    matches: z.array(z.string()).optional(),
    count: z.number().optional(),
    truncated: z.boolean().optional(),
    total: z.number().optional(),
    at_least: z.number().optional(),
    skipped: z.number().optional(),
    skipped_kinds: z.looseObject({
      binary: z.number(),
      too_large: z.number(),
      not_utf8: z.number(),
    }).optional(),
    skipped_files: z.array(z.looseObject({
      path: z.string(),
      kind: z.string(),
      bytes: z.number(),
      instead: z.string(),
    })).optional(),
    note: z.string().optional(),
  }),
  needs: ["read"],
  annotations: ANNOTATIONS.READS,
  async run({ pattern, glob, max_results, ignore_case }, ctx) {
    const found = await findInProject(ctx.root, {
      pattern,
      glob,
      maxResults: Math.min(MAX_RESULTS, Math.max(1, Math.trunc(max_results))),
      ignoreCase: ignore_case,
      signal: ctx.signal,
      oneShot: ctx.state.once,
      progress: (message) => ctx.progress(message),
    });
    let note: string | undefined;
    if (found.files === 0 && found.complete) {
      note = glob ? `no file matches the glob ${JSON.stringify(glob)}` : "the project has no files";
    } else if (found.truncated) {
      const of = found.complete ? `of ${found.found}` : `of at least ${found.found}`;
      const raise = found.complete && found.found <= MAX_RESULTS
        ? `raise max_results to ${found.found} to see them all, or narrow the pattern or glob`
        : "narrow the pattern or glob to see the rest";
      note = `showing the first ${found.count} ${of} matching lines; ${raise}`;
    }
    const { binary, too_large, not_utf8 } = found.skipped;
    const skipped = binary + too_large + not_utf8;
    return {
      status: "ok",
      matches: found.matches,
      count: found.count,
      truncated: found.truncated,
      ...(found.truncated
        ? (found.complete ? { total: found.found } : { at_least: found.found })
        : {}),
      skipped,
      ...(skipped ? { skipped_kinds: found.skipped } : {}),
      ...(found.skippedFiles.length
        ? {
          skipped_files: found.skippedFiles.map((f) => ({
            ...f,
            instead: _instead(f, pattern, ignore_case),
          })),
        }
        : {}),
      ...(note ? { note } : {}),
    };
  },
});
