/** outline: one file's classes, functions, methods and constants with their line ranges. */
import { z } from "zod";
import description from "./outline.md" with { type: "text" };
import { resolveForRead } from "../lib/paths.ts";
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";

export default defineTool({
  name: "outline",
  title: "Outline file",
  description: prose(description),
  input: z.object({
    path: z.string().max(4096).describe("File to outline, relative to the project root"),
    max_items: z.number().default(60).describe(
      "Most items to list; default 60, clamped between 1 and 5000",
    ),
  }),
  output: z.looseObject({
    status: z.string(),
    path: z.string().optional(),
    language: z.string().optional(),
    items: z.array(z.string()).optional(),
    total: z.number().optional(),
    note: z.string().optional(),
  }),
  needs: ["read"],
  annotations: ANNOTATIONS.READS,
  async run({ path, max_items }, ctx) {
    // The parser and its rules load with the first outline, not when the server starts.
    const { formatItems, outlineFile } = await import("../lib/outline/mod.ts");
    const file = await resolveForRead(ctx.root, path);
    const { items, hasErrors, language } = await outlineFile(file.abs, file.rel);
    const { lines, omitted, showAll } = formatItems(
      items,
      Math.min(5000, Math.max(1, Math.trunc(max_items))),
    );
    const notes: string[] = [];
    if (omitted > 0) {
      notes.push(
        `${omitted} more item${omitted === 1 ? "" : "s"} not shown; call outline with ` +
          `max_items=${showAll} to see all`,
      );
    }
    if (hasErrors) notes.push("the file has syntax errors; items after them may be missing");
    if (items.length === 0 && !hasErrors) notes.push("no definitions found");
    return {
      status: "ok",
      path: file.rel,
      language,
      items: lines,
      total: items.length,
      ...(notes.length ? { note: notes.join("; ") } : {}),
    };
  },
});
