/**
 * The reply shapes of issue 8 one by one (the real corpus holds verbatim replies local models wrote
 * in each shape; see scripts/bench_replies.ts), the destructive-edit guard's threshold, and
 * re-indentation.
 */
import assert from "node:assert/strict";
import { applyEdits } from "../../lib/edit/apply.ts";
import { chooseFence, formatInstructions } from "../../lib/edit/format.ts";
import { deletionAllowance, GUARD_MIN_LINES, GUARD_SHARE } from "../../lib/edit/guard.ts";
import { tabsForSpaces } from "../../lib/edit/indent.ts";
import { parseReply } from "../../lib/edit/parse.ts";
import type { Edit } from "../../lib/edit/types.ts";
import { edits, problem } from "../helpers/parsed.ts";

const CODE = "def add(a, b):\n    return a + b\n";

function whole(path: string, content: string): Edit[] {
  return [{ type: "whole", path, content }];
}

Deno.test("a file name alone in its own fence is the path of the next block, never a file", () => {
  for (const info of ["plaintext", "python", ""]) {
    const reply =
      `Here is the file:\n\n\`\`\`${info}\ncalc.py\n\`\`\`\n\`\`\`python\n${CODE}\`\`\`\n`;
    const got = edits(parseReply(reply, { knownPaths: ["calc.py"] }));
    assert.deepEqual(got.map((e) => [e.path, e.type === "whole" && e.content]), [
      ["calc.py", CODE],
    ]);
  }
  // One line of code that is not a path stays a one-line file.
  const one = edits(parseReply("VERSION\n```\n1.2.3\n```\n", { knownPaths: ["VERSION"] }));
  assert.equal(one[0].type === "whole" && one[0].content, "1.2.3\n");
  // A path line before it makes the fence a real one-line file, not a label.
  const real = edits(
    parseReply("list.txt\n```\ncalc.py\n```\n```python\nx = 1\n```\n", {
      knownPaths: ["list.txt"],
    }),
  );
  assert.equal(real[0].path, "list.txt");
  assert.equal(real[0].type === "whole" && real[0].content, "calc.py\n");
});

Deno.test("fences nest: language-tagged inner fences, and ``` inside ````", () => {
  const md = "# Tool\n\n```bash\npip install tool\n```\n\nDone.\n";
  const three = edits(
    parseReply(`README.md\n\`\`\`\n${md}\`\`\`\n`, { knownPaths: ["README.md"] }),
  );
  assert.equal(three[0].type === "whole" && three[0].content, md);
  const bare = "# Tool\n\n```\ntool run\n```\n";
  const four = edits(
    parseReply(`README.md\n\`\`\`\`markdown\n${bare}\`\`\`\`\n`, { knownPaths: ["README.md"] }),
  );
  assert.equal(four[0].type === "whole" && four[0].content, bare);
});

Deno.test("a Markdown file whose end is ambiguous is refused with the four-backtick shape", () => {
  const reply = "README.md\n```\n# App\n\n## Layout\n\n```\nsrc/\n```\n\nRun it.\n```\n";
  const parsed = parseReply(reply, { knownPaths: ["README.md"], fence: "````" });
  const result = applyEdits(new Map([["README.md", "# App\n"]]), edits(parsed), {
    allowed: ["README.md"],
  });
  assert.ok(!result.ok);
  assert.match(result.error, /"README\.md" holds fences of its own/);
  assert.match(result.error, /README\.md\n````\n/);
});

Deno.test("a stray fence at the very end is ignored", () => {
  const got = edits(
    parseReply(`calc.py\n\`\`\`\n${CODE}\`\`\`\n\`\`\`\n`, { knownPaths: ["calc.py"] }),
  );
  assert.equal(got.length, 1);
  const cut = problem(parseReply(`calc.py\n\`\`\`\n${CODE}`, { knownPaths: ["calc.py"] }));
  assert.match(cut, /ends inside the code block/);
});

Deno.test("copies of one file: identical ones count once, the named one beats a preview", () => {
  const same =
    `The fix for \`calc.py\`:\n\`\`\`python\n${CODE}\`\`\`\n\ncalc.py\n\`\`\`\n${CODE}\`\`\`\n`;
  assert.equal(edits(parseReply(same, { knownPaths: ["calc.py"] })).length, 1);
  const preview = "x = 0\n";
  const differ =
    `The old \`calc.py\`:\n\`\`\`python\n${preview}\`\`\`\n\ncalc.py\n\`\`\`\n${CODE}\`\`\`\n`;
  const got = edits(parseReply(differ, { knownPaths: ["calc.py"] }));
  assert.deepEqual(got.map((e) => e.type === "whole" && e.content), [CODE]);
  const twice = `calc.py\n\`\`\`\n${preview}\`\`\`\n\ncalc.py\n\`\`\`\n${CODE}\`\`\`\n`;
  assert.match(problem(parseReply(twice, { knownPaths: ["calc.py"] })), /two whole-file blocks/);
});

Deno.test("a path label comment takes the blank line after it along", () => {
  const reply = `Here is \`calc.py\`:\n\`\`\`python\n# calc.py\n\n${CODE}\`\`\`\n`;
  const got = edits(parseReply(reply, { knownPaths: ["calc.py"] }));
  assert.equal(got[0].type === "whole" && got[0].content, CODE);
  const files = new Map([["calc.py", `# calc.py\n\n${CODE.replace("+", "-")}`]]);
  const applied = applyEdits(files, got, { allowed: ["calc.py"] });
  assert.ok(applied.ok);
  assert.equal(applied.files.get("calc.py"), `# calc.py\n\n${CODE}`);
});

Deno.test("a reply that asks for a shown file gets feedback; one that asks for more is a question", () => {
  const shown = problem(parseReply("Please provide the original `calc.py` file.", {
    knownPaths: ["calc.py"],
  }));
  assert.match(shown, /asks for "calc\.py", but its current content is already/);
  assert.match(shown, /calc\.py\n```\n/);
  const other = parseReply("I need more context: could you share `db.py`?", {
    knownPaths: ["calc.py"],
  });
  assert.equal(other.kind, "question");
  const refusal = problem(parseReply("I'm sorry, but I cannot assist with that request.", {
    knownPaths: ["calc.py"],
  }));
  assert.match(refusal, /holds no edits/);
});

Deno.test("code blocks with no path and several files: the feedback shows the shape", () => {
  const message = problem(parseReply("```python\nx = 1\n```\n", { knownPaths: ["a.py", "b.py"] }));
  assert.match(message, /none names its file/);
  assert.match(message, /a\.py\n```\n\(the complete file\)\n```/);
});

Deno.test("the destructive-edit guard: more than half of a file of 4+ lines, or emptying it", () => {
  assert.equal(GUARD_MIN_LINES, 4);
  assert.equal(GUARD_SHARE, 0.5);
  const file = "a = 1\nb = 2\nc = 3\nd = 4\n";
  const files = new Map([["f.py", file]]);
  const opts = { allowed: ["f.py"] };
  // Half removed: applied. More than half: refused, naming what would go.
  assert.ok(applyEdits(files, whole("f.py", "a = 1\nb = 2\nx = 0\n"), opts).ok);
  const most = applyEdits(files, whole("f.py", "a = 1\nx = 0\n"), opts);
  assert.ok(!most.ok);
  assert.equal(!most.ok && most.reason, "destructive");
  assert.match(!most.ok ? most.error : "", /would remove 3 of the 4 lines of "f\.py" \("b = 2"/);
  // A file under 4 lines may be rewritten, but not emptied.
  const small = new Map([["f.py", "a = 1\nb = 2\n"]]);
  assert.ok(applyEdits(small, whole("f.py", "x = 1\ny = 2\n"), opts).ok);
  const block: Edit[] = [{ type: "replace", path: "f.py", search: "a = 1\nb = 2\n", replace: "" }];
  const emptied = applyEdits(small, block, opts);
  assert.match(!emptied.ok ? emptied.error : "", /would leave "f\.py" empty/);
  // The task's words lift the guard: "remove" for most of a file, "empty" for all of it.
  const asked = { ...opts, deletion: deletionAllowance("Remove b, c and d") };
  assert.ok(applyEdits(files, whole("f.py", "a = 1\n"), asked).ok);
  assert.ok(!applyEdits(small, block, asked).ok);
  const empty = { ...opts, deletion: deletionAllowance("Empty the file") };
  assert.ok(applyEdits(small, block, empty).ok);
  // A SEARCH/REPLACE block that rewrites most lines is the narrower edit: never refused.
  const rewrite: Edit[] = [{ type: "replace", path: "f.py", search: file, replace: "z = 9\n" }];
  assert.ok(applyEdits(files, rewrite, opts).ok);
  // A first block whose SEARCH is the whole module and whose REPLACE is empty is refused.
  const wipe: Edit[] = [{ type: "replace", path: "f.py", search: file, replace: "" }];
  assert.match(
    (() => {
      const r = applyEdits(files, wipe, opts);
      return r.ok ? "" : r.error;
    })(),
    /would leave "f\.py" empty/,
  );
});

Deno.test("a task that asks to replace a file's text allows a rewrite that removes most of it", () => {
  assert.equal(
    deletionAllowance("Replace the text of sample.txt with `Updated content`.").most,
    true,
  );
  assert.equal(deletionAllowance("Replace the contents of a.txt with x").most, true);
  assert.equal(deletionAllowance("Replace the loop with a map").most, false);
});

Deno.test("a tab-indented file answered with spaces is written with tabs", () => {
  const go = "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n";
  const reply = "package calc\n\nfunc Add(a, b int) int {\n    return a + b\n}\n";
  const applied = applyEdits(new Map([["calc.go", go]]), whole("calc.go", reply), {
    allowed: ["calc.go"],
  });
  assert.ok(applied.ok);
  assert.equal(applied.files.get("calc.go"), go.replace("a - b", "a + b"));
  assert.match(applied.warnings.join("\n"), /Re-indented/);
  // Mixed or uneven indentation is left as written.
  assert.equal(tabsForSpaces(["  a", "   b"], ["\tx"]), null);
  assert.equal(tabsForSpaces(["    a"], ["    x", "\ty"]), null);
  assert.deepEqual(tabsForSpaces(["if x {", "  y", "    z", "}"], ["\tq"]), [
    "if x {",
    "\ty",
    "\t\tz",
    "}",
  ]);
});

Deno.test("Python `...` under the same header as in the original is code, not an elision", () => {
  const original = [
    "class Shape(Protocol):",
    "    def area(self) -> float:",
    '        """Area."""',
    "        ...",
    "",
  ].join("\n");
  const reply = original.replace('"""Area."""', '"""Area, in square units."""');
  const ok = applyEdits(new Map([["s.py", original]]), whole("s.py", reply), {
    allowed: ["s.py"],
  });
  assert.ok(ok.ok, ok.ok ? "" : ok.error);
  // A real body replaced by a docstring and `...` is still refused.
  const real = original.replace("        ...", "        return 0.0");
  const elided = applyEdits(new Map([["s.py", real]]), whole("s.py", reply), {
    allowed: ["s.py"],
  });
  assert.ok(!elided.ok);
  assert.equal(!elided.ok && elided.reason, "elided");
});

Deno.test("chooseFence picks the shortest backtick fence no shown file starts a line with", () => {
  assert.equal(chooseFence([]), "```");
  assert.equal(chooseFence(["x = 1\n", "s = '```'\n"]), "```");
  assert.equal(chooseFence(["# A\n\n```bash\nls\n```\n"]), "````");
  assert.equal(chooseFence(["a\n   ````\n", "```\n"]), "`````");
  assert.equal(chooseFence(["    ```\n"]), "```");
  assert.match(
    formatInstructions("whole", "````"),
    /opened and closed with ````[\s\S]*````python\n/,
  );
  assert.doesNotMatch(formatInstructions("whole"), /opened and closed/);
});

Deno.test("identical edits under two path lines count once, whole files and SEARCH blocks alike", () => {
  const twice = `calc.py\n\`\`\`python\n${CODE}\`\`\`\n\ncalc.py\n\`\`\`python\n${CODE}\`\`\`\n`;
  const got = parseReply(twice, { knownPaths: ["calc.py"] });
  assert.deepEqual(edits(got).map((e) => e.line), [2]);
  assert.match(got.kind === "edits" ? got.warnings.join("\n") : "", /repeats an earlier one/);
  const block = "calc.py\n```python\n<<<<<<< SEARCH\n    return a + b\n=======\n" +
    "    return a - b\n>>>>>>> REPLACE\n```\n";
  assert.deepEqual(
    edits(parseReply(`${block}\n${block}`, { knownPaths: ["calc.py"] })).map((e) => e.line),
    [3],
  );
});

Deno.test("a shell or console block is never a file's content, even right under its path line", () => {
  const known = ["notes.txt", "calc.py"];
  // A mention: the command block is not notes.txt, whatever its extension.
  const mention = "Run this to check `notes.txt`:\n```bash\ncat notes.txt\n```\n";
  assert.match(problem(parseReply(mention, { knownPaths: known })), /only command or output/);
  // A path line over a bash block: only a script may be written from it.
  const pathLine = "calc.py\n```bash\npython calc.py\n```\n";
  assert.match(problem(parseReply(pathLine, { knownPaths: known })), /only command or output/);
  const script = edits(parseReply("run.sh\n```bash\necho hi\n```\n", { knownPaths: ["run.sh"] }));
  assert.deepEqual(script.map((e) => [e.path, e.type === "whole" && e.content]), [
    ["run.sh", "echo hi\n"],
  ]);
});

Deno.test("fences follow CommonMark: four spaces in is content, a shorter fence does not close", () => {
  // A docstring's example fence, indented four spaces, stays in the file.
  const doc = 'def f():\n    """Example:\n    ```\n    f()\n    ```\n    """\n    return 1\n';
  const got = edits(
    parseReply(`calc.py\n\`\`\`python\n${doc}\`\`\`\n`, { knownPaths: ["calc.py"] }),
  );
  assert.deepEqual(got.map((e) => e.type === "whole" && e.content), [doc]);
  // A reply wrapped in ```` holds a ``` line: that does not close the wrapper, ```` does.
  const search = "calc.py\n<<<<<<< SEARCH\n    return a + b\n=======\n    return a - b\n" +
    ">>>>>>> REPLACE\n";
  const wrapped = parseReply(`\`\`\`\`\n${search}\`\`\`\n\`\`\`\`\n`, { knownPaths: ["calc.py"] });
  assert.equal(edits(wrapped).length, 1);
  assert.deepEqual(wrapped.kind === "edits" && wrapped.warnings, []);
});
