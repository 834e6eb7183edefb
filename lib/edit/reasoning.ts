/**
 * The `QUESTION:` reply that asks the caller instead of editing (reasoning is dropped by the
 * tokenizer, `tokens.ts`, outside code only).
 */

const MAX_QUESTION = 4000;

/**
 * The question a reply asks: its first non-blank line starts with `QUESTION:` (bold or heading
 * marks allowed). Returns the text after the colon and every line after it, or `null`.
 */
export function readQuestion(text: string): string | null {
  const lines = text.split("\n");
  const first = lines.findIndex((l) => l.trim());
  if (first < 0) return null;
  const head = lines[first].trim().replace(/^[#>*_\s]+/, "");
  if (!/^QUESTION\b/i.test(head)) return null;
  const colon = head.slice(8).match(/^[*_\s]*:/);
  if (!colon) return null;
  const after = head.slice(8 + colon[0].length).replace(/^[*_\s]+/, "");
  const rest = [after, ...lines.slice(first + 1)].join("\n").trim();
  return rest.slice(0, MAX_QUESTION) || "(the model asked a question but wrote nothing after it)";
}
