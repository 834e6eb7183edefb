/**
 * The validation stage (lib/edit/validate/): each fitter and validator on a file before and after,
 * whatever format made the change.
 */
import assert from "node:assert/strict";
import { type FileChange, validateChanges } from "../../lib/edit/validate/mod.ts";
import { deletionAllowance } from "../../lib/edit/mod.ts";
import { removedLines } from "../../lib/edit/guard.ts";

async function run(path: string, before: string | null, after: string, spec = "Change it.") {
  const change: FileChange = { path, before, after, edits: [] };
  return await validateChanges([change], { spec, deletion: deletionAllowance(spec) });
}

async function refusedBy(path: string, before: string | null, after: string, spec?: string) {
  return (await run(path, before, after, spec)).finding?.validator ?? null;
}

Deno.test("fit: a byte-order mark stays once, CRLF stays CRLF", async () => {
  const bom = await run("a.json", '\uFEFF{"a": 1}\n', '\uFEFF\uFEFF{"a": 2}\n');
  assert.equal(bom.files.get("a.json"), '\uFEFF{"a": 2}\n');
  const added = await run("a.json", '\uFEFF{"a": 1}\n', '{"a": 2}\n');
  assert.equal(added.files.get("a.json"), '\uFEFF{"a": 2}\n');
  const crlf = await run("run.bat", "@echo off\r\necho a\r\n", "@echo off\necho b\n");
  assert.equal(crlf.files.get("run.bat"), "@echo off\r\necho b\r\n");
  const mixed = await run("m.txt", "a\r\nb\n", "a\nc\n");
  assert.equal(mixed.files.get("m.txt"), "a\nc\n");
});

Deno.test("fit: Makefile recipe lines get their tab; continuations and assignments keep spaces", async () => {
  const before = "SRCS = a.c \\\n       b.c\n\napp: $(SRCS)\n\tcc -o app $(SRCS)\n";
  const after = "SRCS = a.c \\\n       b.c \\\n       c.c\n\napp: $(SRCS)\n    cc -o app \\\n" +
    "        $(SRCS)\n\nclean:\n    rm -f app\nX := 1\n";
  const out = (await run("Makefile", before, after)).files.get("Makefile");
  assert.equal(
    out,
    "SRCS = a.c \\\n       b.c \\\n       c.c\n\napp: $(SRCS)\n\tcc -o app \\\n" +
      "        $(SRCS)\n\nclean:\n\trm -f app\nX := 1\n",
  );
  const other = await run("notes.txt", "a\n", "app:\n    run\n");
  assert.equal(other.files.get("notes.txt"), "app:\n    run\n");
});

Deno.test("data: JSON, YAML and TOML that parsed must parse; JSONC and broken files are left alone", async () => {
  const pkg = '{\n  "version": "1.4.2"\n}\n';
  assert.equal(await refusedBy("package.json", pkg, pkg + "// bumped\n"), "data-syntax");
  assert.equal(await refusedBy("package.json", pkg, '{\n  "version": "1.5.0"\n}\n'), null);
  assert.equal(await refusedBy("tsconfig.json", "{}\n", "{\n  // strict\n}\n"), null);
  const yml = "a: 1\nb:\n  - x\n";
  assert.equal(await refusedBy("k.yaml", yml, yml + "kubectl apply -f k.yaml\n"), "data-syntax");
  assert.equal(await refusedBy("k.yaml", yml, "a: 2\nb:\n  - x\n"), null);
  assert.equal(await refusedBy("k.yaml", "a: {{ x }\n", "a: {{ y }\n"), null);
  const toml = "[tool.ruff]\nline-length = 88\n";
  assert.equal(await refusedBy("p.toml", toml, toml + "[tool.ruff]\nx = 1\n"), "data-syntax");
  assert.equal(await refusedBy("new.json", null, "{ nope\n"), "data-syntax");
});

const REPORT =
  "def header(title):\n    return title.upper()\n\n\ndef old_footer(n):\n    return str(n)\n";
const HEADER = "def header(title):\n    return title.upper().center(40)\n";

Deno.test("definitions: a removal the task does not ask for is refused; one it asks for passes", async () => {
  const spec = "header() must center the title in 40 columns.";
  assert.equal(await refusedBy("report.py", REPORT, HEADER, spec), "definitions");
  assert.equal(
    await refusedBy("report.py", REPORT, HEADER, "Remove old_footer; center header."),
    null,
  );
  assert.equal(await refusedBy("report.py", REPORT, HEADER, "Delete the unused helpers."), null);
  // A verb that describes behaviour is no request to remove a definition it does not name.
  const stack = "class Stack:\n    def push(self, x):\n        self.items.append(x)\n";
  const nested =
    "class Stack:\n    def __init__(self):\n        def push(self, x):\n            pass\n";
  assert.equal(
    await refusedBy("s.py", stack, nested, "Add pop() to Stack that removes the last item."),
    "definitions",
  );
  // Without the task's words (a replayed reply) there is nothing to judge by.
  assert.equal(await refusedBy("report.py", REPORT, HEADER, ""), null);
});

Deno.test("definitions: a method moved out of its class is refused", async () => {
  const cart = "class Cart:\n    def total(self):\n        return 1\n";
  const out = "class Cart:\n    pass\n\ndef total(self):\n    return 1\n";
  const found = (await run("cart.py", cart, out, "Add count() to Cart.")).finding;
  assert.equal(found?.validator, "definitions");
  assert.match(found!.problem, /Cart\.total \(now outside its parent\)/);
});

Deno.test("definitions: the same lines twice, or a class written twice, are refused", async () => {
  const greet = 'def greet(n):\n    return "Hi " + n\n';
  const twice = 'def greet(n):\n    return f"Hi {n}"\n\n\ndef greet(n):\n    return f"Hi {n}"\n';
  assert.equal(await refusedBy("g.py", greet, twice, "Use f-strings."), "definitions");
  const rb = "module P\n  def self.f(c)\n    c\n  end\nend\n";
  const both = rb + "\nmodule P\n  def self.f(c, s = 1)\n    c * s\n  end\nend\n";
  assert.equal(await refusedBy("p.rb", rb, both, "Add a scale to f."), "definitions");
  // A property setter beside its getter is a second definition by name, and fine.
  const prop = "class A:\n    @property\n    def x(self):\n        return self._x\n";
  const setter = prop + "\n    @x.setter\n    def x(self, v):\n        self._x = v\n";
  assert.equal(await refusedBy("a.py", prop, setter, "Add a setter for x."), null);
});

Deno.test("definitions: languages without a grammar are read by their keywords", async () => {
  const keep =
    "local function a(x)\n  return x + 1\nend\n\nlocal function b(x)\n  return x + 2\nend\n";
  const lua = keep + "\nlocal function clamp(x)\n  return x\nend\n\nlocal function scale(x)\n" +
    "  return x\nend\n";
  const out = keep + "\nlocal function clamp(x)\n  return math.max(0, x)\nend\n";
  assert.equal(await refusedBy("m.lua", lua, out, "clamp must not go below 0."), "definitions");
  assert.equal(await refusedBy("m.lua", lua, out, "Remove scale; clamp at 0."), null);
  // A JavaScript const turned into let keeps its name: nothing is removed.
  const js = "const limit = 5;\nexport function f() {\n  return limit;\n}\n";
  const let_ = "let limit = 1000;\nexport function f() {\n  return limit;\n}\n";
  assert.equal(await refusedBy("c.js", js, let_, "Use a distance."), null);
});

Deno.test("destructive: a line edited in the middle is changed, not removed", () => {
  const before = ["id,name,city,opened", '1,"Main St, Down",Springfield,2015-03-01'];
  const after = ["id,name,city,region,opened", '1,"Main St, Down",Springfield,North,2015-03-01'];
  assert.deepEqual(removedLines(before, after, true), []);
  assert.equal(removedLines(before, after).length, 2);
  assert.deepEqual(removedLines(["def add(a, b):", "return a + b"], ["x = 1"], true), [
    "def add(a, b):",
    "return a + b",
  ]);
});

Deno.test("destructive: any format's change that deletes most of a file is refused", async () => {
  const notes = Array.from({ length: 10 }, (_, i) => `- note ${i}: keep this line`).join("\n") +
    "\n";
  assert.equal(await refusedBy("notes.md", notes, "- note 0: keep this line\n"), "destructive");
  assert.equal(await refusedBy("notes.md", notes, notes.replace("note 3", "note three")), null);
  assert.equal(
    await refusedBy("notes.md", notes, "- note 0: keep this line\n", "Delete every note but 0."),
    null,
  );
});

Deno.test("definitions: a function whose body is replaced by a TODO or a stub is refused", async () => {
  const ts =
    "export function area(w: number, h: number): number {\n  const k = 1;\n  return k * w * h;\n}\n" +
    "export function perimeter(w: number, h: number): number {\n  return 2 * (w + h);\n}\n";
  const todo = ts.replace("  const k = 1;\n  return k * w * h;\n", "  // TODO: implement\n");
  assert.equal(await refusedBy("g.ts", ts, todo, "perimeter must double."), "definitions");
  const py = "def area(w, h):\n    return w * h\n\n\ndef side(w):\n    return w\n";
  const stub = py.replace("    return w * h\n", "    raise NotImplementedError\n");
  assert.equal(await refusedBy("g.py", py, stub, "side must return w."), "definitions");
  assert.equal(await refusedBy("g.py", py, stub, "Replace area with a stub."), null);
  const shorter = py.replace("def side(w):\n    return w\n", "def side(w): return w\n");
  assert.equal(await refusedBy("g.py", py, shorter, "Shorten side."), null);
});

Deno.test("data: a key added under another section than the task's words name is refused", async () => {
  const yml = "server:\n  port: 8080\ndatabase:\n  pool: 5\n";
  const wrong = "server:\n  port: 8080\ndatabase:\n  pool: 10\n  timeout: 30s\n";
  const right = "server:\n  port: 8080\n  timeout: 30s\ndatabase:\n  pool: 10\n";
  const spec =
    "Add a 30s request timeout to the server settings and raise the database pool to 10.";
  assert.equal(await refusedBy("app.yml", yml, wrong, spec), "data-placement");
  assert.equal(await refusedBy("app.yml", yml, right, spec), null);
  assert.equal(await refusedBy("app.yml", yml, wrong, "Add a 30s timeout."), null);
  const toml = "[server]\nport = 1\n\n[db]\npool = 5\n";
  const moved = "[server]\nport = 1\n\n[db]\npool = 5\nretries = 3\n";
  assert.equal(await refusedBy("c.toml", toml, moved, "Give server 3 retries."), "data-placement");
});

Deno.test("kept: an import still used, the indentation of untouched lines, lockfiles", async () => {
  const py =
    "import json\nimport os\n\n\ndef load(p):\n    if os.path.exists(p):\n        return json.load(open(p))\n";
  const dropped = py.replace("import os\n", "");
  assert.equal(await refusedBy("load.py", py, dropped, "load returns {}."), "imports");
  const unused = "import json\n\n\ndef load(p):\n    return json.load(open(p))\n";
  assert.equal(await refusedBy("load.py", py, unused, "load reads the file."), null);
  const js = Array.from({ length: 12 }, (_, i) => `    if (a${i}) {\n        step${i}();\n    }`)
    .join("\n");
  const four = `function run() {\n${js}\n}\n`;
  const two = four.replaceAll("        step", "    step").replaceAll("    if", "  if")
    .replaceAll("    }", "  }").replace("step0()", "first()");
  assert.equal(await refusedBy("run.js", four, two, "Call first() first."), "indentation");
  assert.equal(await refusedBy("run.js", four, two, "Indent with 2 spaces; call first()."), null);
  const lock = '{\n  "lockfileVersion": 3\n}\n';
  assert.equal(
    await refusedBy("package-lock.json", lock, lock.replace("3", "4"), "Add a lint script."),
    "lockfile",
  );
});

Deno.test("definitions: a removal asked for by a part of the name allows what carries it", async () => {
  const sql = "CREATE TABLE customers (id int, legacy_code text);\n\n" +
    "CREATE INDEX customers_legacy_code_idx ON customers (legacy_code);\n\n" +
    "CREATE INDEX customers_id_idx ON customers (id);\n";
  const out =
    "CREATE TABLE customers (id int);\n\nCREATE INDEX customers_id_idx ON customers (id);\n";
  const spec =
    "Remove the legacy_code column from customers, including anything that references it.";
  assert.equal(await refusedBy("schema.sql", sql, out, spec), null);
  const both = "CREATE TABLE customers (id int);\n";
  assert.equal(await refusedBy("schema.sql", sql, both, spec), "definitions");
});

Deno.test("kept: a case label written twice into one switch is refused", async () => {
  const go =
    "func f(m string) int {\n\tswitch m {\n\tcase A, B:\n\t\treturn 1\n\tcase C:\n\t\treturn 2\n\t}\n\treturn 0\n}\n";
  const twice = go.replace("\tcase C:\n", "\tcase C:\n\t\treturn 2\n\tcase D, C:\n");
  assert.equal(await refusedBy("m.go", go, twice, "D returns 2."), "case-labels");
  const fine = go.replace("\tcase C:\n", "\tcase C, D:\n");
  assert.equal(await refusedBy("m.go", go, fine, "D returns 2."), null);
});

Deno.test("kept: a block wrapped in a new one re-indents a few lines, and a named lockfile may change", async () => {
  const body = Array.from({ length: 20 }, (_, i) => `    step${i}();`).join("\n");
  const before = `function run() {\n${body}\n}\n`;
  const wrapped = before.replace(
    Array.from({ length: 16 }, (_, i) => `    step${i}();`).join("\n"),
    "    if (ready) {\n" + Array.from({ length: 16 }, (_, i) => `      step${i}();`).join("\n") +
      "\n    }",
  );
  assert.equal(
    await refusedBy("run.js", before, wrapped, "Run the first steps only when ready."),
    null,
  );
  const lock = '{\n  "lockfileVersion": 3\n}\n';
  const spec = "Set lockfileVersion to 4 in package-lock.json.";
  assert.equal(await refusedBy("package-lock.json", lock, lock.replace("3", "4"), spec), null);
});

Deno.test("kept: one function restructured (guard clauses) in a larger file is not a re-indented file", async () => {
  const others = Array.from({ length: 25 }, (_, i) => `function f${i}() {\n    return ${i};\n}\n`)
    .join("");
  const inner = Array.from({ length: 5 }, (_, i) => `b${i}();`);
  const outer = Array.from({ length: 5 }, (_, i) => `a${i}();`);
  const nested = "function g(a, b) {\n    if (a) {\n" +
    outer.map((l) => `        ${l}\n`).join("") +
    "        if (b) {\n" + inner.map((l) => `            ${l}\n`).join("") +
    "        }\n    }\n}\n";
  const guards = "function g(a, b) {\n    if (!a) return;\n" +
    outer.map((l) => `    ${l}\n`).join("") +
    "    if (!b) return;\n" + inner.map((l) => `    ${l}\n`).join("") + "}\n";
  const spec = "Use guard clauses in g.";
  assert.equal(await refusedBy("g.js", others + nested, others + guards, spec), null);
});

Deno.test("kept: a pathological long line is skipped, not backtracked over (hung before)", async () => {
  const ts = "import " + " ".repeat(20000) + "x\nexport const a = 1;\n";
  const py = "from a import " + "b ".repeat(20000) + "(\nX = 1\n";
  const go = "switch x {\n  case " + " ".repeat(20000) + "y\n}\n";
  assert.equal(await refusedBy("a.ts", ts, ts + "// z\n", "Add z."), null);
  assert.equal(await refusedBy("a.py", py, py + "Y = 2\n", "Add Y."), null);
  assert.equal(await refusedBy("a.go", go, go + "// z\n", "Add z."), null);
});
