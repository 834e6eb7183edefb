import assert from "node:assert/strict";
import { callMcp, connect, connectInProcess } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { TOOL_NAMES, toolEntries } from "../../tools/mod.ts";

// The sets come from the registry and its manifest, never a list here: a new tool changes no test.
const ENTRIES = await toolEntries();
/** The tools that need nothing but read permission. */
const READ_TOOLS = ENTRIES.filter((e) => e.needs.every((n) => n === "read")).map((e) => e.name)
  .sort();
/** The tools marked read-only (what `--read-only` keeps). */
const READ_ONLY = ENTRIES.filter((e) => e.readOnly).map((e) => e.name).sort();

Deno.test("server lists only the read tools under --allow-read", async () => {
  const root = await tempProject({ "a.txt": "hi\n" });
  const conn = await connect(root, { permissions: [`--allow-read=${root}`] });
  try {
    const { tools } = await conn.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), READ_TOOLS);
    assert.ok(READ_TOOLS.includes("read_file") && !READ_TOOLS.includes("write_file"));
  } finally {
    await conn.close();
  }
});

Deno.test("server lists every registered tool under full permissions", async () => {
  const root = await tempProject();
  const conn = await connect(root);
  try {
    const { tools } = await conn.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
    for (const t of tools) {
      assert.equal(t.annotations?.openWorldHint, false, t.name);
      assert.ok(t.description && t.description.length > 40, t.name);
      assert.equal(t.inputSchema.type, "object");
    }
  } finally {
    await conn.close();
  }
});

Deno.test("server --read-only and --tools narrow the set", async () => {
  const root = await tempProject();
  const ro = await connect(root, { args: ["--read-only"] });
  try {
    const names = (await ro.client.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(names, READ_ONLY);
    assert.ok(READ_ONLY.includes("read_file") && !READ_ONLY.includes("write_file"));
  } finally {
    await ro.close();
  }
  const some = await connect(root, { args: ["--tools", "read_file,shell"] });
  try {
    const names = (await some.client.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(names, ["read_file", "shell"]);
    const off = await callMcp(some.client, "write_file", { file_path: "x", content: "y" });
    assert.equal(off.status, "error");
    assert.match(String(off.error), /off: not in --tools/);
  } finally {
    await some.close();
  }
});

Deno.test("server answers bad arguments with short JSON and keeps serving", async () => {
  const root = await tempProject();
  const conn = await connectInProcess(root);
  try {
    const big = "x".repeat(5 * 1024 * 1024);
    for (const args of [{ directory: 5 }, { nope: 1 }, { directory: big }]) {
      const out = await callMcp(conn.client, "list_files", args);
      assert.equal(out.status, "error");
      assert.ok(JSON.stringify(out).length < 1000);
    }
    const { tools } = await conn.client.listTools();
    assert.ok(tools.length > 0);
  } finally {
    await conn.close();
  }
});

Deno.test("server answers a tool that is off with that tool's own error fields", async () => {
  const root = await tempProject();
  const conn = await connect(root, { permissions: [`--allow-read=${root}`] });
  try {
    const out = await callMcp(conn.client, "implement_task", {
      task_id: "T1",
      spec: "x",
      files_to_edit: ["a.py"],
    });
    assert.equal(out.status, "error");
    assert.match(String(out.error), /is off: needs write permission/);
    assert.equal(out.attempts, 0);
    assert.equal(typeof out.why, "string");
    assert.equal(out.escalate, false);
  } finally {
    await conn.close();
  }
});
