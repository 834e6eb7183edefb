/**
 * Reasoning and questions: `<think>` blocks small reasoning models write before their answer,
 * and the `QUESTION:` reply that asks the caller instead of editing.
 */

const THINK = /<(think|thinking|reasoning)>/gi;
const THINK_OPEN = /^\s*<(think|thinking|reasoning)>/i;
const THINK_CLOSE = /<\/(think|thinking|reasoning)>/i;
const MAX_QUESTION = 4000;

function _removeClosed(text: string): string {
  let out = "";
  let pos = 0;
  for (;;) {
    THINK.lastIndex = pos;
    const open = THINK.exec(text);
    if (!open) break;
    const close = new RegExp(`</${open[1]}>`, "gi");
    close.lastIndex = open.index + open[0].length;
    const end = close.exec(text);
    if (!end) break;
    out += text.slice(pos, open.index);
    pos = end.index + end[0].length;
  }
  return out + text.slice(pos);
}

/** Removes reasoning: `<think>…</think>`, a lone `</think>` (all before it), an unclosed `<think>`. */
export function stripReasoning(text: string): { text: string; unclosed: boolean } {
  let t = _removeClosed(text);
  const close = t.match(THINK_CLOSE);
  if (close && close.index !== undefined) t = t.slice(close.index + close[0].length);
  const unclosed = THINK_OPEN.test(t);
  if (unclosed) t = t.replace(THINK_OPEN, "");
  return { text: t, unclosed };
}

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
