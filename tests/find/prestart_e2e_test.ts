/**
 * A server readies find at its first quiet moment: the search worker starts after `tools/list` has
 * been answered and no request has come for a while, not inside the first find (where `new Worker`
 * held the thread, and every call beside the find, until the worker was up), and not before the
 * first answers (start-up does not pay for it). It stays for the next searches.
 */
import assert from "node:assert/strict";
import { callMcp, connect, FULL, MAIN } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";

/** The worker threads of process `pid` (Deno names them `worker-N`; Linux `/proc`). */
function _workers(pid: number): number {
  let n = 0;
  for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      if (Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/comm`).startsWith("worker-")) n++;
    } catch {
      // ended meanwhile
    }
  }
  return n;
}

async function _until(test: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; !test() && Date.now() < end;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return test();
}

Deno.test({
  name: "a server starts find's worker once it is quiet after tools/list, before the first find",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const root = await tempProject({ "a.txt": "needle\n", "b.txt": "hay\n" });
    const conn = await connect(root);
    try {
      const pid = conn.transport.pid!;
      await new Promise((resolve) => setTimeout(resolve, 600));
      assert.equal(_workers(pid), 0, "nothing started before the first answer");
      await conn.client.listTools();
      assert.ok(await _until(() => _workers(pid) === 1, 20_000), "the worker starts when idle");
      const found = await callMcp(conn.client, "find", { pattern: "needle" });
      assert.equal(found.count, 1);
      assert.equal(_workers(pid), 1, "the find used the worker already there");
    } finally {
      await conn.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "a server without find starts no search worker",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const root = await tempProject({ "a.txt": "a\n" });
    const conn = await connect(root, { args: ["--tools", "read_file,list_files"] });
    try {
      const pid = conn.transport.pid!;
      await conn.client.listTools();
      await callMcp(conn.client, "list_files", {});
      await new Promise((resolve) => setTimeout(resolve, 1500)); // well past the quiet moment
      assert.equal(_workers(pid), 0);
    } finally {
      await conn.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "a server whose search worker is up still ends by itself once stdin closes",
  ignore: Deno.build.os !== "linux",
  async fn() {
    // The worker is a web worker, which keeps a process up while it lives: the server ends it.
    const root = await tempProject({ "a.txt": "needle 42\n" });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", ...FULL, MAIN, "--root", root],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const writer = child.stdin.getWriter();
    let seen = "";
    const answer = async (id: number) => {
      while (!seen.includes(`"id":${id}`)) seen += (await lines.read()).value ?? "";
    };
    const send = (message: object) =>
      writer.write(new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n"));
    try {
      await send({
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t" } },
      });
      await answer(1);
      await send({ method: "notifications/initialized" });
      await send({ id: 2, method: "tools/list" });
      await answer(2);
      assert.ok(await _until(() => _workers(child.pid) === 1, 20_000), "the worker starts");
      const args = { pattern: "needle \\d+" }; // a regular expression: the worker searches it
      await send({ id: 3, method: "tools/call", params: { name: "find", arguments: args } });
      await answer(3);
      assert.match(seen, /needle 42/);
      await writer.close();
      const ended = await Promise.race([
        child.status.then(() => true),
        new Promise((resolve) => setTimeout(resolve, 20_000, false)),
      ]);
      assert.ok(ended, "the server is still running 20 s after stdin closed");
      assert.equal((await child.status).code, 0);
    } finally {
      try {
        child.kill();
      } catch {
        // ended
      }
      await child.status;
      await lines.cancel().catch(() => {});
      await Deno.remove(root, { recursive: true });
    }
  },
});
