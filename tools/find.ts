/** find: search the project's files with a regular expression. */
import { z } from "zod";
import description from "./find.md" with { type: "text" };
import { findInProject, MAX_LINE_CHARS } from "../lib/find/mod.ts";
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";

export default defineTool({
  name: "find",
  title: "Find in files",
  description: prose(description).replace("{MAX_LINE_CHARS}", String(MAX_LINE_CHARS)),
  input: z.object({
    pattern: z.string().min(1).max(10_000).describe("JavaScript regular expression"),
    glob: z.string().max(1000).nullable().optional().describe(
      "Only paths matching this glob, e.g. src/**/*.py",
    ),
    max_results: z.number().default(30).describe(
      "Most matching lines to return; default 30, clamped between 1 and 1000",
    ),
    ignore_case: z.boolean().default(false).describe("Match case-insensitively"),
  }),
  output: z.looseObject({
    status: z.string(),
    matches: z.array(z.string()).optional(),
    count: z.number().optional(),
    truncated: z.boolean().optional(),
    skipped: z.number().optional(),
    skipped_kinds: z.looseObject({
      binary: z.number(),
      too_large: z.number(),
      not_utf8: z.number(),
    }).optional(),
    note: z.string().optional(),
  }),
  needs: ["read"],
  annotations: ANNOTATIONS.READS,
  async run({ pattern, glob, max_results, ignore_case }, ctx) {
    const found = await findInProject(ctx.root, {
      pattern,
      glob,
      maxResults: Math.min(1000, Math.max(1, Math.trunc(max_results))),
      ignoreCase: ignore_case,
      signal: ctx.signal,
    });
    let note: string | undefined;
    if (found.files === 0) {
      note = glob ? `no file matches the glob ${JSON.stringify(glob)}` : "the project has no files";
    } else if (found.truncated) {
      note = `showing the first ${found.count} matches; narrow the pattern or glob, or raise ` +
        "max_results, to see more";
    }
    const { binary, too_large, not_utf8 } = found.skipped;
    const skipped = binary + too_large + not_utf8;
    return {
      status: "ok",
      matches: found.matches,
      count: found.count,
      truncated: found.truncated,
      skipped,
      ...(skipped ? { skipped_kinds: found.skipped } : {}),
      ...(note ? { note } : {}),
    };
  },
});
