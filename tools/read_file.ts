/** read_file: a file's text (a line range, optionally numbered), media as content blocks, or hex. */
import { z } from "zod";
import description from "./read_file.md" with { type: "text" };
import { quote, ToolError } from "../lib/errors.ts";
import { fileUri, hexDump, mediaType, toBase64 } from "../lib/media.ts";
import { decodeText, looksBinary, SNIFF_BYTES } from "../lib/text.ts";
import { isAbsolute, normalize } from "../lib/deps.ts";
import { fitMessage, messageCost } from "../lib/output.ts";
import { openChecked, readAll } from "../lib/fs_atomic.ts";
import { resolveForRead } from "../lib/paths.ts";
import { ANNOTATIONS, defineTool, prose, RichResult, type ToolContext } from "../lib/mcp/mod.ts";

/**
 * Largest image, audio or video file returned as a content block: its base64 (4/3 the size) must
 * fit in one MCP message, which the SDK's stdio client caps at 10 MiB.
 */
const MEDIA_MAX = 7 * 1024 * 1024;
/** Largest text file read at all; bigger ones are for `shell` (head, sed -n). */
const TEXT_MAX = 64 * 1024 * 1024;
/** Most bytes of an other binary shown as hex. */
const HEX_MAX = 4096;
/** Characters of one hex dump line, newline included (see `hexDump`). */
const HEX_LINE = 68;

const input = z.object({
  filename: z.string().max(4096).describe("File to read, relative to the project root"),
  max_chars: z.number().int().min(1).max(2_000_000).default(32768).describe(
    "Cut the text after this many characters (a note says how to read on)",
  ),
  binary_as_hex: z.boolean().default(true).describe(
    "Return other binary files as hex (capped); false refuses them",
  ),
  start_line: z.number().int().min(1).nullable().optional().describe(
    "First line to return, 1-based",
  ),
  end_line: z.number().int().min(1).nullable().optional().describe(
    "Last line to return, inclusive",
  ),
  line_numbers: z.boolean().default(false).describe(
    "Prefix each line with its number and a tab; required before patch_file",
  ),
});

type Args = z.output<typeof input>;

function _mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Offsets where each line starts; a final newline does not start another line. */
function _lineStarts(text: string): number[] {
  const starts = text.length ? [0] : [];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i + 1 < text.length) starts.push(i + 1);
  }
  return starts;
}

function _lineEndings(text: string): string | undefined {
  const crlf = text.split("\r\n").length - 1;
  if (!crlf) return undefined;
  return text.split("\n").length - 1 > crlf ? "mixed" : "crlf";
}

/**
 * Bytes `content` may take in the MCP message. The text appears twice (in the JSON text block,
 * escaped twice, and in `structuredContent`), and the SDK's stdio client drops the connection on
 * a message over 10 MiB, so a `max_chars` of non-ASCII or control characters must stop earlier.
 */
const CONTENT_BYTES = 8 * 1024 * 1024;

function _limit(max: number, bytes: boolean): string {
  return bytes ? `the ${CONTENT_BYTES / 1024 / 1024} MB result limit` : `max_chars=${max}`;
}

function _longLineNote(n: number, line: string, total: number, limit: string): string {
  const length = line.replace(/\r?\n$/, "").length;
  const more = n < total ? `, or start_line=${n + 1} to read on` : "";
  const how = limit.startsWith("max_chars")
    ? "call again with a larger max_chars" +
      more
    : `use shell (for example cut or fold) to read it in parts${more}`;
  return `line ${n} is ${length} characters long and was cut at ${limit}; ${how}`;
}

function _readOnNote(start: number, last: number, total: number, limit: string): string {
  return `showing lines ${start}-${last} of ${total} (${limit} reached); ` +
    `call again with start_line=${last + 1} to read on`;
}

async function _text(
  text: string,
  bytes: Uint8Array,
  rel: string,
  abs: string,
  args: Args,
  ctx: ToolContext,
) {
  const starts = _lineStarts(text);
  const total = starts.length;
  const start = args.start_line ?? 1;
  if (total === 0 && start > 1) {
    throw new ToolError(`start_line ${start} is beyond the end: ${quote(rel)} is empty`);
  }
  if (total > 0 && start > total) {
    throw new ToolError(`start_line ${start} is beyond the end: ${quote(rel)} has ${total} lines`);
  }
  if (args.end_line != null && args.end_line < start) {
    throw new ToolError(`end_line ${args.end_line} is before start_line ${start}`);
  }
  const end = Math.min(args.end_line ?? total, total);
  let content = "";
  let cost = 0;
  let last = start - 1;
  let note: string | undefined;
  for (let n = start; n <= end; n++) {
    const line = text.slice(starts[n - 1], n < total ? starts[n] : text.length);
    const piece = args.line_numbers ? `${n}\t${line}` : line;
    const overChars = content.length + piece.length > args.max_chars;
    const pieceCost = overChars ? 0 : messageCost(piece);
    if (overChars || cost + pieceCost > CONTENT_BYTES) {
      const limit = _limit(args.max_chars, !overChars);
      if (n === start) {
        content = fitMessage(piece, args.max_chars, CONTENT_BYTES);
        last = n;
      }
      note = n === start
        ? _longLineNote(n, line, total, limit)
        : _readOnNote(start, last, total, limit);
      break;
    }
    content += piece;
    cost += pieceCost;
    last = n;
  }
  if (args.line_numbers) await ctx.state.shown.mark(abs, bytes);
  const endings = _lineEndings(text);
  return {
    status: "ok",
    path: rel,
    total_lines: total,
    start_line: start,
    end_line: last,
    ...(note ? { truncated: true, note } : total === 0 ? { note: "the file is empty" } : {}),
    ...(endings ? { line_endings: endings } : {}),
    content,
  };
}

function _tooBig(rel: string, kind: string, size: number): ToolError {
  return new ToolError(
    `${quote(rel)} is ${size} bytes; read_file returns ${kind} files up to ${
      MEDIA_MAX / 1024 / 1024
    } MB (${MEDIA_MAX} bytes), the most one MCP message carries`,
  );
}

function _media(bytes: Uint8Array, rel: string, abs: string): RichResult {
  const media = mediaType(rel)!;
  if (bytes.length > MEDIA_MAX) throw _tooBig(rel, media.kind, bytes.length);
  const json = {
    status: "ok",
    path: rel,
    kind: media.kind,
    mime_type: media.mimeType,
    bytes: bytes.length,
  };
  const data = toBase64(bytes);
  if (media.kind === "video") {
    return new RichResult(json, [{
      type: "resource",
      resource: { uri: fileUri(abs), mimeType: media.mimeType, blob: data },
    }]);
  }
  return new RichResult(json, [{ type: media.kind, data, mimeType: media.mimeType }]);
}

function _hex(head: Uint8Array, size: number, rel: string, args: Args) {
  if (!args.binary_as_hex) {
    const what = `${quote(rel)} is a binary file (${size} bytes)`;
    throw new ToolError(`${what}; call again with binary_as_hex=true to see it as hex`);
  }
  const cap = Math.min(HEX_MAX, Math.max(16, Math.floor(args.max_chars / HEX_LINE) * 16));
  const shown = head.subarray(0, cap);
  return {
    status: "ok",
    path: rel,
    kind: "binary",
    bytes: size,
    shown_bytes: shown.length,
    ...(shown.length < size
      ? {
        truncated: true,
        note: `showing the first ${shown.length} of ${size} bytes as hex; ` +
          "use shell (for example xxd -s OFFSET -l 4096) to see more",
      }
      : {}),
    hex: hexDump(shown),
  };
}

export default defineTool({
  name: "read_file",
  title: "Read file",
  description: prose(description),
  input,
  output: z.looseObject({
    status: z.string().describe("ok or error"),
    path: z.string().optional().describe("The file, relative to the project"),
    content: z.string().optional().describe("Text lines (numbered with line_numbers)"),
    total_lines: z.number().optional(),
    start_line: z.number().optional().describe("The first line shown"),
    end_line: z.number().optional().describe("The last line shown"),
    truncated: z.boolean().optional().describe("True when max_chars cut the text"),
    line_endings: z.string().optional().describe("CRLF or mixed, when not plain LF"),
    kind: z.string().optional().describe("image, audio, video or binary (no content then)"),
    mime_type: z.string().optional().describe("A media file's type (the file is a content block)"),
    bytes: z.number().optional().describe("A media or binary file's size"),
    shown_bytes: z.number().optional().describe("Bytes of a binary file shown as hex"),
    hex: z.string().optional().describe("A binary file's hex dump"),
    note: z.string().optional().describe("How to read on, or why the file is shown this way"),
  }),
  needs: ["read"],
  annotations: ANNOTATIONS.READS,
  async run(args, ctx) {
    const safe = await resolveForRead(ctx.root, args.filename);
    if (!safe.exists) {
      const given = isAbsolute(args.filename)
        ? safe.rel
        : normalize(args.filename).replace(/(.)\/+$/, "$1");
      const via = given === safe.rel ? "" : ` (${quote(args.filename)} leads there through a link)`;
      throw new ToolError(
        `file ${quote(safe.rel)} does not exist${via}; use list_files to see what there is`,
      );
    }
    const kind = await Deno.stat(safe.abs);
    if (kind.isDirectory) {
      throw new ToolError(`${quote(safe.rel)} is a folder; use list_files to see what it holds`);
    }
    if (!kind.isFile) throw new ToolError(`${quote(safe.rel)} is not a regular file`);
    // Read through a handle proven to be the file inside the root, whatever a link swap does.
    using file = openChecked(ctx.root, safe);
    const info = await file.stat();
    const media = mediaType(safe.rel);
    if (info.size > TEXT_MAX || (media && info.size > MEDIA_MAX)) {
      // Too big to read whole: decide from the first bytes.
      const head = await readAll(file, Math.max(SNIFF_BYTES, HEX_MAX));
      if (looksBinary(head)) {
        if (media) throw _tooBig(safe.rel, media.kind, info.size);
        return _hex(head, info.size, safe.rel, args);
      }
      if (info.size > TEXT_MAX) {
        throw new ToolError(
          `${quote(safe.rel)} is ${_mb(info.size)}, over read_file's ${_mb(TEXT_MAX)} limit; ` +
            "use shell (head, tail, sed -n 'A,Bp') to read part of it",
        );
      }
    }
    const bytes = await readAll(file);
    const text = decodeText(bytes);
    if (text !== undefined) return _text(text, bytes, safe.rel, safe.abs, args, ctx);
    if (media) return _media(bytes, safe.rel, safe.abs);
    return _hex(bytes, bytes.length, safe.rel, args);
  },
});
