/**
 * The boundary takes arguments the ways real clients send them: numbers as numeric strings (the
 * Inspector CLI sends every `--tool-arg` of a non-number property as a string), `null` for an
 * optional argument, and `path` for a tool's one path argument.
 */
import assert from "node:assert/strict";
import { PATH_ALIAS, pathArgument } from "../../lib/mcp/arguments.ts";
import { loadTools, toolEntries } from "../../tools/mod.ts";
import find from "../../tools/find.ts";
import listFiles from "../../tools/list_files.ts";
import outline from "../../tools/outline.ts";
import readFile from "../../tools/read_file.ts";
import shell from "../../tools/shell.ts";
import writeFile from "../../tools/write_file.ts";
import { callJson, tempProject, testContext } from "../helpers/project.ts";

const FILES = { "a.py": "one\ntwo\nthree\n", "lib/b.txt": "b\n" };

Deno.test("read_file takes start_line and end_line as numeric strings, and null", async () => {
  const root = await tempProject(FILES);
  const ctx = testContext(root);
  const r = await callJson(readFile, { filename: "a.py", start_line: "2", end_line: " 2 " }, ctx);
  assert.equal(r.status, "ok", String(r.error));
  assert.equal(r.content, "two\n");
  const nulls = await callJson(
    readFile,
    { filename: "a.py", start_line: null, end_line: null },
    ctx,
  );
  assert.equal(nulls.status, "ok", String(nulls.error));
  assert.equal(nulls.start_line, 1);
});

Deno.test("a numeric string out of range is told as a number; other strings stay strings", async () => {
  const root = await tempProject(FILES);
  const ctx = testContext(root);
  const zero = await callJson(readFile, { filename: "a.py", start_line: "0" }, ctx);
  assert.match(String(zero.error), /start_line: too small \(at least 1\)/);
  const word = await callJson(readFile, { filename: "a.py", start_line: "one" }, ctx);
  assert.match(String(word.error), /start_line: expected a number, got a string/);
  const half = await callJson(readFile, { filename: "a.py", start_line: "1.5" }, ctx);
  assert.match(String(half.error), /start_line: expected an integer, got 1.5/);
  // A string argument is never turned into a number.
  const text = await callJson(find, { pattern: "1" }, ctx);
  assert.equal(text.status, "ok", String(text.error));
  const timeout = await callJson(shell, { command: "echo hi", timeout: "2" }, ctx);
  assert.equal(timeout.status, "ok", String(timeout.error));
});

/** The reference's names for a tool's one path argument. */
const PATH_NAMES = ["filename", "directory", "file_path", "file", "cwd"];

Deno.test("every tool with one path argument also takes path", async () => {
  // Which tools those are is read from each tool's listed schema (the manifest, the reviewed
  // snapshot of every schema), not from a list here.
  const listed = new Map((await toolEntries()).map((e) => [e.name, e.describe()]));
  for (const tool of await loadTools()) {
    const props = Object.keys(
      (listed.get(tool.name)!.inputSchema as { properties: Record<string, unknown> }).properties,
    );
    const named = props.filter((p) => PATH_NAMES.includes(p));
    const takesPath = named.length === 1 || props.includes(PATH_ALIAS);
    assert.equal(
      Boolean(pathArgument(tool) || PATH_ALIAS in tool.input.shape),
      takesPath,
      tool.name,
    );
  }
  const root = await tempProject(FILES);
  const ctx = testContext(root);
  const read = await callJson(readFile, { path: "a.py", start_line: "3" }, ctx);
  assert.equal(read.content, "three\n");
  const list = await callJson(listFiles, { path: "lib" }, ctx);
  assert.equal(list.status, "ok", String(list.error));
  assert.match(String(list.entries), /b\.txt/);
  const wrote = await callJson(writeFile, { path: "c.txt", content: "c\n" }, ctx);
  assert.equal(wrote.status, "ok", String(wrote.error));
  assert.equal(await Deno.readTextFile(`${root}/c.txt`), "c\n");
  const ran = await callJson(shell, { command: "pwd", path: "lib" }, ctx);
  assert.match(String(ran.output), /lib\n/);
  // outline's own name is path: nothing changes there.
  const out = await callJson(outline, { path: "a.py" }, ctx);
  assert.equal(out.status, "ok", String(out.error));
});

Deno.test("path and the seed's name must not disagree", async () => {
  const root = await tempProject(FILES);
  const ctx = testContext(root);
  const clash = await callJson(readFile, { path: "a.py", filename: "lib/b.txt" }, ctx);
  assert.equal(clash.status, "error");
  assert.match(
    String(clash.error),
    /"path" \("a.py"\) and "filename" \("lib\/b.txt"\) name different/,
  );
  const same = await callJson(readFile, { path: "a.py", filename: "a.py" }, ctx);
  assert.equal(same.status, "ok", String(same.error));
  // A tool without a path argument still refuses path by name.
  const unknown = await callJson(find, { pattern: "x", path: "lib" }, ctx);
  assert.match(String(unknown.error), /unknown argument "path"/);
});
