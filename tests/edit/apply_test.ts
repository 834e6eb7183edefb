import assert from "node:assert/strict";
import { applyEdits, type ApplyOptions } from "../../lib/edit/apply.ts";
import { findElision } from "../../lib/edit/elision.ts";
import { chooseReplyFormat, formatInstructions, isSmallFile } from "../../lib/edit/format.ts";
import { fromLines, toLines } from "../../lib/edit/lines.ts";
import { findMatches, nearestLines } from "../../lib/edit/match.ts";
import { parseReply } from "../../lib/edit/parse.ts";
import type { ApplyResult, Edit } from "../../lib/edit/types.ts";

const CALC = [
  "def add(a, b):",
  "    return a - b",
  "",
  "",
  "def sub(a, b):",
  "    return a - b",
  "",
  "",
  "class Calc:",
  "    def total(self):",
  "        return sum(self.items)",
  "",
].join("\n");

function replace(path: string, search: string, replacement: string): Edit {
  return { type: "replace", path, search, replace: replacement };
}

function whole(path: string, content: string, extra: Partial<Edit> = {}): Edit {
  return { type: "whole", path, content, ...extra } as Edit;
}

function apply(
  files: Record<string, string | null>,
  edits: Edit[],
  options: Partial<ApplyOptions> = {},
): ApplyResult {
  return applyEdits(new Map(Object.entries(files)), edits, {
    allowed: Object.keys(files),
    ...options,
  });
}

function content(result: ApplyResult, path: string): string | undefined {
  assert.ok(result.ok, result.ok ? "" : result.error);
  return result.ok ? result.files.get(path) : undefined;
}

function failure(result: ApplyResult): { error: string; reason: string } {
  assert.ok(!result.ok, "expected a refusal");
  return result.ok ? { error: "", reason: "" } : result;
}

Deno.test("applyEdits replaces an exact match and lists the changed file", () => {
  const result = apply({ "calc.py": CALC }, [
    replace("calc.py", "def add(a, b):\n    return a - b\n", "def add(a, b):\n    return a + b\n"),
  ]);
  assert.equal(content(result, "calc.py"), CALC.replace("a - b", "a + b"));
  assert.deepEqual(result.ok && result.changed, ["calc.py"]);
});

Deno.test("applyEdits matches despite trailing whitespace", () => {
  const result = apply({ "calc.py": CALC }, [
    replace(
      "calc.py",
      "def add(a, b):  \n    return a - b \n",
      "def add(a, b):\n    return a + b\n",
    ),
  ]);
  assert.equal(content(result, "calc.py"), CALC.replace("a - b", "a + b"));
  assert.match(result.ok ? result.warnings.join() : "", /trailing whitespace/);
});

Deno.test("applyEdits matches despite blank-line differences", () => {
  const search = "    return a - b\ndef sub(a, b):\n";
  const result = apply({ "calc.py": CALC }, [
    replace("calc.py", `\n${search}\n`, "    return a + b\n\n\ndef sub(a, b):\n"),
  ]);
  assert.equal(content(result, "calc.py"), CALC.replace("a - b", "a + b"));
});

Deno.test("applyEdits shifts REPLACE by the indentation the match needed", () => {
  const under = apply({ "calc.py": CALC }, [
    replace(
      "calc.py",
      "def total(self):\n    return sum(self.items)\n",
      "def total(self):\n    if not self.items:\n        return 0\n    return sum(self.items)\n",
    ),
  ]);
  assert.equal(
    content(under, "calc.py"),
    CALC.replace(
      "        return sum(self.items)",
      "        if not self.items:\n            return 0\n        return sum(self.items)",
    ),
  );
  const over = apply({ "calc.py": CALC }, [
    replace(
      "calc.py",
      "    def add(a, b):\n        return a - b\n",
      "    def add(a, b):\n\n        return a + b\n",
    ),
  ]);
  assert.equal(content(over, "calc.py"), CALC.replace("    return a - b", "\n    return a + b"));
});

Deno.test("applyEdits prefers an exact match over a looser one", () => {
  const file = "if x:\n    go()\ngo()\n";
  const result = apply({ "a.py": file }, [replace("a.py", "go()\n", "stop()\n")]);
  assert.equal(content(result, "a.py"), "if x:\n    go()\nstop()\n");
});

Deno.test("applyEdits quotes the nearest lines when SEARCH matches nowhere", () => {
  const { error, reason } = failure(
    apply({ "calc.py": CALC }, [replace("calc.py", "def sub(x, y):\n    return x - y\n", "z\n")]),
  );
  assert.equal(reason, "no-match");
  assert.match(error, /block 1 for "calc\.py" matches nothing/);
  assert.ok(error.includes("5| def sub(a, b):\n6|     return a - b"), error);
  assert.match(error, /"def sub\(x, y\):" reads "def sub\(a, b\):" at line 5/);
  assert.doesNotMatch(error, /\.$/);
});

Deno.test("applyEdits says when an edit seems applied already", () => {
  const fixed = CALC.replace("    return a - b", "    return a + b");
  const { error } = failure(
    apply({ "calc.py": fixed }, [
      replace(
        "calc.py",
        "def add(a, b):\n    return a - b\n",
        "def add(a, b):\n    return a + b\n",
      ),
    ]),
  );
  assert.match(error, /applied already/);
});

Deno.test("applyEdits points out tabs when the file indents with them", () => {
  const go = "func f() {\n\treturn 1\n}\n";
  const { error } = failure(
    apply({ "f.go": go }, [replace("f.go", "func f() {\n    return 2\n}\n", "x\n")]),
  );
  assert.match(error, /indents with tabs/);
});

Deno.test("applyEdits matches a block written with spaces in a tab-indented file, and writes tabs", () => {
  const go = "func f() int {\n\tif x {\n\t\treturn 1\n\t}\n\treturn 0\n}\n";
  const block = "    if x {\n        return 1\n    }\n";
  const result = apply({ "f.go": go }, [
    replace("f.go", block, "    if x {\n        return 2\n    }\n"),
  ]);
  assert.ok(result.ok, JSON.stringify(result));
  assert.equal(result.files.get("f.go"), go.replace("return 1", "return 2"));
  assert.match(result.warnings.join(), /tabs written as spaces/);
});

Deno.test("applyEdits refuses a SEARCH part that matches more than once", () => {
  const { error, reason } = failure(
    apply({ "calc.py": CALC }, [replace("calc.py", "    return a - b\n", "x\n")]),
  );
  assert.equal(reason, "ambiguous");
  assert.match(error, /matches 2 places \(lines 2, 6\)/);
});

Deno.test("applyEdits refuses edits to files not allowed and applies nothing", () => {
  const result = apply(
    { "calc.py": CALC, "main.py": "x\n" },
    [replace("calc.py", "def add(a, b):\n", "def plus(a, b):\n"), replace("main.py", "x\n", "y\n")],
    { allowed: ["calc.py"] },
  );
  const { error, reason } = failure(result);
  assert.equal(reason, "not-allowed");
  assert.match(error, /"main\.py" were refused/);
  assert.match(error, /"calc\.py"/);
  assert.match(error, /QUESTION:/);
});

Deno.test("applyEdits is all or nothing and leaves its input alone", () => {
  const files = new Map<string, string | null>([["calc.py", CALC]]);
  const result = applyEdits(files, [
    replace("calc.py", "def add(a, b):\n", "def plus(a, b):\n"),
    replace("calc.py", "no such line\n", "x\n"),
  ], { allowed: ["calc.py"] });
  assert.equal(result.ok, false);
  assert.equal(files.get("calc.py"), CALC);
});

Deno.test("applyEdits applies blocks in order, each on the result of the last", () => {
  const result = apply({ "a.py": "x = 1\n" }, [
    replace("a.py", "x = 1\n", "x = 2\n"),
    replace("a.py", "x = 2\n", "x = 3\n"),
  ]);
  assert.equal(content(result, "a.py"), "x = 3\n");
});

Deno.test("applyEdits creates a missing file from an empty SEARCH part", () => {
  const lf = apply({ "new.py": null }, [replace("new.py", "", "a\nb\n")]);
  assert.equal(content(lf, "new.py"), "a\nb\n");
  assert.deepEqual(lf.ok && lf.changed, ["new.py"]);
  const crlf = apply({ "new.py": null }, [replace("new.py", "", "a\nb\n")], { crlf: true });
  assert.equal(content(crlf, "new.py"), "a\r\nb\r\n");
  const empty = apply({ "e.py": "" }, [replace("e.py", "", "a\n")]);
  assert.equal(content(empty, "e.py"), "a\n");
});

Deno.test("applyEdits refuses an empty SEARCH on a file with content", () => {
  const { reason, error } = failure(apply({ "calc.py": CALC }, [replace("calc.py", "", "x\n")]));
  assert.equal(reason, "not-empty");
  assert.match(error, /empty SEARCH part/);
});

Deno.test("applyEdits refuses a SEARCH in a file that does not exist", () => {
  const { reason, error } = failure(apply({ "new.py": null }, [replace("new.py", "a\n", "b\n")]));
  assert.equal(reason, "missing-file");
  assert.match(error, /does not exist yet/);
});

Deno.test("applyEdits replaces a whole file and refuses it for symbols-only files", () => {
  assert.equal(
    content(apply({ "a.py": "x = 1\n" }, [whole("a.py", "x = 2\n")]), "a.py"),
    "x = 2\n",
  );
  assert.equal(content(apply({ "n.py": null }, [whole("n.py", "x = 2\n")]), "n.py"), "x = 2\n");
  const { reason, error } = failure(
    apply({ "a.py": "x = 1\n" }, [whole("a.py", "x = 2\n")], { symbolsOnly: ["./a.py"] }),
  );
  assert.equal(reason, "symbols-only");
  assert.match(error, /shown only parts/);
});

Deno.test("applyEdits refuses whole-file content that elides code", () => {
  const elided = [
    "...",
    "# ... rest of the file unchanged",
    "# rest unchanged",
    "// existing code",
    "// ... existing code ...",
    "/* ... */",
    "# ... (rest of file)",
    "# other methods unchanged",
    "<!-- ... -->",
    "function f() { ... }",
    "(rest of the file is unchanged)",
  ];
  for (const line of elided) {
    const path = line.startsWith("#") ? "a.py" : "a.ts";
    const result = apply({ [path]: "keep = 1\nmore = 2\n" }, [whole(path, `keep = 1\n${line}\n`)]);
    const { reason, error } = failure(result);
    assert.equal(reason, "elided", line);
    assert.match(error, /leaves code out/);
  }
});

Deno.test("applyEdits keeps legitimate ellipses and comments", () => {
  const stub = "class P(Protocol):\n    def f(self) -> int: ...\n\n    def g(self):\n        ...\n";
  assert.equal(content(apply({ "p.py": null }, [whole("p.py", stub)]), "p.py"), stub);
  const spread = "export function f(...args) {\n  return g(...args);\n}\n";
  assert.equal(content(apply({ "f.js": "" }, [whole("f.js", spread)]), "f.js"), spread);
  const kept = "x = 1\n# rest unchanged\n";
  assert.equal(
    content(apply({ "k.py": kept }, [whole("k.py", "x = 2\n# rest unchanged\n")]), "k.py"),
    "x = 2\n# rest unchanged\n",
  );
  const prose = "Wait...\n\n...\n";
  assert.equal(content(apply({ "n.md": "a\n" }, [whole("n.md", prose)]), "n.md"), prose);
  const comment = "def f(items):\n    # return the list unchanged when empty\n    return items\n";
  assert.equal(content(apply({ "c.py": null }, [whole("c.py", comment)]), "c.py"), comment);
});

Deno.test("applyEdits refuses a Python stub body that replaces a real one", () => {
  const file = "def f():\n    return 1\n";
  for (const body of ["def f():\n    ...\n", "def f(): ...\n"]) {
    assert.equal(failure(apply({ "a.py": file }, [whole("a.py", body)])).reason, "elided", body);
  }
  const stub = "def f():\n    ...\n";
  assert.equal(
    content(apply({ "a.py": stub }, [whole("a.py", "def f():\n    ...\n\nX = 1\n")]), "a.py"),
    "def f():\n    ...\n\nX = 1\n",
  );
});

Deno.test("applyEdits refuses a REPLACE part that elides code", () => {
  const result = apply({ "calc.py": CALC }, [
    replace("calc.py", "class Calc:\n", "class Calc:\n    # ... existing code ...\n"),
  ]);
  assert.equal(failure(result).reason, "elided");
  const kept = apply({ "a.ts": "f({ ... })\n" }, [
    replace("a.ts", "f({ ... })\n", "f({ ... })\ng()\n"),
  ]);
  assert.equal(content(kept, "a.ts"), "f({ ... })\ng()\n");
});

Deno.test("applyEdits refuses a whole-file excerpt of a longer file", () => {
  const long = Array.from({ length: 20 }, (_, i) => `def f${i}():\n    return ${i}\n`).join("\n");
  const { reason, error } = failure(
    apply({ "a.py": long }, [whole("a.py", "def f0():\n    return 9\n")]),
  );
  assert.equal(reason, "partial");
  assert.match(error, /looks like an excerpt/);
});

Deno.test("applyEdits refuses an inferred whole file that drops definitions", () => {
  const result = apply({ "calc.py": CALC }, [
    whole("calc.py", "def add(a, b):\n    return a + b\n", { source: "plain" }),
  ]);
  const { reason, error } = failure(result);
  assert.equal(reason, "partial");
  assert.match(error, /drops "sub", "Calc"/);
  const full = CALC.replace("a - b", "a + b");
  assert.equal(
    content(apply({ "calc.py": CALC }, [whole("calc.py", full, { source: "plain" })]), "calc.py"),
    full,
  );
});

Deno.test("applyEdits puts back a first-line path comment the file really has", () => {
  const file = "# a.py\nx = 1\n";
  const edit = whole("a.py", "x = 2\n", { header: "# a.py" });
  assert.equal(content(apply({ "a.py": file }, [edit]), "a.py"), "# a.py\nx = 2\n");
  assert.equal(content(apply({ "a.py": "x = 1\n" }, [edit]), "a.py"), "x = 2\n");
});

Deno.test("applyEdits keeps CRLF files CRLF when the reply uses LF", () => {
  const crlf = CALC.replaceAll("\n", "\r\n");
  const result = apply({ "calc.py": crlf }, [
    replace(
      "calc.py",
      "def add(a, b):\n    return a - b\n",
      "def add(a, b):\n    # sum\n    return a + b\n",
    ),
  ]);
  assert.equal(
    content(result, "calc.py"),
    crlf.replace("    return a - b", "    # sum\r\n    return a + b"),
  );
  const w = apply({ "a.py": "x\r\ny\r\n" }, [whole("a.py", "x\nz\n")]);
  assert.equal(content(w, "a.py"), "x\r\nz\r\n");
});

Deno.test("applyEdits keeps mixed line endings outside the edited lines", () => {
  const file = "a\r\nb\r\nc\nd\n";
  assert.equal(
    content(apply({ "m.txt": file }, [replace("m.txt", "b\n", "B\n")]), "m.txt"),
    "a\r\nB\r\nc\nd\n",
  );
});

Deno.test("applyEdits keeps a missing final newline missing", () => {
  const file = "a\nb\nc";
  assert.equal(
    content(apply({ "f.txt": file }, [replace("f.txt", "b\n", "B\n")]), "f.txt"),
    "a\nB\nc",
  );
  assert.equal(
    content(apply({ "f.txt": file }, [replace("f.txt", "c\n", "C\nD\n")]), "f.txt"),
    "a\nb\nC\nD",
  );
  assert.equal(content(apply({ "f.txt": file }, [replace("f.txt", "c\n", "")]), "f.txt"), "a\nb");
  assert.equal(content(apply({ "f.txt": file }, [whole("f.txt", "x\ny\n")]), "f.txt"), "x\ny");
});

Deno.test("applyEdits adds the final newline when REPLACE ends with a blank line at the end", () => {
  assert.equal(
    content(apply({ "f.txt": "a\nb" }, [replace("f.txt", "b\n", "b\n\n")]), "f.txt"),
    "a\nb\n",
  );
});

Deno.test("applyEdits keeps a byte-order mark", () => {
  const file = "\uFEFFa\nb\n";
  assert.equal(
    content(apply({ "f.txt": file }, [replace("f.txt", "a\n", "A\n")]), "f.txt"),
    "\uFEFFA\nb\n",
  );
});

Deno.test("applyEdits reports edits that change nothing", () => {
  const result = apply({ "a.py": "x\n" }, [replace("a.py", "x\n", "x\n")]);
  assert.ok(result.ok);
  assert.deepEqual(result.ok && result.changed, []);
  assert.match(result.ok ? result.warnings.join() : "", /change nothing/);
});

Deno.test("applyEdits normalises paths on both sides", () => {
  const result = applyEdits(
    new Map([["./src/a.py", "x\n"]]),
    [replace("src\\a.py", "x\n", "y\n")],
    {
      allowed: ["src/./a.py"],
    },
  );
  assert.equal(content(result, "src/a.py"), "y\n");
});

Deno.test("parseReply and applyEdits together handle a CRLF reply on a CRLF file", () => {
  const file = "def f():\r\n    return 1\r\n";
  const parsed = parseReply(
    "a.py\r\n<<<<<<< SEARCH\r\n    return 1\r\n=======\r\n    return 2\r\n>>>>>>> REPLACE\r\n",
    {
      knownPaths: ["a.py"],
    },
  );
  assert.equal(parsed.kind, "edits");
  if (parsed.kind !== "edits") return;
  assert.equal(
    content(apply({ "a.py": file }, parsed.edits), "a.py"),
    "def f():\r\n    return 2\r\n",
  );
});

Deno.test("findMatches and nearestLines work on the ladder", () => {
  const file = ["a", "  b", "", "c "];
  assert.equal(findMatches(file, ["a", "  b"])[0].level, "exact");
  assert.equal(findMatches(file, ["c"])[0].level, "trailing-whitespace");
  assert.equal(findMatches(file, ["  b", "c"])[0].level, "blank-lines");
  assert.deepEqual(findMatches(file, ["b"])[0].shift, { add: "  " });
  assert.deepEqual(findMatches(file, ["zzz"]), []);
  const named = ["alpha = 1", "beta = compute(2)", "", "gamma = 3"];
  assert.equal(nearestLines(named, ["beta = compute(3)"])?.start, 1);
  assert.equal(nearestLines(named, ["gamma = 4"])?.start, 3);
  assert.equal(nearestLines([], ["x"]), null);
});

Deno.test("findElision reports the line and text", () => {
  assert.deepEqual(findElision(["x = 1", "# ... rest unchanged"], "a.py", []), {
    line: 2,
    text: "# ... rest unchanged",
  });
  assert.equal(findElision(["x = [...a]", "y = {...b}"], "a.js", []), null);
});

Deno.test("toLines and fromLines round-trip any line endings", () => {
  for (const text of ["", "a", "a\n", "a\r\nb", "a\nb\r\n\r\n", "\uFEFFx\n"]) {
    assert.equal(fromLines(toLines(text)), text, JSON.stringify(text));
  }
  assert.equal(toLines("a\r\nb\r\nc\n").eol, "\r\n");
  assert.equal(toLines("", "\r\n").eol, "\r\n");
});

Deno.test("chooseReplyFormat follows edit_format", () => {
  const small = "x\n";
  const big = "x\n".repeat(500);
  assert.equal(chooseReplyFormat("auto", { content: small, hasSymbols: false }), "whole");
  assert.equal(chooseReplyFormat("auto", { content: null, hasSymbols: false }), "whole");
  assert.equal(chooseReplyFormat("auto", { content: big, hasSymbols: false }), "diff");
  assert.equal(chooseReplyFormat("auto", { content: small, hasSymbols: true }), "diff");
  assert.equal(
    chooseReplyFormat("auto", { content: small, hasSymbols: true, failedMatches: 2 }),
    "whole",
  );
  assert.equal(
    chooseReplyFormat("auto", { content: big, hasSymbols: true, failedMatches: 5 }),
    "diff",
  );
  assert.equal(chooseReplyFormat("whole", { content: big, hasSymbols: false }), "whole");
  assert.equal(chooseReplyFormat("whole", { content: small, hasSymbols: true }), "diff");
  assert.equal(chooseReplyFormat("diff", { content: small, hasSymbols: false }), "diff");
  assert.ok(isSmallFile("a\n".repeat(199)));
  assert.ok(!isSmallFile("a".repeat(9000)));
});

Deno.test("formatInstructions gives each format with an example the parser accepts", () => {
  const diff = formatInstructions("diff");
  assert.match(diff, /<<<<<<< SEARCH[\s\S]*=======[\s\S]*>>>>>>> REPLACE/);
  assert.match(diff, /QUESTION:/);
  const example = diff.slice(diff.indexOf("src/calc.py"), diff.lastIndexOf(">>>>>>> REPLACE") + 15);
  assert.equal(parseReply(example, { knownPaths: ["src/calc.py"] }).kind, "edits");
  const w = formatInstructions("whole");
  assert.match(w, /```python/);
  assert.doesNotMatch(w, /<<<<<<< SEARCH/);
  const wholeExample = w.slice(w.indexOf("src/calc.py"), w.lastIndexOf("```") + 3);
  const parsed = parseReply(wholeExample, { knownPaths: ["src/calc.py"] });
  assert.equal(parsed.kind === "edits" && parsed.edits[0].type, "whole");
  const both = formatInstructions("both");
  assert.match(both, /SEARCH/);
  assert.match(both, /complete new content/);
  assert.match(both, /whole file/);
  assert.ok(diff.length < 1200 && w.length < 1200);
});

Deno.test("applyEdits refuses an empty whole-file block for a file with content", () => {
  const { reason, error } = failure(apply({ "a.py": "x = 1\n" }, [whole("a.py", "")]));
  assert.equal(reason, "partial");
  assert.match(error, /is empty/);
});

Deno.test("applyEdits refuses a whole file that drops most definitions, but not one", () => {
  const { error } = failure(
    apply({ "calc.py": CALC }, [whole("calc.py", "def add(a, b):\n    return a + b\n")]),
  );
  assert.match(error, /drops "sub", "Calc"/);
  assert.match(error, /empty REPLACE part deletes lines/);
  const withoutSub = CALC.replace("def sub(a, b):\n    return a - b\n\n\n", "");
  assert.equal(
    content(apply({ "calc.py": CALC }, [whole("calc.py", withoutSub)]), "calc.py"),
    withoutSub,
  );
});

Deno.test("applyEdits keeps the file's trailing blank lines on whole-file replacement", () => {
  assert.equal(
    content(apply({ "a.py": "x = 1\n\n" }, [whole("a.py", "x = 2\n")]), "a.py"),
    "x = 2\n\n",
  );
  assert.equal(
    content(apply({ "a.py": "x = 1\n" }, [whole("a.py", "x = 2\n")]), "a.py"),
    "x = 2\n",
  );
});

Deno.test("applyEdits says when a SEARCH part skips lines with ...", () => {
  const { error } = failure(
    apply({ "calc.py": CALC }, [replace("calc.py", "class Calc:\n    ...\n", "x\n")]),
  );
  assert.match(error, /skips lines with "\.\.\."/);
});

Deno.test("applyEdits keeps fence lines of a block when the file holds them (a docstring example)", () => {
  const doc = 'S = """\n```\nadd(1, 2)\n```\n"""\n';
  const reply =
    "doc.py\n<<<<<<< SEARCH\n```\nadd(1, 2)\n```\n=======\n>>> add(1, 2)\n3\n>>>>>>> REPLACE\n";
  const parsed = parseReply(reply, { knownPaths: ["doc.py"] });
  assert.equal(parsed.kind, "edits");
  if (parsed.kind !== "edits") return;
  const result = apply({ "doc.py": doc }, parsed.edits);
  assert.ok(result.ok, JSON.stringify(result));
  assert.equal(result.files.get("doc.py"), 'S = """\n>>> add(1, 2)\n3\n"""\n');
  const fenced =
    "calc.py\n<<<<<<< SEARCH\n```python\nx = 1\n```\n=======\n```python\nx = 2\n```\n>>>>>>> REPLACE\n";
  const plain = parseReply(fenced, { knownPaths: ["calc.py"] });
  if (plain.kind !== "edits") throw new Error(JSON.stringify(plain));
  assert.equal(apply({ "calc.py": "x = 1\n" }, plain.edits).ok && "ok", "ok");
});

Deno.test("applyEdits refuses a REPLACE part whose method body became ... (the class not shown)", () => {
  const svc =
    "class Service:\n    def start(self):\n        self.running = True\n        self.log()\n";
  const { error } = failure(apply({ "svc.py": svc }, [
    replace(
      "svc.py",
      "    def start(self):\n        self.running = True\n        self.log()\n",
      "    def start(self):\n        ...\n",
    ),
  ]));
  assert.match(error, /leaves code out/);
});
