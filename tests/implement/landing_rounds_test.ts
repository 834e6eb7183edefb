/**
 * Landing rounds end to end (docs/ARCHITECTURE.md, "Parallel tasks"): three disjoint tasks with
 * a check, started with `wait_s` 0 and collected with wait_tasks as a client does, over stdio with
 * the real server. Each checks once alone; those whose checks ran before another landed check
 * again once, together: four runs of the check, where each checking again alone took six. The
 * wall times (three tasks against one) are printed, not asserted: `deno task bench parallel`
 * measures them interleaved.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { workspaceBase } from "../../lib/tasks/mod.ts";
import { startFakeOllama } from "../helpers/fake_ollama.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { block, MODEL } from "../helpers/calc.ts";

/** The model's time per chat, in ms, and the check's, in seconds. */
const MODEL_MS = 1200;
const CHECK_S = 0.4;

Deno.test("rounds: three tasks landing together check again once, together", async () => {
  const fake = await startFakeOllama({
    models: [{ name: MODEL, contextLength: 32768 }],
    modelMs: MODEL_MS,
  });
  const out = await Deno.makeTempDir({ prefix: "localexec-rounds-" });
  const runs = join(out, "runs");
  const files: Record<string, string> = {};
  for (const n of [1, 2, 3, 4]) files[`m${n}.py`] = `V${n} = 0\n`;
  const root = await tempProject({
    ...files,
    ".localexec.json": JSON.stringify({
      model: MODEL,
      ollama_host: fake.url,
      max_attempts: 1,
      parallel: 3,
      checks: { probe: { command: `sleep ${CHECK_S}; echo run >> ${runs}`, timeout_s: 60 } },
    }),
  });
  const conn = await connect(root);
  const count = () => {
    try {
      return Deno.readTextFileSync(runs).split("\n").filter(Boolean).length;
    } catch {
      return 0;
    }
  };
  const start = (n: number) =>
    callMcp(conn.client, "implement_task", {
      task_id: `R${n}`,
      spec: `task ${n}: set V${n} to 1`,
      files_to_edit: [`m${n}.py`],
      wait_s: 0,
    });
  fake.answer = (req) => {
    const n = /task (\d): set/.exec(JSON.stringify(req.messages))![1];
    return block(`m${n}.py`, `V${n} = 0\n`, `V${n} = 1\n`);
  };
  try {
    // One task alone, as the reference.
    let began = performance.now();
    assert.equal((await start(4)).status, "running");
    const alone = await callMcp(conn.client, "wait_tasks", { task_ids: ["R4"] });
    const oneMs = performance.now() - began;
    assert.equal((alone.finished as { status: string }[])[0].status, "passed");
    assert.equal(count(), 1);
    // Three at once.
    began = performance.now();
    for (const n of [1, 2, 3]) assert.equal((await start(n)).status, "running");
    const waited = await callMcp(conn.client, "wait_tasks", { task_ids: ["R1", "R2", "R3"] });
    const threeMs = performance.now() - began;
    const finished = waited.finished as { task_id: string; status: string; why: string }[];
    assert.equal(finished.length, 3, JSON.stringify(waited));
    for (const v of finished) assert.equal(v.status, "passed", JSON.stringify(v));
    for (const n of [1, 2, 3]) {
      assert.equal(Deno.readTextFileSync(join(root, `m${n}.py`)), `V${n} = 1\n`);
    }
    const checks = count() - 1;
    console.log(
      `ROUNDS ${
        JSON.stringify({
          one_ms: Math.round(oneMs),
          three_ms: Math.round(threeMs),
          ratio: +(threeMs / oneMs).toFixed(2),
          check_runs: checks,
        })
      }`,
    );
    // Three checks alone, then one round: the first to land needs none, the other two share one.
    assert.ok(checks <= 4, `the check ran ${checks} times for three tasks`);
  } finally {
    await conn.close();
    await fake.close();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(out, { recursive: true });
    await Deno.remove(workspaceBase(root), { recursive: true }).catch(() => {});
  }
});
