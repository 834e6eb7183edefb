/**
 * Reply reading that no other test pinned down (issue 35's survivors, scripts/mutants.json area
 * "replies"): which file a block is for when the path line is two prose lines up, when a name-only
 * fence is followed by prose, when the fence has no language, and for `.toml`/`.txt` files whose
 * fence names a language of their own; code that shares exactly half its lines with the edits;
 * a fence with attributes (`{`, `=`) inside a block read leniently.
 */
import assert from "node:assert/strict";
import { parseReply } from "../../lib/edit/parse.ts";
import { edits, problem } from "../helpers/parsed.ts";

const F = "```";
const TWO = { knownPaths: ["calc.py", "other.py"] };
const ADD = "def add(a, b):\n    return a + b\n";

/** The path, source and content of the one edit `reply` parses into. */
function one(reply: string, options: { knownPaths: string[] }) {
  const [edit, ...rest] = edits(parseReply(reply, options));
  assert.deepEqual(rest, []);
  return [edit.path, edit.source, edit.type === "whole" ? edit.content : edit.type];
}

Deno.test("which file: a path line two prose lines above the block names it", () => {
  assert.deepEqual(one(`other.py\nHere is the fix:\n${F}python\n${ADD}${F}\n`, TWO), [
    "other.py",
    "path-line",
    ADD,
  ]);
  // A third line of prose is too far: the block names no file.
  assert.match(
    problem(parseReply(`other.py\nHere is the fix.\nIt adds.\n${F}python\n${ADD}${F}\n`, TWO)),
    /none names its file/,
  );
});

Deno.test("which file: a name-only fence followed by prose labels nothing; the prose decides", () => {
  const reply = `${F}\ncalc.py\n${F}\nNow \`other.py\`:\n${F}python\n${ADD}${F}\n`;
  assert.deepEqual(one(reply, TWO), ["other.py", "ticked", ADD]);
});

Deno.test("which file: a fence with no language takes the file the prose mentions", () => {
  assert.deepEqual(one(`Update \`calc.py\`:\n${F}\n${ADD}${F}\n`, TWO), ["calc.py", "ticked", ADD]);
  assert.deepEqual(one(`Update calc.py like this:\n${F}\n${ADD}${F}\n`, TWO), [
    "calc.py",
    "plain",
    ADD,
  ]);
});

Deno.test("which file: a mentioned .toml or .txt file fits a fence in its own language", () => {
  const toml = '[project]\nname = "calc"\n';
  assert.deepEqual(
    one(`Update \`pyproject.toml\`:\n${F}toml\n${toml}${F}\n`, {
      knownPaths: ["pyproject.toml", "calc.py"],
    }),
    ["pyproject.toml", "ticked", toml],
  );
  const cmake = "project(calc C)\nadd_executable(calc calc.c)\n";
  assert.deepEqual(
    one(`In CMakeLists.txt:\n${F}cmake\n${cmake}${F}\n`, {
      knownPaths: ["CMakeLists.txt", "calc.c"],
    }),
    ["CMakeLists.txt", "plain", cmake],
  );
});

Deno.test("competing code: sharing exactly half its lines with the edits competes, under half not", () => {
  const file = `import math\nRATE = 2\n\n\n${ADD}`;
  const edit = `calc.py\n${F}python\n${file}${F}\nThen use it:\n`;
  const half =
    `${edit}${F}python\nimport math\nRATE = 2\nprint(add(1, 2))\nprint(add(3, 4))\n${F}\n`;
  assert.match(problem(parseReply(half, TWO)), /code that names no file at line 11/);
  const under =
    `${edit}${F}python\nimport math\nRATE = 2\nprint(add(1, 2))\nprint(add(3, 4))\nprint(RATE)\n${F}\n`;
  assert.deepEqual(one(under, TWO), ["calc.py", "path-line", file]);
});

Deno.test("fences read leniently: one with attributes ({, =) inside a block opens, never closes", () => {
  // The closing fence has a sentence glued to it, so the lenient reading is taken; the example's
  // fence (`{title="use.js"}`) is code, not a sentence glued to a closing fence.
  const readme = `# Calc\n\n${F}js {title="use.js"} example\nconst total = add(1, 2);\n${F}\n`;
  const reply = `README.md\n${F}markdown\n${readme}${F}That is the whole file.\n`;
  assert.deepEqual(one(reply, { knownPaths: ["README.md"] }), ["README.md", "path-line", readme]);
});
