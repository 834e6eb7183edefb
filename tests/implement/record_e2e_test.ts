/**
 * The delegation record end to end: a dozen tasks on a two-rung ladder (a scripted Ollama with two
 * models), then `status.record` against what this test computes from the task records themselves.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { startFakeOllama } from "../helpers/fake_ollama.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { CALC, FIX_ADD, FIX_WRONG, WORSE_ADD, WRONG_ADD } from "../helpers/calc.ts";

const SMALL = "small-coder:1b";
const BIG = "big-coder:32b";

/** Rows as this test computes them from the records, independently of lib/tasks/stats.ts. */
function expectedRows(records: Record<string, unknown>[]) {
  const lang = (f: string) =>
    f.endsWith(".py") ? "python" : f.endsWith(".ts") ? "typescript" : "other";
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of records) {
    const kind = [...new Set((r.files as string[]).map(lang))].sort().join("+");
    const key = `${r.model}\u0000${kind}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const med = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    return Math.round(m * 100) / 100;
  };
  return [...groups].map(([key, list]) => {
    const [model, kind] = key.split("\u0000");
    const passed = list.filter((r) => r.status === "passed");
    return {
      model,
      kind,
      tasks: list.length,
      passed: passed.length,
      first_try: passed.filter((r) => r.attempts === 1 && !r.tried).length,
      median_attempts: med(list.map((r) => r.attempts as number)),
      median_seconds: med(list.map((r) => r.secs as number)),
      escalated: list.filter((r) => r.escalate === true).length,
      // What the passed tasks saved the caller, each passed record's figures summed.
      call_tokens: passed.reduce((n, r) => n + (r.call_tokens as number), 0),
      self_tokens: passed.reduce((n, r) => n + (r.self_tokens as number), 0),
    };
  }).sort((a, b) =>
    b.tasks - a.tasks || a.model.localeCompare(b.model) || a.kind.localeCompare(b.kind)
  );
}

Deno.test("record: after a dozen tasks status.record matches the task records exactly", async () => {
  const fake = await startFakeOllama({
    models: [{ name: SMALL, contextLength: 32768 }, { name: BIG, contextLength: 32768 }],
  });
  const root = await tempProject({
    "calc.py": CALC,
    ".localexec.json": JSON.stringify({
      ollama_host: fake.url,
      max_attempts: 2,
      checks: {
        tests: { command: "grep -q 'return a + b' calc.py || { echo 'FAIL test_add'; exit 1; }" },
      },
      ladder: [{ model: SMALL }, { model: BIG }],
    }),
  });
  const conn = await connect(root);
  const run = async (id: string, files: string[], replies: string[], extra = {}) => {
    await Deno.writeTextFile(join(root, "calc.py"), CALC);
    fake.script(...replies);
    return await callMcp(conn.client, "implement_task", {
      task_id: id,
      spec: "add(a, b) must return a + b",
      files_to_edit: files,
      ...extra,
    });
  };
  try {
    const py = ["calc.py"];
    const statuses: unknown[] = [];
    for (const id of ["P1", "P2", "P3", "P4"]) statuses.push((await run(id, py, [FIX_ADD])).status);
    for (const id of ["P5", "P6"]) {
      statuses.push((await run(id, py, [WRONG_ADD, FIX_WRONG])).status);
    }
    statuses.push((await run("P7", py, [WRONG_ADD, WORSE_ADD, FIX_ADD])).status);
    statuses.push((await run("P8", py, [FIX_ADD], { model: BIG })).status);
    statuses.push((await run("P9", py, ["QUESTION: add or concatenate?"])).status);
    statuses.push((await run("P10", py, [WRONG_ADD, WORSE_ADD, WRONG_ADD, WORSE_ADD])).status);
    for (const id of ["T1", "T2"]) {
      statuses.push(
        (await run(id, [`${id}.ts`], [`${id}.ts\n\`\`\`ts\nexport const x = 1;\n\`\`\`\n`], {
          checks: [],
        })).status,
      );
    }
    assert.deepEqual(statuses, [
      "passed",
      "passed",
      "passed",
      "passed",
      "passed",
      "passed",
      "passed",
      "passed",
      "blocked",
      "failed",
      "passed",
      "passed",
    ]);
    const records: Record<string, unknown>[] = [];
    for (const id of ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10", "T1", "T2"]) {
      records.push(JSON.parse(await Deno.readTextFile(join(root, ".localexec", `${id}.json`))));
    }
    const status = await callMcp(conn.client, "status", {});
    assert.equal(status.status, "ok", JSON.stringify(status));
    const rows = expectedRows(records);
    assert.deepEqual(status.record, rows);
    // And the figures themselves, for the small model's Python tasks.
    assert.deepEqual(
      rows.filter((r) => r.model === SMALL && r.kind === "python").map((r) => [
        r.tasks,
        r.passed,
        r.first_try,
        r.median_attempts,
      ]),
      [[7, 6, 4, 1]],
    );
    assert.deepEqual(rows.find((r) => r.model === BIG && r.kind === "python"), {
      ...rows.find((r) => r.model === BIG && r.kind === "python"),
      tasks: 3,
      passed: 2,
      first_try: 1,
      escalated: 1,
    });
  } finally {
    await conn.close();
    await fake.close();
    await Deno.remove(root, { recursive: true });
  }
});
