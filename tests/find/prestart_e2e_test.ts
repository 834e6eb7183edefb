/**
 * A server readies find at its first quiet moment: the search worker starts after `tools/list` has
 * been answered and no request has come for a while, not inside the first find (where `new Worker`
 * held the thread, and every call beside the find, until the worker was up), and not before the
 * first answers (start-up does not pay for it). It stays for the next searches.
 */
import assert from "node:assert/strict";
import { callMcp, connect } from "../helpers/mcp.ts";
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
