/**
 * What a file holds, for `read_file`: text, or a binary that is an image, audio, video or
 * something else. The content decides text or binary (a NUL byte in the first 8 KB, or bytes that
 * are not UTF-8); the extension decides the media kind and MIME type of a binary.
 */
import { extname } from "./deps.ts";

/** The kind of a binary file that MCP clients can show. */
export type MediaKind = "image" | "audio" | "video";

/** Image formats MCP clients accept as image content blocks. */
const IMAGES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

const AUDIO: Record<string, string> = {
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".ogg": "audio/ogg",
  ".oga": "audio/ogg",
  ".flac": "audio/flac",
  ".m4a": "audio/mp4",
  ".aac": "audio/aac",
  ".opus": "audio/opus",
  ".weba": "audio/webm",
  ".aif": "audio/aiff",
  ".aiff": "audio/aiff",
  ".mid": "audio/midi",
  ".midi": "audio/midi",
};

const VIDEO: Record<string, string> = {
  ".mp4": "video/mp4",
  ".m4v": "video/x-m4v",
  ".webm": "video/webm",
  ".mov": "video/quicktime",
  ".mkv": "video/x-matroska",
  ".avi": "video/x-msvideo",
  ".mpeg": "video/mpeg",
  ".mpg": "video/mpeg",
  ".ogv": "video/ogg",
  ".3gp": "video/3gpp",
  ".wmv": "video/x-ms-wmv",
  ".flv": "video/x-flv",
};

/** The media kind and MIME type of `path` by its extension (case-insensitive), if it has one. */
export function mediaType(path: string): { kind: MediaKind; mimeType: string } | undefined {
  const ext = extname(path).toLowerCase();
  if (IMAGES[ext]) return { kind: "image", mimeType: IMAGES[ext] };
  if (AUDIO[ext]) return { kind: "audio", mimeType: AUDIO[ext] };
  if (VIDEO[ext]) return { kind: "video", mimeType: VIDEO[ext] };
  return undefined;
}

/** Base64 of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let out = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    out += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(out);
}

/** A `file://` URI for an absolute POSIX path, each name percent-encoded. */
export function fileUri(abs: string): string {
  return "file://" + abs.split("/").map(encodeURIComponent).join("/");
}

/**
 * A classic hex dump of `bytes`: `offset: 16 bytes in hex  printable ASCII`, one line per 16
 * bytes (about 68 characters each).
 */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let off = 0; off < bytes.length; off += 16) {
    const row = bytes.subarray(off, off + 16);
    let hex = "";
    let text = "";
    for (let i = 0; i < 16; i++) {
      if (i < row.length) {
        hex += row[i].toString(16).padStart(2, "0");
        text += row[i] >= 0x20 && row[i] < 0x7f ? String.fromCharCode(row[i]) : ".";
      } else {
        hex += "  ";
      }
      if (i % 2 === 1) hex += " ";
    }
    lines.push(`${off.toString(16).padStart(8, "0")}: ${hex} ${text}`);
  }
  return lines.join("\n");
}
