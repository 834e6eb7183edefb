/** write_file: create or overwrite one file atomically, creating its folders. */
import { z } from "zod";
import description from "./write_file.md" with { type: "text" };
import { quote, ToolError } from "../lib/errors.ts";
import { makeParents, writeChecked } from "../lib/fs_atomic.ts";
import { resolveForWrite } from "../lib/paths.ts";
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";

/** Lines in `text` as read_file counts them: a final newline does not start another line. */
function _countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

export default defineTool({
  name: "write_file",
  title: "Write file",
  description: prose(description),
  input: z.object({
    file_path: z.string().max(4096).describe(
      "File to create or overwrite, relative to the project root",
    ),
    content: z.string().describe("The whole new content"),
    mode: z.number().int().min(0).max(0o7777).optional().describe(
      "Permission bits, e.g. 420 (0o644); default: keep an existing file's mode, 420 for a new file",
    ),
  }),
  output: z.looseObject({
    status: z.string().describe("ok or error"),
    path: z.string().optional().describe("The file, relative to the project"),
    bytes: z.number().optional().describe("Bytes written"),
    lines: z.number().optional().describe("Lines the file now has"),
    created: z.boolean().optional().describe("True when the file did not exist"),
  }),
  needs: ["read", "write"],
  annotations: ANNOTATIONS.OVERWRITES,
  async run({ file_path, content, mode }, ctx) {
    const safe = await resolveForWrite(ctx.root, file_path);
    if (safe.exists) {
      const info = await Deno.stat(safe.abs);
      if (info.isDirectory) {
        throw new ToolError(`${quote(safe.rel)} is a folder; give a file path inside it`);
      }
      if (!info.isFile) throw new ToolError(`${quote(safe.rel)} is not a regular file`);
    }
    if (file_path.endsWith("/")) {
      throw new ToolError(`${quote(file_path)} ends with a slash; give a file name`);
    }
    await makeParents(ctx.root, safe);
    const bytes = new TextEncoder().encode(content);
    await writeChecked(ctx.root, safe, bytes, { mode });
    // Line numbers shown before are stale now: patch_file needs a fresh read.
    ctx.state.shown.forget(safe.abs);
    return {
      status: "ok",
      path: safe.rel,
      bytes: bytes.length,
      lines: _countLines(content),
      created: !safe.exists,
    };
  },
});
