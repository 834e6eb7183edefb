import assert from "node:assert/strict";
import { parseReply } from "../../lib/edit/parse.ts";
import { looksLikePath, normalizePath, resolvePath } from "../../lib/edit/path_line.ts";
import type { ParseResult } from "../../lib/edit/types.ts";
import { edits, problem } from "../helpers/parsed.ts";

const BLOCK = [
  "<<<<<<< SEARCH",
  "def add(a, b):",
  "    return a - b",
  "=======",
  "def add(a, b):",
  "    return a + b",
  ">>>>>>> REPLACE",
].join("\n");
const SEARCH = "def add(a, b):\n    return a - b\n";
const REPLACE = "def add(a, b):\n    return a + b\n";

function warnings(result: ParseResult): string[] {
  return result.kind === "edits" ? result.warnings : [];
}

const KNOWN = { knownPaths: ["calc.py", "other.py"] };

Deno.test("parseReply reads a block after each path-line variant", () => {
  const variants = [
    "calc.py",
    "calc.py:",
    "### calc.py",
    "**calc.py**",
    "`calc.py`",
    "File: calc.py",
    "**File:** `calc.py`",
    "# calc.py",
    "// calc.py",
    "calc.py (modified)",
    "- calc.py",
  ];
  for (const line of variants) {
    const [edit] = edits(parseReply(`${line}\n${BLOCK}\n`, KNOWN));
    assert.deepEqual(
      edit,
      {
        type: "replace",
        path: "calc.py",
        search: SEARCH,
        replace: REPLACE,
        line: 2,
        source: "path-line",
      },
      line,
    );
  }
});

Deno.test("parseReply accepts blocks with or without fences", () => {
  for (
    const [open, close] of [["```python", "```"], ["```", "```"], ["~~~py", "~~~"], [
      "````",
      "````",
    ]]
  ) {
    const reply = `Here you go.\n\ncalc.py\n${open}\n${BLOCK}\n${close}\n\nDone.`;
    assert.equal(edits(parseReply(reply, KNOWN))[0].path, "calc.py", open);
  }
});

Deno.test("parseReply takes the path from the fence's first line or its info string", () => {
  const inFence = parseReply(`\`\`\`python\n# calc.py\n${BLOCK}\n\`\`\``, KNOWN);
  assert.equal(edits(inFence)[0].path, "calc.py");
  const tsComment = parseReply(`\`\`\`ts\n// src/a.ts\n${BLOCK}\n\`\`\``, {
    knownPaths: ["src/a.ts"],
  });
  assert.equal(edits(tsComment)[0].path, "src/a.ts");
  const info = parseReply(`\`\`\`python calc.py\n${BLOCK}\n\`\`\``, KNOWN);
  assert.equal(edits(info)[0].path, "calc.py");
  const infoColon = parseReply(`\`\`\`python:other.py\n${BLOCK}\n\`\`\``, KNOWN);
  assert.equal(edits(infoColon)[0].path, "other.py");
});

Deno.test("parseReply takes the path from a sentence that names one file", () => {
  const ticked = parseReply(
    `1. In \`other.py\`, change this:\n\`\`\`python\n${BLOCK}\n\`\`\``,
    KNOWN,
  );
  assert.equal(edits(ticked)[0].path, "other.py");
  const plain = parseReply(`Here is the updated code for calc.py:\n${BLOCK}`, KNOWN);
  assert.equal(edits(plain)[0].path, "calc.py");
  const both = parseReply(`Edit calc.py, not other.py:\n${BLOCK}`, KNOWN);
  assert.match(problem(both), /could be for "calc.py" and "other.py"/);
});

Deno.test("parseReply tolerates 5 to 9 marker characters and trailing spaces", () => {
  for (const n of [5, 7, 9]) {
    const reply = `calc.py\n${"<".repeat(n)} SEARCH  \nx\n${"=".repeat(n)}\t\ny\n${
      ">".repeat(n)
    } REPLACE \n`;
    assert.deepEqual(edits(parseReply(reply, KNOWN))[0], {
      type: "replace",
      path: "calc.py",
      search: "x\n",
      replace: "y\n",
      line: 2,
      source: "path-line",
    });
  }
  for (const n of [3, 4, 10]) {
    const reply = `calc.py\n${"<".repeat(n)} SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n`;
    assert.match(problem(parseReply(reply, KNOWN)), /not a valid marker/, String(n));
  }
});

Deno.test("parseReply accepts ORIGINAL/UPDATED markers", () => {
  const reply = "calc.py\n<<<<<<< ORIGINAL\nx\n=======\ny\n>>>>>>> UPDATED\n";
  assert.equal(edits(parseReply(reply, KNOWN))[0].type, "replace");
});

Deno.test("parseReply reads several blocks and several files in order", () => {
  const reply = [
    "calc.py",
    BLOCK,
    "",
    "<<<<<<< SEARCH",
    "a",
    "=======",
    "b",
    ">>>>>>> REPLACE",
    "",
    "other.py",
    "```",
    "<<<<<<< SEARCH",
    "c",
    "=======",
    "d",
    ">>>>>>> REPLACE",
    "```",
  ].join("\n");
  const got = edits(parseReply(reply, KNOWN));
  assert.deepEqual(got.map((e) => e.path), ["calc.py", "calc.py", "other.py"]);
  assert.deepEqual(got.map((e) => e.type === "replace" && e.search), [SEARCH, "a\n", "c\n"]);
});

Deno.test("parseReply keeps an empty SEARCH part empty (file creation)", () => {
  const reply = "new.py\n<<<<<<< SEARCH\n=======\nprint(1)\n>>>>>>> REPLACE\n";
  const [edit] = edits(parseReply(reply, { knownPaths: ["new.py"] }));
  assert.deepEqual(edit, {
    type: "replace",
    path: "new.py",
    search: "",
    replace: "print(1)\n",
    line: 2,
    source: "path-line",
  });
  const blank = "new.py\n<<<<<<< SEARCH\n\n=======\nprint(1)\n>>>>>>> REPLACE\n";
  assert.equal(
    (edits(parseReply(blank, { knownPaths: ["new.py"] }))[0] as { search: string }).search,
    "",
  );
});

Deno.test("parseReply ignores reasoning in think tags", () => {
  const draft = `<think>\nmaybe:\nother.py\n${BLOCK}\n</think>\ncalc.py\n${BLOCK}`;
  assert.deepEqual(edits(parseReply(draft, KNOWN)).map((e) => e.path), ["calc.py"]);
  const thinking = `<thinking>QUESTION: why?</thinking>\ncalc.py\n${BLOCK}`;
  assert.equal(edits(parseReply(thinking, KNOWN)).length, 1);
  const loneClose = `reasoning\nother.py\n<<<<<<< SEARCH\n</think>\ncalc.py\n${BLOCK}`;
  assert.deepEqual(edits(parseReply(loneClose, KNOWN)).map((e) => e.path), ["calc.py"]);
});

Deno.test("parseReply drops an unclosed think tag at the start and warns", () => {
  const result = parseReply(`<think>\nI will fix add.\n\ncalc.py\n${BLOCK}`, KNOWN);
  assert.equal(edits(result).length, 1);
  assert.match(warnings(result).join(), /never closed/);
  assert.match(problem(parseReply("<think>\nstill thinking about", KNOWN)), /never closed/);
});

Deno.test("parseReply reads a path and one fenced block as the whole file", () => {
  const reply = "calc.py\n```python\ndef add(a, b):\n    return a + b\n\n\n```\n";
  assert.deepEqual(edits(parseReply(reply, KNOWN)), [
    { type: "whole", path: "calc.py", content: REPLACE, line: 2, source: "path-line" },
  ]);
});

Deno.test("parseReply takes a path comment off the top of a whole-file block", () => {
  const reply = "```python\n# calc.py\ndef add(a, b):\n    return a + b\n```\n";
  const [edit] = edits(parseReply(reply, KNOWN));
  assert.deepEqual(edit, {
    type: "whole",
    path: "calc.py",
    content: REPLACE,
    line: 1,
    header: "# calc.py",
    source: "first-line",
  });
  // A path line and a first-line comment that name different files are a tie.
  const other = "calc.py\n```python\n# other.py\nx = 1\n```\n";
  assert.match(problem(parseReply(other, KNOWN)), /could be for "calc.py" and "other.py"/);
  const same = "calc.py\n```python\n# calc.py\nx = 1\n```\n";
  assert.equal(edits(parseReply(same, KNOWN))[0].source, "path-line");
});

Deno.test("parseReply marks a whole file named only in a sentence with its weak source", () => {
  const reply = "Here is the complete `calc.py`:\n```python\nx = 1\n```\n";
  const [edit] = edits(parseReply(reply, KNOWN));
  assert.equal(edit.source, "ticked");
});

Deno.test("parseReply gives a pathless block to the only file to edit, with a warning", () => {
  const result = parseReply(`Fix:\n${BLOCK}`, { knownPaths: ["calc.py"] });
  assert.equal(edits(result)[0].path, "calc.py");
  assert.match(warnings(result).join(), /names no file/);
  const code = parseReply("```python\nx = 1\n```", { knownPaths: ["calc.py"] });
  const [whole] = edits(code);
  assert.equal(whole.source, "only");
  assert.match(problem(parseReply(`Fix:\n${BLOCK}`, KNOWN)), /no file path/);
  assert.match(problem(parseReply("```python\nx = 1\n```", KNOWN)), /none names its file/);
});

Deno.test("parseReply does not take a shell or foreign-language block as the only file", () => {
  const shell = parseReply("Run:\n```bash\npytest\n```", { knownPaths: ["calc.py"] });
  assert.match(problem(shell), /no edits|none names/);
  const js = parseReply("```javascript\nlet x = 1\n```", { knownPaths: ["calc.py"] });
  assert.equal(js.kind, "invalid");
});

Deno.test("parseReply gives later pathless blocks the previous block's path", () => {
  const second = BLOCK.replace("return a - b", "return a * b");
  const reply = `other.py\n${BLOCK}\n\n${second}`;
  const got = edits(parseReply(reply, KNOWN));
  assert.deepEqual(got.map((e) => [e.path, e.source]), [
    ["other.py", "path-line"],
    ["other.py", "previous"],
  ]);
});

Deno.test("parseReply ignores pathless example blocks next to edits, with a warning", () => {
  const result = parseReply(`calc.py\n${BLOCK}\n\nTry:\n\`\`\`python\nadd(1, 2)\n\`\`\``, KNOWN);
  assert.equal(edits(result).length, 1);
  assert.match(warnings(result).join(), /Ignored 1 code block/);
});

Deno.test("parseReply reads a question when the first line starts with QUESTION:", () => {
  assert.deepEqual(parseReply("\n\nQUESTION: Which module?\nMore detail.", KNOWN), {
    kind: "question",
    question: "Which module?\nMore detail.",
  });
  assert.deepEqual(parseReply("**QUESTION:** Strings too?", KNOWN), {
    kind: "question",
    question: "Strings too?",
  });
  assert.deepEqual(parseReply("<think>hm</think>\nquestion: ok?", KNOWN), {
    kind: "question",
    question: "ok?",
  });
  assert.match(problem(parseReply("Unsure.\nQUESTION: ok?", KNOWN)), /start with QUESTION:/);
});

Deno.test("parseReply: a reply that starts with QUESTION: asks, its edits wait for the answer", () => {
  // probe.conditional_question_with_edit: "If returning 0 is what you want, this is the change".
  const result = parseReply(`QUESTION: raise or return 0? If 0:\ncalc.py\n${BLOCK}`, KNOWN);
  assert.equal(result.kind, "question");
});

Deno.test("parseReply reads the final channel of a Harmony reply, never its analysis", () => {
  const draft =
    "calc.py\n<<<<<<< SEARCH\ndef sub(a, b):\n=======\ndef sub(b, a):\n>>>>>>> REPLACE\n";
  const reply = `<|channel|>analysis<|message|>Draft:\n\n${draft}\nNo.<|end|>` +
    `<|start|>assistant<|channel|>final<|message|>calc.py\n${BLOCK}`;
  const result = parseReply(reply, KNOWN);
  assert.equal(edits(result).length, 1);
  assert.doesNotMatch(JSON.stringify(edits(result)), /sub\(b, a\)/);
  const only = parseReply(`<|channel|>analysis<|message|>${draft}<|end|>`, KNOWN);
  assert.notEqual(only.kind, "edits");
});

Deno.test("parseReply refuses a copy sent 'for reference' by a reply that says nothing changes", () => {
  const reply = "No changes are needed: add already works. For reference:\n\ncalc.py\n" +
    "```python\ndef add(a, b):\n    return a + b\n```\n";
  assert.match(problem(parseReply(reply, KNOWN)), /says no change is needed/);
});

Deno.test("parseReply reads CRLF replies as LF", () => {
  const reply = `calc.py\r\n\`\`\`python\r\n${BLOCK.replaceAll("\n", "\r\n")}\r\n\`\`\`\r\n`;
  const [edit] = edits(parseReply(reply, KNOWN));
  assert.deepEqual(edit, {
    type: "replace",
    path: "calc.py",
    search: SEARCH,
    replace: REPLACE,
    line: 3,
    source: "path-line",
  });
});

Deno.test("parseReply normalises paths and maps them onto the files to edit", () => {
  const known = { knownPaths: ["src/calc.py"] };
  for (
    const written of [
      "./src/calc.py",
      "src\\calc.py",
      "/src/calc.py",
      "calc.py",
      "proj/src/calc.py",
    ]
  ) {
    assert.equal(edits(parseReply(`${written}\n${BLOCK}`, known))[0].path, "src/calc.py", written);
  }
  assert.equal(edits(parseReply(`tests/calc.py\n${BLOCK}`, KNOWN))[0].path, "tests/calc.py");
});

Deno.test("parseReply names a truncated block or fence", () => {
  assert.match(
    problem(parseReply("calc.py\n<<<<<<< SEARCH\ndef add(a, b):", KNOWN)),
    /SEARCH part.*cut off/,
  );
  assert.match(
    problem(parseReply("calc.py\n<<<<<<< SEARCH\na\n=======\nb", KNOWN)),
    /REPLACE part.*cut off/,
  );
  assert.match(
    problem(parseReply("calc.py\n```python\nx = 1\n", KNOWN)),
    /no closing fence.*cut off/,
  );
  assert.match(problem(parseReply(`calc.py\n\`\`\`\n${BLOCK}\n`, KNOWN)), /fence opened at line 2/);
});

Deno.test("parseReply refuses markers out of place", () => {
  assert.match(problem(parseReply("calc.py\na\n=======\nb\n>>>>>>> REPLACE", KNOWN)), /stray/);
  assert.match(
    problem(parseReply("calc.py\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE", KNOWN)),
    /divider/,
  );
  assert.match(
    problem(
      parseReply(
        "calc.py\n<<<<<<< SEARCH\na\n<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE",
        KNOWN,
      ),
    ),
    /no "=======" divider before the marker at line 4/,
  );
  assert.match(
    problem(
      parseReply("calc.py\n<<<<<<< SEARCH\na\n=======\nb\n=======\nc\n>>>>>>> REPLACE", KNOWN),
    ),
    /no ">>>>>>> REPLACE" marker before the marker at line 6/,
  );
  assert.match(
    problem(parseReply("calc.py\n```python\nx = 1\n>>>>>>> REPLACE\n```", KNOWN)),
    /holds a ">>>>>>> REPLACE" marker/,
  );
});

Deno.test("parseReply ignores a doubled REPLACE marker right after a block", () => {
  const result = parseReply(`calc.py\n${BLOCK}\n>>>>>>> REPLACE\n`, KNOWN);
  assert.equal(edits(result).length, 1);
  assert.match(warnings(result).join(), /stray marker/);
});

Deno.test("parseReply refuses unified diffs", () => {
  const diff = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n-x\n+y\n";
  assert.match(problem(parseReply(diff, KNOWN)), /unified diff/);
  assert.match(problem(parseReply(`calc.py\n\`\`\`diff\n${diff}\`\`\``, KNOWN)), /unified diff/);
  assert.match(problem(parseReply(`calc.py\n\`\`\`\n${diff}\`\`\``, KNOWN)), /unified diff/);
});

Deno.test("parseReply takes code fences out of SEARCH and REPLACE parts, except in Markdown", () => {
  const block = "<<<<<<< SEARCH\n```python\na\n```\n=======\n```python\nb\n```\n>>>>>>> REPLACE";
  const result = parseReply(`calc.py\n${block}`, KNOWN);
  assert.deepEqual(edits(result)[0], {
    type: "replace",
    path: "calc.py",
    search: "a\n",
    replace: "b\n",
    line: 2,
    source: "path-line",
    written: { search: "```python\na\n```\n", replace: "```python\nb\n```\n" },
  });
  assert.match(warnings(result).join(), /code fences/);
  const md = edits(parseReply(`README.md\n${block}`, { knownPaths: ["README.md"] }))[0];
  assert.equal(md.type === "replace" && md.search, "```python\na\n```\n");
});

Deno.test("parseReply keeps nested fences inside a whole Markdown file", () => {
  const content = "# T\n\n```bash\nrun\n```\n\nend\n";
  const [edit] = edits(
    parseReply(`README.md\n\`\`\`markdown\n${content}\`\`\`\n`, { knownPaths: ["README.md"] }),
  );
  assert.equal(edit.type === "whole" && edit.content, content);
});

Deno.test("parseReply refuses two whole-file blocks for one file", () => {
  const reply = "calc.py\n```\na\n```\n\ncalc.py\n```\nb\n```\n";
  assert.match(problem(parseReply(reply, KNOWN)), /two whole-file blocks for "calc.py"/);
});

Deno.test("parseReply says what to do when a reply holds no edits", () => {
  const message = problem(parseReply("The fix is to use a plus sign.", KNOWN));
  assert.match(message, /no edits/);
  assert.match(message, /QUESTION:/);
  assert.match(problem(parseReply("", KNOWN)), /no edits/);
});

Deno.test("looksLikePath tells paths from code and prose", () => {
  for (const p of ["calc.py", "src/a.ts", "Makefile", ".gitignore", "a/b/c.weird", "docs/x.md"]) {
    assert.ok(looksLikePath(p), p);
  }
  for (
    const p of [
      "self.value",
      "e.g.",
      "...",
      "1.2.3",
      "Here is the fix:",
      "os.path",
      "return x",
      "a/b",
    ]
  ) {
    assert.ok(!looksLikePath(p), p);
  }
});

Deno.test("normalizePath and resolvePath normalise written paths", () => {
  assert.equal(normalizePath("./a//b/../c.py"), "a/c.py");
  assert.equal(normalizePath("a\\b.py"), "a/b.py");
  assert.equal(resolvePath("calc.py", ["src/calc.py", "lib/calc.py"]), "calc.py");
  assert.equal(resolvePath("x/src/calc.py", ["src/calc.py"]), "src/calc.py");
  assert.equal(resolvePath("tests/calc.py", ["calc.py"]), "tests/calc.py");
});

Deno.test("parseReply takes a closing fence off a REPLACE part and accepts the fence as closed", () => {
  const reply = "calc.py\n```python\n<<<<<<< SEARCH\na\n=======\nb\n```\n>>>>>>> REPLACE\n";
  const result = parseReply(reply, KNOWN);
  assert.deepEqual(edits(result)[0], {
    type: "replace",
    path: "calc.py",
    search: "a\n",
    replace: "b\n",
    line: 3,
    source: "path-line",
  });
});

Deno.test("parseReply reads 'New file: path' labels", () => {
  const reply = "New file: `stats.py`\n<<<<<<< SEARCH\n=======\nx = 1\n>>>>>>> REPLACE\n";
  assert.equal(
    edits(parseReply(reply, { knownPaths: ["stats.py", "calc.py"] }))[0].path,
    "stats.py",
  );
});

Deno.test("parseReply keeps a question with a pathless example a question", () => {
  const reply =
    "QUESTION: Should it look like this?\n```python\ndef add(a, b):\n    return a + b\n```\n";
  const result = parseReply(reply, { knownPaths: ["calc.py"] });
  assert.equal(result.kind, "question");
  assert.match(result.kind === "question" ? result.question : "", /def add/);
});

Deno.test('parseReply reads a path given as an info-string attribute (title="calc.py")', () => {
  const reply = '```python title="calc.py"\ndef add(a, b):\n    return a + b\n```\n';
  const [edit] = edits(parseReply(reply, KNOWN));
  assert.deepEqual([edit.path, edit.source], ["calc.py", "info"]);
});

Deno.test("parseReply keeps a run of = other than the divider's seven in a REPLACE part", () => {
  const reply =
    "README.rst\n<<<<<<< SEARCH\nTool\n====\n=======\nWordTool\n=========\n>>>>>>> REPLACE\n";
  const [edit] = edits(parseReply(reply, { knownPaths: ["README.rst"] }));
  assert.equal(edit.type === "replace" && edit.replace, "WordTool\n=========\n");
  const seven = reply.replace("=========\n>>>", "=======\n>>>");
  assert.match(problem(parseReply(seven, { knownPaths: ["README.rst"] })), /REPLACE/);
});

Deno.test("parseReply: a name-only fence after a bold path of the same file is a label", () => {
  // logs-c sc.gpt4omini_modal_css_name_fence: **modal.css**, then a fence holding modal.css.
  const reply =
    "**calc.py**\n```\ncalc.py\n```\n```python\ndef add(a, b):\n    return a + b\n```\n";
  const out = edits(parseReply(reply, KNOWN));
  assert.equal(out.length, 1);
  assert.equal(out[0].type === "whole" && out[0].content, "def add(a, b):\n    return a + b\n");
});

Deno.test("parseReply refuses a reply that says it also made a change nobody asked for", () => {
  const reply = `calc.py\n${BLOCK}\nWhile I was at it I also fixed other.py:\n\nother.py\n${BLOCK}`;
  assert.match(problem(parseReply(reply, KNOWN)), /also makes a change the task does not ask/);
  assert.equal(
    edits(parseReply(`calc.py\n${BLOCK}\nI also updated the docstring.\n`, KNOWN)).length,
    1,
  );
});

Deno.test("parseReply: a QUESTION: line between edits asks; the edits wait for the answer", () => {
  const reply = `calc.py\n${BLOCK}\nQUESTION: should sub() change too? I assumed yes below.\n\n` +
    `other.py\n${BLOCK}`;
  assert.equal(parseReply(reply, KNOWN).kind, "question");
});
