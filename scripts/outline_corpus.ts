/**
 * Outlines every file of a list with a checkout's outline engine and writes all the outlines to one
 * text file, so that two checkouts' outlines can be compared byte for byte (`cmp`). Each file is
 * outlined fresh, then with a kept tree, then kept and re-parsed after an edit; a kept outline that
 * differs from the fresh one is marked `!!`. Not a test.
 *
 *   deno run -A --config deno.json scripts/outline_corpus.ts LIST OUT [--engine /work/main]
 *
 * LIST holds one path a line (a `.txt` suffix is dropped to choose the language, as the samples
 * in tests/fixtures/outline/ have).
 */
import { parseArgs } from "../lib/deps.ts";

const args = parseArgs({
  args: Deno.args,
  options: { engine: { type: "string" } },
  allowPositionals: true,
});
const [list, out] = args.positionals;
const engine = args.values.engine ?? new URL("..", import.meta.url).pathname;
const { formatItem, languageOf, outlineSource } = await import(`${engine}/lib/outline/mod.ts`);

const lines: string[] = [];
let files = 0;
for (const file of (await Deno.readTextFile(list)).split("\n").filter(Boolean)) {
  const language = languageOf(file.replace(/\.txt$/, ""));
  if (!language) {
    lines.push(`## ${file}: no language`);
    continue;
  }
  let text = await Deno.readTextFile(file);
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const fresh = await outlineSource(language, text);
  lines.push(
    `## ${file} ${language} ${fresh.items.length} errors=${fresh.hasErrors}`,
    ...fresh.items.map((item: { depth: number }) => `${item.depth} ${formatItem(item)}`),
  );
  const kept = await outlineSource(language, text, file);
  const edited = await outlineSource(language, `${text}\n`, file);
  if (JSON.stringify(kept.items) !== JSON.stringify(fresh.items)) lines.push(`!! kept ${file}`);
  if (edited.items.length !== fresh.items.length) lines.push(`!! edited ${file}`);
  files++;
}
await Deno.writeTextFile(out, `${lines.join("\n")}\n`);
console.log(`${files} files, ${lines.length} lines → ${out}`);
