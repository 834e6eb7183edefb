/**
 * revert_task from a second server on a task the first still runs (docs/HARDENING.md, "Your edits
 * while a task runs"): the second asks the first to stop the task, waits for it to stop, and only
 * then reverts; the task lands nothing afterwards, in the tree or in a workspace. Before, the
 * revert ran at once and the task landed after it (the record said reverted), or answered passed
 * while the tree held the original.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { workspaceBase } from "../../lib/tasks/mod.ts";
import { startFakeOllama } from "../helpers/fake_ollama.ts";
import { callMcp, connect, connectInProcess } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { block, MODEL } from "../helpers/calc.ts";

const A = "A = 0\n";

for (const where of ["tree", "workspace"] as const) {
  Deno.test(`revert elsewhere (${where}): the running task is stopped first and lands nothing after`, async () => {
    const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
    const out = await Deno.makeTempDir({ prefix: "localexec-elsewhere-" });
    const root = await tempProject({
      "a.py": A,
      "c.py": "C = 0\n",
      ".localexec.json": JSON.stringify({
        model: MODEL,
        ollama_host: fake.url,
        parallel: 4,
        checks: {
          probe: {
            command: `touch ${out}/checking; while [ ! -e ${out}/go ]; do sleep 0.02; done`,
            timeout_s: 60,
          },
        },
      }),
    });
    const first = await connectInProcess(root);
    const second = await connect(root);
    let releaseBlocker: (() => void) | undefined;
    try {
      let blocker: Promise<unknown> | undefined;
      if (where === "workspace") {
        const gate = new Promise<void>((r) => releaseBlocker = r);
        fake.script(async () => {
          await gate;
          return block("c.py", "C = 0\n", "C = 1\n");
        });
        blocker = callMcp(first.client, "implement_task", {
          task_id: "BLOCK",
          spec: "blocker",
          files_to_edit: ["c.py"],
          checks: [],
        });
        await fake.waitForChats(1);
      }
      fake.script(block("a.py", A, "A = 1\n"));
      const running = callMcp(first.client, "implement_task", {
        task_id: "T1",
        spec: "set A to 1",
        files_to_edit: ["a.py"],
      });
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        try {
          Deno.statSync(join(out, "checking"));
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      const dry = await callMcp(second.client, "revert_task", { task_id: "T1", dry_run: true });
      assert.match(String(dry.note), /running in another localexec server/);
      const reverted = await callMcp(second.client, "revert_task", { task_id: "T1" });
      const verdict = await running;
      assert.equal(verdict.status, "error", JSON.stringify(verdict));
      assert.match(String(verdict.error), /cancelled/);
      assert.match(String(reverted.status), /reverted/, JSON.stringify(reverted));
      assert.equal(Deno.readTextFileSync(join(root, "a.py")), A);
      // Nothing lands later: the check is released and the blocker ends.
      Deno.writeTextFileSync(join(out, "go"), "");
      releaseBlocker?.();
      await blocker;
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(Deno.readTextFileSync(join(root, "a.py")), A);
      const list = await callMcp(second.client, "list_tasks", {});
      assert.doesNotMatch(JSON.stringify(list), /T1 running/);
    } finally {
      // A held check ends even when an assertion failed (an in-process server has no watchdog).
      Deno.writeTextFileSync(join(out, "go"), "");
      releaseBlocker?.();
      await second.close();
      await first.close();
      await fake.close();
      await Deno.remove(root, { recursive: true });
      await Deno.remove(out, { recursive: true });
      await Deno.remove(workspaceBase(root), { recursive: true }).catch(() => {});
    }
  });
}
