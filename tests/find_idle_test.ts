/**
 * find's memory goes back when find is idle: its search worker ends and its listing goes, and the
 * next find lists anew and answers as before (`lib/mcp/find_idle.ts`, a short idle time set through
 * `LOCALEXEC_FIND_IDLE_MS`).
 */
import assert from "node:assert/strict";
import { callMcp, connect } from "./helpers/mcp.ts";
import { tempProject } from "./helpers/project.ts";
import { workerThreads } from "./helpers/proc.ts";

const _workers = workerThreads;

/** Waits until `ok()` holds (events, not a time: the bound only keeps a broken build finite). */
async function _until(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(ok(), what);
}

Deno.test("find's worker ends when find has been idle, and the next find lists anew and answers", async () => {
  // Text files only: no find here matches a file outline reads, so no outline worker starts.
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) files[`notes/f${i}.txt`] = `hello ${i}\n`;
  const root = await tempProject(files);
  const conn = await connect(root, { env: { LOCALEXEC_FIND_IDLE_MS: "400" } });
  try {
    const pid = conn.transport.pid!;
    const first = await callMcp(conn.client, "find", { pattern: "hello 7$" });
    assert.deepEqual(first.matches, ["notes/f7.txt:1:hello 7"]);
    assert.ok(_workers(pid) >= 1, "find's worker is up after a find");
    await _until(() => _workers(pid) === 0, "find's worker ended once find was idle");
    await Deno.writeTextFile(`${root}/notes/new.txt`, "hello 7\n"); // a listing made anew sees it
    const again = await callMcp(conn.client, "find", { pattern: "hello 7$" });
    assert.deepEqual(again.matches, ["notes/f7.txt:1:hello 7", "notes/new.txt:1:hello 7"]);
    await _until(() => _workers(pid) === 0, "and ends again after the next find");
  } finally {
    await conn.close();
  }
});
