/**
 * What a server leaves until after its first answers: the watchdog's `sh` starts with the first
 * command, and the temporary files killed runs left behind are removed once `tools/list` (or a
 * call, or the end of the session) has been answered, not before.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { applyFiles, beginTask, updateTask } from "../../lib/tasks/mod.ts";
import { callMcp, connect, FULL, MAIN } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { TOOL_NAMES } from "../../tools/mod.ts";

/** The child processes of `pid` whose command line contains `text` (Linux `/proc`). */
function _children(pid: number, text: string): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`).replaceAll("\0", " ");
      if (ppid === pid && cmd.includes(text)) out.push(Number(e.name));
    } catch {
      // gone already
    }
  }
  return out;
}

/** A task whose run was killed between creating a temporary file and renaming it. */
async function _staleTemp(root: string): Promise<string> {
  await beginTask(root, { id: "K1", spec: "s", files: ["a.py", "new.py"] });
  await applyFiles(root, "K1", new Map([["a.py", "task\n"]]));
  const temp = ".new.py.0123abcd.localexec-tmp";
  await updateTask(root, "K1", (r) => ({ temps: [...(r.temps ?? []), temp], pid: 999_999_999 }));
  await Deno.writeTextFile(join(root, temp), "new content\n");
  return temp;
}

async function _gone(path: string, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until;) {
    if (!(await Deno.lstat(path).then(() => true, () => false))) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

Deno.test({
  name: "a server starts its watchdog with the first command, not before its first answers",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const root = await tempProject({ "a.txt": "a\n" });
    const conn = await connect(root);
    try {
      const pid = conn.transport.pid!;
      assert.equal((await conn.client.listTools()).tools.length, TOOL_NAMES.length);
      assert.deepEqual(_children(pid, "localexec-watchdog"), [], "no command yet");
      assert.equal((await callMcp(conn.client, "shell", { command: "true" })).status, "ok");
      assert.equal(_children(pid, "localexec-watchdog").length, 1, "started with the command");
      await callMcp(conn.client, "shell", { command: "true" });
      assert.equal(_children(pid, "localexec-watchdog").length, 1, "and only one");
    } finally {
      await conn.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("a server removes the temporary files of killed runs once tools/list is answered", async () => {
  const root = await tempProject({ "a.py": "orig\n" });
  const temp = await _staleTemp(root);
  const conn = await connect(root);
  try {
    await conn.client.listTools();
    assert.ok(await _gone(join(root, temp), 10_000), "removed after the first answer");
  } finally {
    await conn.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a server the client asks nothing still removes them before it exits", async () => {
  const root = await tempProject({ "a.py": "orig\n" });
  const temp = await _staleTemp(root);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...FULL, MAIN, "--root", root],
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  await child.stdin.close(); // no request at all
  assert.equal((await child.status).code, 0);
  await assert.rejects(() => Deno.lstat(join(root, temp)), Deno.errors.NotFound);
  await Deno.remove(root, { recursive: true });
});
