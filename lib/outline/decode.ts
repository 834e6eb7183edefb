/**
 * A file's bytes as the text outline reads: UTF-8 without a leading byte-order mark, or why they
 * are no text. Used where the bytes are decoded: in outline's worker, and in the server for
 * `readSource` and where no worker runs.
 */
import { decodeText, SNIFF_BYTES } from "../text.ts";

/** Why a file is not outlined as text. */
export type NotText = "binary" | "not UTF-8 text";

/** The text of `bytes` (a byte-order mark dropped), or why they are no text. */
export function decodeSource(bytes: Uint8Array): string | { notText: NotText } {
  const text = decodeText(bytes);
  if (text === undefined) {
    return { notText: bytes.subarray(0, SNIFF_BYTES).includes(0) ? "binary" : "not UTF-8 text" };
  }
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}
