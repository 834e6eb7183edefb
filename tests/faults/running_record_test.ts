/**
 * A server SIGKILLed right after implement_task answered `running`: the task has a record, so
 * list_tasks shows it (interrupted) and revert_task knows it. Before, 14 of 72 such tasks had none.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { MODEL } from "../helpers/calc.ts";
import { startFakeOllama } from "../helpers/fake_ollama.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { CAN_RUN, figures, size } from "./suite.ts";

Deno.test({
  name: "faults a task answered running has a record, even when the server dies at once",
  ignore: !CAN_RUN,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tries = size(3, 20);
    const fake = await startFakeOllama({
      models: [{ name: MODEL, contextLength: 32768 }],
      modelMs: 60_000,
    });
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-rec-" }));
    Deno.writeTextFileSync(join(root, "a.py"), "A = 0\n");
    Deno.writeTextFileSync(
      join(root, ".localexec.json"),
      JSON.stringify({ model: MODEL, ollama_host: fake.url }),
    );
    let recorded = 0;
    try {
      for (let i = 0; i < tries; i++) {
        const conn = await connect(root);
        const v = await callMcp(conn.client, "implement_task", {
          task_id: `R${i}`,
          spec: "set A to 1",
          files_to_edit: ["a.py"],
          wait_s: 0,
        });
        Deno.kill(conn.transport.pid!, "SIGKILL");
        await conn.close().catch(() => {});
        assert.equal(v.status, "running", JSON.stringify(v));
        try {
          Deno.statSync(join(root, `.localexec/R${i}.json`));
          recorded++;
        } catch {
          // no record: counted below
        }
      }
      const fresh = await connect(root);
      const list = await callMcp(fresh.client, "list_tasks", {}) as { tasks: string[] };
      const revert = await callMcp(fresh.client, "revert_task", { task_id: "R0" });
      await fresh.close();
      figures("a kill right after `running`", { tries, recorded });
      assert.equal(recorded, tries);
      assert.ok(list.tasks.some((t) => t.startsWith("R0 interrupted")), JSON.stringify(list));
      assert.notEqual(revert.status, "error", JSON.stringify(revert));
      assert.equal(Deno.readTextFileSync(join(root, "a.py")), "A = 0\n");
    } finally {
      await fake.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
