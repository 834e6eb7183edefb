/** patch_file: replace, insert or append lines of a file shown with line numbers, once per read. */
import { z } from "zod";
import description from "./patch_file.md" with { type: "text" };
import { quote, ToolError } from "../lib/errors.ts";
import { readChecked, writeChecked } from "../lib/fs_atomic.ts";
import { decodeText, type Line, textLines, toLines } from "../lib/text.ts";
import { resolveForWrite } from "../lib/paths.ts";
import { ANNOTATIONS, defineTool, fingerprint, prose } from "../lib/mcp/mod.ts";

const BOM = "\uFEFF";

/** The replacement lines: one trailing newline is optional, CR before LF is dropped. */
function _contentLines(content: string): string[] {
  return textLines(content.startsWith(BOM) ? content.slice(1) : content);
}

function _checkRange(from: number, to: number, total: number, rel: string): void {
  if (from > total + 1) {
    throw new ToolError(
      `from_line ${from} is beyond the end: ${quote(rel)} has ${total} lines ` +
        `(to append, use from_line=${total + 1} and to_line=${total})`,
    );
  }
  if (to > total) {
    throw new ToolError(`to_line ${to} is beyond the end: ${quote(rel)} has ${total} lines`);
  }
  if (to < from - 1) {
    throw new ToolError(
      `to_line ${to} is before from_line ${from}; to insert before line ${from} without ` +
        `deleting, use to_line=${from - 1}`,
    );
  }
}

/** Splices `added` in place of lines from..to, keeping line endings and the final newline. */
function _splice(lines: Line[], from: number, to: number, added: string[]): Line[] {
  const crlf = lines.filter((l) => l.eol === "\r\n").length;
  const eol = crlf > lines.length - crlf - (lines.at(-1)?.eol === "" ? 1 : 0) ? "\r\n" : "\n";
  const finalNewline = lines.length === 0 || lines[lines.length - 1].eol !== "";
  const out = [
    ...lines.slice(0, from - 1),
    ...added.map((text) => ({ text, eol })),
    ...lines.slice(to),
  ];
  for (const line of out) if (line.eol === "") line.eol = eol;
  if (out.length && !finalNewline) out[out.length - 1] = { ...out[out.length - 1], eol: "" };
  return out;
}

export default defineTool({
  name: "patch_file",
  title: "Patch file",
  description: prose(description),
  input: z.object({
    file_path: z.string().max(4096).describe("File to patch, relative to the project root"),
    from_line: z.number().int().min(1).describe("First line to replace, 1-based"),
    to_line: z.number().int().min(0).describe(
      "Last line to replace, inclusive; from_line - 1 inserts without deleting",
    ),
    content: z.string().describe("Replacement lines"),
    mode: z.number().int().min(0).max(0o7777).optional().describe(
      "Permission bits; default: keep the file's mode",
    ),
  }),
  output: z.looseObject({
    status: z.string().describe("ok or error"),
    path: z.string().optional().describe("The file, relative to the project"),
    lines: z.number().optional().describe("Lines the file now has"),
    changed: z.string().optional().describe('The new lines\' range, "from-to" ("" when deleted)'),
    added: z.number().optional().describe("Lines put in"),
    removed: z.number().optional().describe("Lines taken out"),
    note: z.string().optional().describe("Lines moved; read again before the next patch"),
  }),
  needs: ["read", "write"],
  annotations: ANNOTATIONS.CHANGES,
  async run({ file_path, from_line: from, to_line: to, content, mode }, ctx) {
    const safe = await resolveForWrite(ctx.root, file_path);
    const rel = safe.rel;
    if (!safe.exists) {
      throw new ToolError(`file ${quote(rel)} does not exist; use write_file to create it`);
    }
    const info = await Deno.stat(safe.abs);
    if (info.isDirectory) throw new ToolError(`${quote(rel)} is a folder; patch_file edits files`);
    if (!info.isFile) throw new ToolError(`${quote(rel)} is not a regular file`);
    // `localexec call` answers one call and exits: no read of an earlier call is ever known, and
    // "read it with line numbers first" would send a caller round in circles.
    if (ctx.state.once) {
      throw new ToolError(
        `patch_file needs a running server: it patches a file read with line numbers earlier in ` +
          `the same connection (an MCP client's), and each "localexec call" is a process of ` +
          `its own; from the command line use write_file with the whole new content of ${
            quote(rel)
          }`,
      );
    }
    ctx.state.shown.require(safe.abs, rel);
    const bytes = await readChecked(ctx.root, safe);
    const print = await fingerprint(bytes);
    const text = decodeText(bytes);
    if (text === undefined) throw new ToolError(`${quote(rel)} is not a UTF-8 text file`);
    const { lines, bom } = toLines(text);
    _checkRange(from, to, lines.length, rel);
    const added = _contentLines(content);
    if (added.length === 0 && to === from - 1) {
      throw new ToolError("nothing to change: the range is empty (an insertion) and so is content");
    }
    ctx.state.shown.consume(safe.abs, rel, print); // one patch per read
    const out = _splice(lines, from, to, added);
    const body = out.map((l) => l.text + l.eol).join("");
    await writeChecked(ctx.root, safe, (out.length ? bom : "") + body, { mode });
    const removed = to - from + 1;
    const shift = added.length - removed;
    const last = from + added.length - 1;
    return {
      status: "ok",
      path: rel,
      lines: out.length,
      changed: added.length ? `${from}-${last}` : "",
      added: added.length,
      removed,
      note: (added.length ? "" : `deleted lines ${from}-${to}; `) +
        (shift && to < lines.length
          ? `old lines from ${to + 1} on moved by ${shift > 0 ? "+" : ""}${shift}; `
          : "") +
        "read the file again with line_numbers=true before patching it again",
    };
  },
});
