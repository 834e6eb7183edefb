/**
 * The syntax backstop: a reply that breaks a Python, TypeScript, Go or Rust file that parsed
 * cleanly before is refused, naming the broken lines, before any check runs; a file that had
 * errors already, a new file and a file with no grammar are left to the checks.
 */
import assert from "node:assert/strict";
import { judgeReply, validateOutcome } from "../../lib/implement/reply.ts";
import { syntaxErrorLines } from "../../lib/outline/mod.ts";

async function judge(path: string, before: string | null, reply: string) {
  const current = new Map([[path, before]]);
  const input = { spec: "Change it.", files: [path], symbolsOnly: [], current };
  return await validateOutcome(judgeReply(reply, input), input);
}

function block(path: string, search: string, replace: string): string {
  return `${path}\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n`;
}

const BROKEN: [string, string, string, string][] = [
  ["calc.py", "def add(a, b):\n    return a + b\n", "    return a + b\n", "    return (a + b\n"],
  [
    "calc.ts",
    "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
    "  return a + b;\n",
    "  return a + b;\n  if (a > b {\n",
  ],
  [
    "calc.go",
    "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n",
    "\treturn a + b\n",
    "\treturn a + b)\n",
  ],
  [
    "calc.rs",
    "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    "    a + b\n",
    "    let x = ;\n    a + b\n",
  ],
];

for (const [path, before, search, replace] of BROKEN) {
  Deno.test(`the syntax backstop refuses a reply that breaks ${path}, naming the line`, async () => {
    assert.deepEqual(await syntaxErrorLines(path, before), []);
    const judged = await judge(path, before, block(path, search, replace));
    assert.equal(judged.kind, "unusable", JSON.stringify(judged));
    if (judged.kind !== "unusable") return;
    assert.equal(judged.reason, "syntax");
    assert.match(
      judged.feedback,
      new RegExp(`"${path.replace(".", "\\.")}" with a syntax error at line`),
    );
    assert.match(judged.feedback, /\d+\| /);
  });
}

Deno.test("the syntax backstop lets a good edit through and leaves broken, new and unknown files alone", async () => {
  const good = await judge(
    "calc.py",
    "def add(a, b):\n    return a - b\n",
    block("calc.py", "    return a - b\n", "    return a + b\n"),
  );
  assert.equal(good.kind, "edits");
  const already = "def add(a, b):\n    return (a - b\n";
  const still = await judge(
    "calc.py",
    already,
    block("calc.py", "def add(a, b):\n", "def add(a, c):\n"),
  );
  assert.equal(still.kind, "edits");
  const created = await judge("new.py", null, "new.py\n```python\ndef f(:\n```\n");
  assert.equal(created.kind, "edits");
  const text = await judge("notes.txt", "a (\n", block("notes.txt", "a (\n", "a ((\n"));
  assert.equal(text.kind, "edits");
  assert.equal(await syntaxErrorLines("notes.txt", "x"), null);
});
