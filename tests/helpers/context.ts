/**
 * Read-only context of a given size for the prompt-cache tests and `deno task bench implement`:
 * English prose, for which localexec's token estimate and a real tokenizer agree (for code the
 * estimate errs about 1.45 times high).
 */

const WORDS = ("the model reads each file before it writes a change and the checks run after " +
  "every edit so that a failure goes back with its output while the project keeps its backups " +
  "under the store").split(" ");

/** A Markdown file of `paragraphs` paragraphs of about 60 words (260 are about 20,000 tokens). */
export function prose(paragraphs: number): string {
  const out: string[] = [];
  let k = 7;
  for (let p = 0; p < paragraphs; p++) {
    const words: string[] = [];
    for (let w = 0; w < 60; w++) {
      k = (k * 31 + 17) % 1009;
      words.push(WORDS[k % WORDS.length]);
    }
    out.push(`Section ${p}: ${words.join(" ")}.`);
  }
  return `# Notes\n\n${out.join("\n\n")}\n`;
}

/** About 20,000 tokens of context. */
export const CONTEXT_20K: string = prose(260);
