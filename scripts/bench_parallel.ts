/**
 * Parallel tasks benchmark: three disjoint implement_task calls with a check, against one alone,
 * driven as a client drives them — each call with `wait_s` 0 (it answers `running`), then one
 * wait_tasks for the verdicts — over stdio with the real server and a scripted Ollama on loopback
 * whose model takes `--model-ms` per chat (`parallel` 3: the host serves the three at once). The
 * check sleeps `--check-s` and counts its runs. Rounds interleave one task alone and three at once;
 * the figures are medians, the ratio is three-at-once over alone, and the check runs are counted
 * per round of three (three alone, plus one shared run when they check again together).
 *
 * Run: `deno task bench parallel [--runs N] [--model-ms MS] [--check-s S]`. Prints figures;
 * asserts nothing.
 */
import { join } from "../lib/deps.ts";
import { workspaceBase } from "../lib/tasks/mod.ts";
import { startFakeOllama } from "../tests/helpers/fake_ollama.ts";
import { callMcp, connect } from "../tests/helpers/mcp.ts";
import { tempProject } from "../tests/helpers/project.ts";

const args = { runs: 5, "model-ms": 1000, "check-s": 0.4 };
for (let i = 0; i < Deno.args.length; i += 2) {
  const m = /^--(runs|model-ms|check-s)$/.exec(Deno.args[i]);
  if (!m) {
    console.error(`unknown argument ${Deno.args[i]}`);
    Deno.exit(2);
  }
  args[m[1] as keyof typeof args] = Number(Deno.args[i + 1]);
}

const MODEL = "bench-coder:7b";
const fake = await startFakeOllama({
  models: [{ name: MODEL, contextLength: 32768 }],
  modelMs: args["model-ms"],
});
const out = await Deno.makeTempDir({ prefix: "localexec-bench-par-" });
const counter = join(out, "runs");
const files: Record<string, string> = {};
for (const n of [1, 2, 3, 4]) files[`m${n}.py`] = `V${n} = 0\n`;
const root = await tempProject({
  ...files,
  ".localexec.json": JSON.stringify({
    model: MODEL,
    ollama_host: fake.url,
    max_attempts: 1,
    parallel: 3,
    checks: { probe: { command: `sleep ${args["check-s"]}; echo run >> ${counter}` } },
  }),
});
fake.answer = (req) => {
  const [, n, v] = /task (\d): set it to (\d+)/.exec(JSON.stringify(req.messages))!;
  const was = Deno.readTextFileSync(join(root, `m${n}.py`));
  return `m${n}.py\n<<<<<<< SEARCH\n${was}=======\nV${n} = ${v}\n>>>>>>> REPLACE\n`;
};
const conn = await connect(root);
const runs = () => {
  try {
    return Deno.readTextFileSync(counter).split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
};
let seq = 0;
/** Starts tasks on `ns` with wait_s 0, collects them with wait_tasks; answers ms and check runs. */
async function round(ns: number[]): Promise<{ ms: number; checks: number; passed: number }> {
  const before = runs();
  const began = performance.now();
  const ids: string[] = [];
  for (const n of ns) {
    const id = `P${++seq}`;
    ids.push(id);
    await callMcp(conn.client, "implement_task", {
      task_id: id,
      spec: `task ${n}: set it to ${seq}`,
      files_to_edit: [`m${n}.py`],
      wait_s: 0,
    });
  }
  const got = await callMcp(conn.client, "wait_tasks", { task_ids: ids });
  const ms = performance.now() - began;
  const passed = (got.finished as { status: string }[]).filter((v) => v.status === "passed").length;
  return { ms, checks: runs() - before, passed };
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  await round([4]); // warm-up: the server's first task, and its standby copy
  await round([1, 2, 3]);
  const alone: number[] = [];
  const three: number[] = [];
  const checks: number[] = [];
  let passed = 0;
  for (let i = 0; i < args.runs; i++) {
    alone.push((await round([4])).ms);
    const r = await round([1, 2, 3]);
    three.push(r.ms);
    checks.push(r.checks);
    passed += r.passed;
  }
  console.log(JSON.stringify(
    {
      bench: "parallel",
      runs: args.runs,
      model_ms: args["model-ms"],
      check_s: args["check-s"],
      alone_ms: Math.round(median(alone)),
      three_ms: Math.round(median(three)),
      ratio: +(median(three) / median(alone)).toFixed(2),
      ratios: three.map((t, i) => +(t / alone[i]).toFixed(2)),
      check_runs_per_three: checks,
      passed: `${passed}/${3 * args.runs}`,
    },
    null,
    1,
  ));
} finally {
  await conn.close();
  await fake.close();
  await Deno.remove(workspaceBase(root), { recursive: true }).catch(() => {});
  await Deno.remove(root, { recursive: true });
  await Deno.remove(out, { recursive: true });
}
