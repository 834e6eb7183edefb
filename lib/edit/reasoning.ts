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

const HARMONY_FINAL = /<\|channel\|>\s*final\s*(<\|constrain\|>[^<]*)?<\|message\|>/g;
const HARMONY_ANY = /<\|(start|end|return|channel|message|call|constrain)\|>/;
const HARMONY_ANALYSIS =
  /<\|channel\|>\s*(analysis|commentary)[^<]*<\|message\|>[\s\S]*?(<\|end\|>|<\|return\|>|(?=<\|start\|>)|$)/g;
const HARMONY_TOKEN =
  /<\|(start|end|return|call)\|>(assistant)?|<\|channel\|>\s*\w+\s*<\|message\|>/g;

/**
 * The answer of a reply that leaked gpt-oss's Harmony channels (a server without the Harmony
 * parser): the text of the last `final` channel when there is one, else the reply with every
 * `analysis` (and `commentary`) channel dropped. Reasoning channels are never a source of edits.
 * A reply without channel tokens comes back as it is.
 */
export function harmonyAnswer(text: string): { text: string; dropped: boolean } {
  if (!HARMONY_ANY.test(text)) return { text, dropped: false };
  const finals = [...text.matchAll(HARMONY_FINAL)];
  if (finals.length) {
    const last = finals[finals.length - 1];
    const rest = text.slice(last.index! + last[0].length);
    return { text: rest.replace(/<\|(end|return|call)\|>[\s\S]*$/, ""), dropped: true };
  }
  const kept = text.replace(HARMONY_ANALYSIS, "").replace(HARMONY_TOKEN, "");
  return { text: kept, dropped: kept !== text };
}
