/**
 * Which grammar reads a file: by its extension, and for a `.h` file by its text (C or C++).
 */
import assert from "node:assert/strict";
import { formatItem, languageOf, outlineSource } from "../../lib/outline/mod.ts";

const C_HEADER = '#pragma once\n#ifdef __cplusplus\nextern "C" {\n#endif\n' +
  "struct point { int x; int y; };\nint area(struct point *p);\n" +
  "static int c_def(int x) { return x; }\n/* a class of errors: see below */\n" +
  "#ifdef __cplusplus\n}\n#endif\n";
const CPP_HEADER = "#pragma once\nclass CppInH { public: void m(); };\n" +
  "namespace nsh { int f(); }\nstatic int c_def(int x) { return x; }\n";

Deno.test("a .h file is C unless its text shows C++", () => {
  assert.equal(languageOf("a/t.h"), "c");
  assert.equal(languageOf("a/t.h", C_HEADER), "c");
  assert.equal(languageOf("a/t.h", CPP_HEADER), "cpp");
  assert.equal(languageOf("a/T.H", new TextEncoder().encode(CPP_HEADER)), "cpp");
  for (
    const line of [
      "template <typename T>",
      "namespace a::b {",
      "namespace {",
      "class Fwd;",
      "class API Base final : public Other {",
      "class X\n{",
      "  private:",
      "using namespace std;",
    ]
  ) assert.equal(languageOf("t.h", `int x;\n${line}\n`), "cpp", line);
  for (const line of ["int class_count;", "  std::x = 1;", 'extern "C" {', "x = a ? b : c;"]) {
    assert.equal(languageOf("t.h", `${line}\n`), "c", line);
  }
  // Only a header is judged by its text.
  assert.equal(languageOf("t.c", CPP_HEADER), "c");
  assert.equal(languageOf("t.hpp", C_HEADER), "cpp");
});

Deno.test("a C++ header's class and namespace are outlined as such, a C header's as before", async () => {
  const outline = async (text: string) =>
    (await outlineSource(languageOf("t.h", text)!, text)).items.map(formatItem);
  const cpp = await outline(CPP_HEADER);
  assert.ok(cpp.some((item) => /\|class\|CppInH\|/.test(item)), cpp.join("\n"));
  assert.ok(!cpp.some((item) => /\|function\|(CppInH|nsh)\|/.test(item)), cpp.join("\n"));
  assert.ok(cpp.some((item) => /\|function\|c_def\|/.test(item)), cpp.join("\n"));
  const c = await outline(C_HEADER);
  assert.ok(c.some((item) => /\|function\|c_def\|/.test(item)), c.join("\n"));
  assert.ok(c.some((item) => /\|\w+\|point\|/.test(item)), c.join("\n"));
});
