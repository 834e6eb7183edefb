/**
 * Re-parsing after an edit gives exactly the outline a fresh parse gives: random edits (lines
 * inserted, deleted and changed, non-ASCII text included) to Python and TypeScript files.
 */
import assert from "node:assert/strict";
import { outlineSource } from "../../lib/outline/mod.ts";
import { editBetween } from "../../lib/outline/reparse.ts";

const PYTHON = Array.from(
  { length: 40 },
  (_, i) =>
    i % 4 === 0
      ? `class Shape${i}:\n    """Größe ${i}"""\n    def area(self):\n        return ${i}\n`
      : `def f${i}(x: int) -> int:\n    return x + ${i}  # ☃\n`,
).join("\n");

const SCRIPT = Array.from(
  { length: 40 },
  (_, i) =>
    i % 3 === 0
      ? `export class W${i} {\n  label = "é${i}";\n  area(): number { return ${i}; }\n}\n`
      : `export function make${i}(s: string): string {\n  return s + "🙂${i}";\n}\n`,
).join("\n");

function mutate(text: string, seed: number): string {
  let s = seed;
  const rand = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const lines = text.split("\n");
  const at = Math.floor(rand() * lines.length);
  const r = rand();
  if (r < 0.3) lines.splice(at, 1 + Math.floor(rand() * 3));
  else if (r < 0.6) {
    lines.splice(at, 0, `# ünïcode ${seed}`.replace("#", text.includes("def ") ? "#" : "//"));
  } else if (r < 0.8) lines[at] = (lines[at] ?? "") + " ";
  else {lines.splice(
      at,
      0,
      text.includes("def ") ? `def added${seed}():\n    pass` : `function added${seed}() {}`,
    );}
  return lines.join("\n");
}

for (const [language, start] of [["python", PYTHON], ["typescript", SCRIPT]] as const) {
  Deno.test(`outline after edits re-parses ${language} to the same items as a fresh parse`, async () => {
    const key = `/virtual/${language}-${crypto.randomUUID()}`;
    let text = start;
    await outlineSource(language, text, key);
    for (let i = 1; i <= 25; i++) {
      text = mutate(text, i);
      const kept = await outlineSource(language, text, key);
      const fresh = await outlineSource(language, text);
      assert.deepEqual(kept, fresh, `edit ${i}`);
    }
  });
}

Deno.test("editBetween finds the one changed span", () => {
  const edit = editBetween("ab\ncd\nef", "ab\ncXd\nef");
  assert.deepEqual(
    [edit.startIndex, edit.oldEndIndex, edit.newEndIndex],
    [4, 4, 5],
  );
  assert.deepEqual(edit.startPosition, { row: 1, column: 1 });
  assert.deepEqual(edit.newEndPosition, { row: 1, column: 2 });
});
