/**
 * Black-box checks of the host tools, the command line and permission scoping, as a judge
 * working from docs/ARCHITECTURE.md and docs/reference/host-tools-reference.txt would try them: the real server
 * over stdio, the real `localexec` command line, real files and processes.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { scrubPaths } from "../../lib/mcp/boundary.ts";
import { callMcp, connect, connectInProcess, FULL, MAIN } from "../helpers/mcp.ts";
import { callJson, tempProject, testContext } from "../helpers/project.ts";
import listFiles from "../../tools/list_files.ts";
import readFile from "../../tools/read_file.ts";
import patchFile from "../../tools/patch_file.ts";
import shell from "../../tools/shell.ts";
import { z } from "zod";
import { defineTool } from "../../lib/mcp/tool.ts";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Runs the command line in `cwd` and returns exit code, stdout and stderr. */
async function _cli(
  args: string[],
  options: { cwd: string; permissions?: string[]; env?: Record<string, string> },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...(options.permissions ?? FULL), MAIN, ...args],
    cwd: options.cwd,
    env: { NO_COLOR: "1", ...options.env },
    stdin: "null",
  }).output();
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

Deno.test("boundary null for an argument with a default means the default", async () => {
  const root = await tempProject({ "a.txt": "a\nb\n" });
  const ctx = testContext(root);
  const list = await callJson(listFiles, { directory: null }, ctx);
  assert.equal(list.status, "ok");
  assert.equal(list.directory, ".");
  const read = await callJson(readFile, {
    filename: "a.txt",
    max_chars: null,
    binary_as_hex: null,
    line_numbers: null,
  }, ctx);
  assert.equal(read.status, "ok");
  assert.equal(read.content, "a\nb\n");
  const run = await callJson(shell, { command: "pwd", timeout: null, cwd: null }, ctx);
  assert.equal(run.status, "ok");
  assert.equal(run.output, `${root}\n`);
  // A required argument stays required.
  const missing = await callJson(readFile, { filename: null }, ctx);
  assert.equal(missing.status, "error");
  assert.match(String(missing.error), /filename: expected a string, got null/);
});

Deno.test("boundary names the wrong type and value instead of calling it missing", async () => {
  const root = await tempProject({ "a.txt": "a\n" });
  const ctx = testContext(root);
  const cases: [unknown, RegExp][] = [
    [{ directory: 5 }, /directory: expected a string, got 5/],
    [{ directory: ["a"] }, /directory: expected a string, got an array/],
  ];
  for (const [args, pattern] of cases) {
    const r = await callJson(listFiles, args, ctx);
    assert.equal(r.status, "error");
    assert.match(String(r.error), pattern);
    assert.doesNotMatch(String(r.error), /missing/);
  }
  const float = await callJson(readFile, { filename: "a.txt", start_line: 1.5 }, ctx);
  assert.match(String(float.error), /start_line: expected an integer, got 1\.5/);
  const text = await callJson(readFile, { filename: "a.txt", line_numbers: "true" }, ctx);
  assert.match(String(text.error), /line_numbers: expected true or false, got a string/);
  const absent = await callJson(readFile, {}, ctx);
  assert.match(String(absent.error), /filename: required, missing/);
  const five = await callJson(patchFile, {
    file_path: 1,
    from_line: "a",
    to_line: "b",
    content: 2,
    mode: "x",
  }, ctx);
  assert.match(String(five.error), /; and 1 more problem$/);
});

Deno.test("boundary states bounds exactly and once", async () => {
  const root = await tempProject({ "a.txt": "a\n" });
  const ctx = testContext(root);
  const zero = await callJson(shell, { command: "true", timeout: 0 }, ctx);
  assert.match(String(zero.error), /timeout: must be greater than 0/);
  const huge = await callJson(readFile, { filename: "a.txt", max_chars: 1e300 }, ctx);
  assert.equal(huge.error, "invalid arguments: max_chars: too large (at most 2000000)");
});

Deno.test("boundary shows OS error paths relative to the root and hides the rest", () => {
  const root = "/home/u/proj";
  assert.equal(
    scrubPaths("Is a directory (os error 21): open '/home/u/proj/src/x'", root),
    'Is a directory (os error 21): open "src/x"',
  );
  assert.equal(
    scrubPaths('Requires read access to "/etc/shadow"', root),
    "Requires read access to (a path outside the project)",
  );
  assert.equal(scrubPaths("open '/home/u/proj-evil/x'", root), "open (a path outside the project)");
});

Deno.test("boundary scrubs the root from an error no tool recognised, through the server", async () => {
  // `.localexec` is a file: reading the task store fails with the OS's own message, which names
  // the absolute path; what reaches the client names it relative to the root.
  const root = await tempProject({ "a.txt": "a\n", ".localexec": "not a folder\n" });
  const conn = await connectInProcess(root);
  try {
    for (const [tool, args] of [["list_tasks", {}], ["show_patch", { task_id: "A" }]] as const) {
      const out = await callMcp(conn.client, tool, args);
      assert.equal(out.status, "error", tool);
      assert.match(String(out.error), /Not a directory.*"\.localexec/, tool);
      assert.ok(!JSON.stringify(out).includes(root), `${tool}: ${JSON.stringify(out)}`);
    }
  } finally {
    await conn.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("boundary flags a tool's own error answer as isError, not only a thrown error", async () => {
  // implement_task answers a model host that is not there with its verdict (status "error"),
  // returned, not thrown.
  const root = await tempProject({
    "a.py": "x = 1\n",
    ".localexec.json": JSON.stringify({ model: "m", ollama_host: "http://127.0.0.1:9" }),
  });
  const conn = await connectInProcess(root);
  try {
    const result = await conn.client.callTool({
      name: "implement_task",
      arguments: { task_id: "E1", spec: "s", files_to_edit: ["a.py"] },
    });
    const json = JSON.parse((result.content as { text: string }[])[0].text);
    assert.equal(json.status, "error", JSON.stringify(json));
    assert.equal(result.isError, true);
    const ok = await conn.client.callTool({ name: "read_file", arguments: { filename: "a.py" } });
    assert.equal(ok.isError, undefined);
  } finally {
    await conn.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("paths refuse over-long names with a short error that leaks no absolute path", async () => {
  const root = await tempProject();
  const ctx = testContext(root);
  for (const name of ["x".repeat(300), `d/${"é".repeat(200)}`]) {
    const r = await callJson(readFile, { filename: name }, ctx);
    assert.equal(r.status, "error");
    assert.match(String(r.error), /has a name longer than 255 bytes/);
    assert.ok(!String(r.error).includes(root), String(r.error));
    assert.ok(JSON.stringify(r).length < 1000);
  }
  const deep = await callJson(readFile, { filename: "ab/".repeat(1360) + "f" }, ctx);
  assert.match(String(deep.error), /is longer than 4095 bytes/);
});

Deno.test("list_files marks fifos and keeps links to folders among the folders", async () => {
  const root = await tempProject({ "sub/a.txt": "a", "z.txt": "z" });
  await new Deno.Command("mkfifo", { args: [join(root, "pipe")] }).output();
  await Deno.symlink("sub", join(root, "link"));
  const r = await callJson(listFiles, {}, testContext(root));
  const entries = r.entries as string[];
  assert.match(entries.find((e) => e.endsWith("pipe"))!, /^p/);
  assert.deepEqual(entries.map((e) => e.split("  ").at(-1)), [
    "link/ -> sub",
    "sub/",
    "pipe",
    "z.txt",
  ]);
});

Deno.test("read_file names the link when its target does not exist", async () => {
  const root = await tempProject();
  await Deno.symlink("gone.txt", join(root, "dangling"));
  const r = await callJson(readFile, { filename: "dangling" }, testContext(root));
  assert.match(
    String(r.error),
    /file "gone.txt" does not exist \("dangling" leads there through a link\)/,
  );
  const plain = await callJson(readFile, { filename: "./nope.txt/" }, testContext(root));
  assert.match(String(plain.error), /^file "nope.txt" does not exist; use list_files/);
});

Deno.test("server schemas say unknown arguments are refused", async () => {
  const root = await tempProject();
  const conn = await connectInProcess(root);
  try {
    const { tools } = await conn.client.listTools();
    for (const tool of tools) {
      assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
    }
    const result = await conn.client.request(
      { method: "tools/call", params: { arguments: {} } } as never,
      (await import("@modelcontextprotocol/sdk/types.js")).CallToolResultSchema,
    );
    const json = JSON.parse((result.content[0] as { text: string }).text);
    assert.match(json.error, /tools\/call needs a tool name/);
  } finally {
    await conn.close();
  }
});

Deno.test("server offers run_python only when both sh and python3 may run", async () => {
  const root = await tempProject();
  const scoped = [`--allow-read=${root}`, `--allow-write=${root}`];
  const only = await connect(root, { permissions: [...scoped, "--allow-run=python3"] });
  try {
    const names = (await only.client.listTools()).tools.map((t) => t.name);
    assert.ok(!names.includes("run_python"), names.join());
    const off = await callMcp(only.client, "run_python", { code: "print(1)" });
    assert.match(String(off.error), /run_python" is off: needs run permission for sh and python3/);
  } finally {
    await only.close();
  }
  const both = await connect(root, { permissions: [...scoped, "--allow-run=sh,python3"] });
  try {
    const r = await callMcp(both.client, "run_python", { code: "print(6*7)" });
    assert.equal(r.output, "42\n");
  } finally {
    await both.close();
  }
});

Deno.test("run_python without python3 on PATH is an error that says so", async () => {
  const root = await tempProject();
  const bin = await Deno.makeTempDir({ prefix: "localexec-bin-" });
  try {
    await Deno.symlink("/bin/sh", join(bin, "sh"));
    const r = await _cli(["call", "run_python", '{"code":"print(1)"}'], {
      cwd: root,
      env: { PATH: bin },
    });
    assert.equal(r.code, 2);
    const json = JSON.parse(r.stdout);
    assert.equal(json.status, "error");
    assert.match(json.error, /python3 is not installed or not on PATH/);
  } finally {
    await Deno.remove(bin, { recursive: true });
  }
});

Deno.test("cli init without write permission says so in one line", async () => {
  const root = await tempProject();
  const r = await _cli(["init"], { cwd: root, permissions: [`--allow-read=${root}`] });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /init needs write permission \(--allow-write\)/);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /Uncaught|\bat /);
});

Deno.test("cli without read permission for the root serves no tools instead of exiting", async () => {
  const root = await tempProject({ "a.txt": "a" });
  const elsewhere = await tempProject();
  const conn = await connect(root, { permissions: [`--allow-read=${elsewhere}`] });
  try {
    assert.deepEqual((await conn.client.listTools()).tools, []);
    const r = await callMcp(conn.client, "read_file", { filename: "a.txt" });
    assert.match(String(r.error), /"read_file" is off: needs read permission \(--allow-read\)/);
  } finally {
    await conn.close();
  }
});

Deno.test("cli call with invalid JSON prints a JSON error and exits 2", async () => {
  const root = await tempProject();
  const r = await _cli(["call", "list_files", "{bad"], { cwd: root });
  assert.equal(r.code, 2);
  const json = JSON.parse(r.stdout);
  assert.equal(json.status, "error");
  assert.match(json.error, /not valid JSON/);
});

Deno.test("cli usage errors are one short line", async () => {
  const root = await tempProject();
  const cases: [string[], RegExp][] = [
    [["--bogus"], /^localexec: unknown option "--bogus" \(try --help\)$/],
    [["--root"], /^localexec: --root needs a value/],
    [["--read-only=yes"], /^localexec: --read-only does not take a value$/],
    [["--tools", "", "call", "list_files"], /^localexec: --tools needs at least one tool name/],
    [["--root", join(root, "nope")], /^localexec: root ".*nope" does not exist$/],
  ];
  for (const [args, pattern] of cases) {
    const r = await _cli(args, { cwd: root });
    assert.equal(r.code, 2, args.join(" "));
    assert.match(r.stderr.trim(), pattern);
  }
  const help = await _cli(["help"], { cwd: root });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage:/);
});

Deno.test("cli --config is relative to the current folder", async () => {
  const root = await tempProject({ "a.txt": "a" });
  const here = await tempProject({
    "my.json": JSON.stringify({ model: "m:1", checks: { t: { command: "true" } } }),
  });
  const r = await _cli(["--root", root, "--config", "my.json", "call", "status"], { cwd: here });
  const json = JSON.parse(r.stdout);
  assert.equal(json.model, "m:1");
});

Deno.test("read_file keeps every result within what the SDK client accepts", async () => {
  // 2,000,000 characters of "€" are 6 MB of UTF-8, twice in the message: over the SDK client's
  // 10 MiB line limit, which used to close the connection. Media up to the limit go through.
  const euro = ("€".repeat(99) + "\n").repeat(21_000);
  const video = new Uint8Array(7 * 1024 * 1024).fill(0xff);
  const root = await tempProject({
    "euro.txt": euro,
    "v.mp4": video,
    "ctl.txt": "\x01".repeat(1e6),
  });
  const conn = await connect(root, { permissions: [`--allow-read=${root}`] });
  try {
    const wide = await conn.client.callTool({
      name: "read_file",
      arguments: { filename: "euro.txt", max_chars: 2_000_000 },
    });
    const json = wide.structuredContent as Record<string, unknown>;
    assert.equal(json.status, "ok");
    assert.equal(json.truncated, true);
    assert.match(String(json.note), /result limit reached\); call again with start_line=\d+/);
    assert.equal(String(json.content), euro.slice(0, String(json.content).length));
    const ctl = await callMcp(conn.client, "read_file", {
      filename: "ctl.txt",
      max_chars: 2_000_000,
    });
    assert.match(String(ctl.note), /line 1 is 1000000 characters long and was cut at the 8 MB/);
    const media = await conn.client.callTool({
      name: "read_file",
      arguments: { filename: "v.mp4" },
    });
    const block = (media.content as { resource: { blob: string } }[])[1];
    assert.equal(block.resource.blob.length, 4 * Math.ceil(video.length / 3));
    // The server is still there.
    assert.equal((await callMcp(conn.client, "list_files", {})).status, "ok");
  } finally {
    await conn.close();
  }
});

/** A read-only test tool whose result is `{status: "ok", blob}`. */
function blobTool(blob: string) {
  return defineTool({
    name: "blob",
    title: "Blob",
    description: "test",
    input: z.object({}),
    output: z.looseObject({ status: z.string() }),
    needs: [],
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    run: () => Promise.resolve({ status: "ok", blob }),
  });
}

Deno.test("boundary refuses a result too large for one MCP message", async () => {
  const root = await tempProject();
  const r = await callJson(blobTool("\u0001".repeat(1_000_000)), {}, testContext(root));
  assert.equal(r.status, "error");
  assert.match(String(r.error), /the result would be \d+\.\d MB, over the 9\.5 MB/);
});

Deno.test("boundary measures a result near the limit exactly, both ways", async () => {
  // The quick bound (3 bytes per unit, the JSON twice) is over the limit for both: the first (4.2
  // MB on the wire) must pass, the second (10.4 MB: two-byte characters) must be refused.
  const root = await tempProject();
  const ascii = await callJson(blobTool("a".repeat(2_100_000)), {}, testContext(root));
  assert.equal(ascii.status, "ok");
  assert.equal(String(ascii.blob).length, 2_100_000);
  const wide = await callJson(blobTool("\u00e9".repeat(2_600_000)), {}, testContext(root));
  assert.equal(wide.status, "error");
  assert.match(String(wide.error), /the result would be 9\.9 MB, over the 9\.5 MB/);
});
