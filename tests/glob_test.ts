/**
 * The one glob dialect (`lib/glob/mod.ts`), as every user of it sees it: find's `glob` filter
 * (`compileGlob`), `.gitignore` rules (`globSource`, without braces) and a check's `files_filter`
 * (`globToRegExp`).
 */
import assert from "node:assert/strict";
import { compileGlob, globSource, globToRegExp } from "../lib/glob/mod.ts";
import { isIgnored, parseIgnore } from "../lib/find/ignore.ts";
import { matchesFilter } from "../lib/checks.ts";

/** The same glob through each user: a whole-path match (no folder or name rules). */
function everywhere(glob: string, path: string): boolean[] {
  return [
    globToRegExp(glob).test(path),
    new RegExp(globSource(glob, true)).test(path),
    new RegExp(globSource(glob)).test(path),
  ];
}

Deno.test("glob: *, ? and classes stay inside one folder, in every user of the dialect", () => {
  for (
    const [glob, path] of [["a[!x]b", "a/b"], ["a[^x]b", "a/b"], ["a*b", "a/b"], ["a?b", "a/b"]]
  ) {
    assert.deepEqual(everywhere(glob, path), [false, false, false], `${glob} ~ ${path}`);
    assert.equal(compileGlob(glob).test(path), false, `find: ${glob} ~ ${path}`);
    assert.equal(matchesFilter(path, [glob]), false, `files_filter: ${glob} ~ ${path}`);
  }
  assert.equal(isIgnored([parseIgnore("", "a[!x]b\n")], "a/b", false), false);
  assert.deepEqual(everywhere("a[!x]b", "ayb"), [true, true, true]);
  assert.deepEqual(everywhere("a[!x]b", "axb"), [false, false, false]);
});

Deno.test("glob: ** spans folders only as a whole segment", () => {
  assert.ok(globToRegExp("src/**/*.py").test("src/x.py"));
  assert.ok(globToRegExp("src/**/*.py").test("src/a/b/x.py"));
  assert.ok(!globToRegExp("src/**/*.py").test("lib/src/x.py"));
  assert.ok(globToRegExp("**/x.py").test("x.py"));
  assert.ok(globToRegExp("**/x.py").test("a/b/x.py"));
  assert.ok(globToRegExp("src/**").test("src/a/b.py"));
  assert.ok(!globToRegExp("a**b").test("a/b"), "** inside a segment is *");
  assert.ok(globToRegExp("a**b").test("axxb"));
});

Deno.test("glob: ** spans folders whose names hold a line break", () => {
  // (A folder may be named so; `.` in the expression stopped at the break.)
  for (const path of ["a\nb/x.py", "src/a\rb/x.py", "src/\u2028/\u2029/x.py"]) {
    for (const glob of ["**/*.py", "**/x.py", "src/**", "src/**/*.py", "**"]) {
      if (glob.startsWith("src") && !path.startsWith("src")) continue;
      assert.deepEqual(
        everywhere(glob, path),
        [true, true, true],
        `${glob} ~ ${JSON.stringify(path)}`,
      );
      assert.ok(compileGlob(glob).test(path), `${glob} ~ ${JSON.stringify(path)}`);
    }
  }
  assert.ok(!compileGlob("src/**").test("a\nsrc/x.py"));
});

Deno.test("glob: braces, escapes, special characters and unterminated classes", () => {
  assert.ok(globToRegExp("*.{ts,tsx}").test("a.tsx"));
  assert.ok(!globToRegExp("*.{ts,tsx}").test("a.js"));
  assert.ok(globToRegExp("a+b(1).py").test("a+b(1).py"));
  assert.ok(!globToRegExp("a.py").test("axpy"));
  assert.ok(globToRegExp("\\*.md").test("*.md"));
  assert.ok(!globToRegExp("\\*.md").test("a.md"));
  assert.ok(globToRegExp("a[b").test("a[b"));
  assert.ok(globToRegExp("[]]x").test("]x"));
  assert.ok(globToRegExp("b[0-9].js").test("b1.js"));
  assert.ok(!globToRegExp("b[!x].js").test("bx.js"));
  assert.ok(globToRegExp("./src/*.ts").test("src/a.ts"));
  assert.ok(globToRegExp("/src/*.ts").test("src/a.ts"));
  // Braces are not part of .gitignore patterns.
  assert.ok(new RegExp(globSource("{a,b}")).test("{a,b}"));
});

Deno.test("glob: find's filter takes names at any depth, folders whole, and ! to invert", () => {
  assert.ok(compileGlob("*.ts").test("a/b/c.ts"));
  assert.ok(!compileGlob("*.ts").test("a/b/c.tsx"));
  assert.ok(compileGlob("src/**/*.py").test("src/x.py"));
  assert.ok(compileGlob("src/**/*.py").test("src/a/b/x.py"));
  assert.ok(!compileGlob("src/**/*.py").test("lib/src/x.py"));
  assert.ok(compileGlob("lib").test("lib/a/b.ts"));
  assert.ok(compileGlob("!*.md").test("a.ts"));
  assert.ok(!compileGlob("!*.md").test("docs/a.md"));
  assert.ok(compileGlob("[ab].txt").test("b.txt"));
  assert.ok(!compileGlob("[!ab].txt").test("a.txt"));
});

Deno.test("glob: a check's files_filter matches names, or whole paths when it holds a slash", () => {
  assert.ok(matchesFilter("src/a.py", ["*.py"]));
  assert.ok(!matchesFilter("src/a.pyc", ["*.py"]));
  assert.ok(matchesFilter("src/x/y/a.ts", ["src/**/*.ts"]));
  assert.ok(!matchesFilter("src/x/a.ts", ["src/*.ts"]));
});
