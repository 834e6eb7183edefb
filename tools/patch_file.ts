/** patch_file: replace, insert or append lines of a file shown with line numbers, once per read. */
import { z } from "zod";
import { quote, ToolError } from "../lib/boundary.ts";
import { writeFileAtomic } from "../lib/fs_atomic.ts";
import { decodeText } from "../lib/media.ts";
import { resolveForWrite } from "../lib/paths.ts";
import { fingerprint } from "../lib/state.ts";
import { ANNOTATIONS, defineTool } from "../lib/tool.ts";

const BOM = "\uFEFF";

/** One line of a file and the ending it had (`""` for a last line without a newline). */
interface Line {
  text: string;
  eol: string;
}

/** Splits text into lines as read_file counts them, remembering each line's ending. */
function _split(text: string): Line[] {
  const lines: Line[] = [];
  let i = 0;
  while (i < text.length) {
    const nl = text.indexOf("\n", i);
    if (nl === -1) {
      lines.push({ text: text.slice(i), eol: "" });
      break;
    }
    const cr = nl > i && text[nl - 1] === "\r";
    lines.push({ text: text.slice(i, cr ? nl - 1 : nl), eol: cr ? "\r\n" : "\n" });
    i = nl + 1;
  }
  return lines;
}

/** The replacement lines: one trailing newline is optional, CR before LF is dropped. */
function _contentLines(content: string): string[] {
  let body = content.startsWith(BOM) ? content.slice(1) : content;
  if (body === "") return [];
  body = body.replace(/\r?\n$/, "");
  return body.split("\n").map((l) => l.replace(/\r$/, ""));
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
  description:
    "Replace lines from_line..to_line (1-based, both inclusive) of an existing file with " +
    "`content`. Insert without deleting: to_line = from_line - 1 (content goes before from_line). " +
    "Append: from_line = total_lines + 1, to_line = total_lines. Empty content deletes the range. " +
    "One trailing newline in content is optional; new lines take the file's line ending (CRLF " +
    "stays CRLF) and the file keeps its final-newline state. The file must have been read with " +
    "read_file line_numbers=true (any range) by this server and be unchanged since: one patch " +
    "per read, so read it again before the next patch. Returns the new line count and the " +
    "`changed` range of the new lines. Cheaper than write_file for small edits.",
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
    status: z.string(),
    path: z.string().optional(),
    lines: z.number().optional(),
    changed: z.string().optional(),
    added: z.number().optional(),
    removed: z.number().optional(),
    note: z.string().optional(),
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
    const unread = new ToolError(
      `${quote(rel)} has not been read with line numbers since it was opened or last patched ` +
        `here; patch_file allows one patch per read: call read_file with line_numbers=true, ` +
        `then patch with the numbers it shows`,
    );
    if (!ctx.state.shown.has(safe.abs)) throw unread;
    const bytes = await Deno.readFile(safe.abs);
    const print = await fingerprint(bytes);
    const text = decodeText(bytes);
    if (text === undefined) throw new ToolError(`${quote(rel)} is not a UTF-8 text file`);
    const bom = text.startsWith(BOM);
    const lines = _split(bom ? text.slice(1) : text);
    _checkRange(from, to, lines.length, rel);
    const added = _contentLines(content);
    if (added.length === 0 && to === from - 1) {
      throw new ToolError("nothing to change: the range is empty (an insertion) and so is content");
    }
    // Check and consume the read mark with no await in between: one patch per read.
    const mark = ctx.state.shown.get(safe.abs);
    if (mark === undefined) throw unread;
    if (mark !== print) {
      throw new ToolError(
        `${quote(rel)} changed since it was read with line numbers; read it again with ` +
          `line_numbers=true and patch with the new numbers`,
      );
    }
    ctx.state.shown.delete(safe.abs);
    const out = _splice(lines, from, to, added);
    const body = out.map((l) => l.text + l.eol).join("");
    await writeFileAtomic(safe.abs, (bom && out.length ? BOM : "") + body, { mode });
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
