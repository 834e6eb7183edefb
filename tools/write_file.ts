/** write_file: create or overwrite one file atomically, creating its folders. */
import { z } from "zod";
import { quote, ToolError } from "../lib/boundary.ts";
import { writeFileAtomic } from "../lib/fs_atomic.ts";
import { ensureParent, resolveForWrite } from "../lib/paths.ts";
import { ANNOTATIONS, defineTool } from "../lib/tool.ts";

/** Lines in `text` as read_file counts them: a final newline does not start another line. */
function _countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

export default defineTool({
  name: "write_file",
  title: "Write file",
  description:
    "Create a file or replace its whole content, relative to the project root. Missing parent " +
    "folders are created. The write is atomic (a temporary file renamed over the old one), so " +
    "readers never see half a file; a symlink inside the project is written through to its " +
    "target. `mode` sets the permission bits (e.g. 493 = 0o755 for a script); without it an " +
    "existing file keeps its mode and a new one gets 420 (0o644). Files under .git/ and " +
    ".localexec/ are refused. Returns bytes and lines written and whether the file was created. " +
    "For a change to a few lines of an existing file, patch_file is cheaper: read it with " +
    "line_numbers=true first.",
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
    status: z.string(),
    path: z.string().optional(),
    bytes: z.number().optional(),
    lines: z.number().optional(),
    created: z.boolean().optional(),
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
    await ensureParent(ctx.root, safe);
    const bytes = new TextEncoder().encode(content);
    await writeFileAtomic(safe.abs, bytes, { mode });
    // Line numbers shown before are stale now: patch_file needs a fresh read.
    ctx.state.shown.delete(safe.abs);
    return {
      status: "ok",
      path: safe.rel,
      bytes: bytes.length,
      lines: _countLines(content),
      created: !safe.exists,
    };
  },
});
