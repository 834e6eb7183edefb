/** find: search the project's files with a regular expression. */
import { z } from "zod";
import { findInProject, MAX_LINE_CHARS } from "../lib/find/mod.ts";
import { ANNOTATIONS, defineTool } from "../lib/tool.ts";

export default defineTool({
  name: "find",
  title: "Find in files",
  description:
    "Search the project's files with a JavaScript regular expression, line by line, and get " +
    "`path:line:text` lines in path order (text trimmed, long lines cut to about " +
    `${MAX_LINE_CHARS} characters around the match). Honours .gitignore files (git's own listing ` +
    "in a git work tree), never looks in .git/ or .localexec/, and does not follow symbolic " +
    "links; binary files, files over 1 MB and non-UTF-8 files are skipped: `skipped` counts them " +
    "and, when there are any, `skipped_kinds` says how many of each. Plain text patterns take a fast path. `glob` narrows the files: `*.py` matches " +
    "names at any depth, `src/**/*.ts` paths from the root, a folder name takes everything in it. " +
    "Stops at max_results and says `truncated: true` when there are more; narrow the pattern or " +
    "glob then. Cheap: well under a second on most projects. A pattern that backtracks " +
    "catastrophically is stopped after about a second with an error.",
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
