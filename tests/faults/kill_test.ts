/**
 * Kills at varied moments: a real server runs implement_task (a scripted Ollama reply edits
 * calc.py and creates newdir/deeper/new.py, then a check runs) and is SIGKILLed at one moment of
 * the run, spotted on disk by a worker spinning on the tree; a fresh server then reverts the task.
 * The tree must come back byte for byte, modes included, with no temporary file or folder left.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { block, CALC, MODEL } from "../helpers/calc.ts";
import { startFakeOllama } from "../helpers/fake_ollama.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { CAN_RUN, figures, size } from "./suite.ts";

/** The moments a kill lands on, as the worker spots them (see kill_worker.ts). */
const MOMENTS = [
  "calc.py changed",
  "newdir appears",
  "temp file of calc.py",
  "temp file in newdir/deeper",
  "new.py appears",
  "record +0ms",
  "record +5ms",
  "record +20ms",
  "backups made",
  "during the check",
];

/** Every path under `root` but `.localexec/`, with its mode and content. */
async function _snapshot(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(join(root, rel))) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (p === ".localexec") continue;
      const info = await Deno.lstat(join(root, p));
      if (info.isDirectory) {
        out.set(`${p}/`, "folder");
        await walk(p);
      } else {
        const mode = (info.mode ?? 0) & 0o7777;
        out.set(p, `${mode}:${await Deno.readTextFile(join(root, p))}`);
      }
    }
  };
  await walk("");
  return out;
}

const BIG = Array.from({ length: 200 }, (_, i) => `x${i} = ${i}  # a line to widen the window\n`)
  .join("");

Deno.test({
  name: "faults a server killed at any moment of a task reverts byte for byte",
  ignore: !CAN_RUN,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const kills = size(4, 20);
    let exact = 0, reverted = 0, tempsAtKill = 0, strays = 0;
    const rows: string[] = [];
    for (let k = 0; k < kills; k++) {
      const moment = MOMENTS[(k * (size(3, 1))) % MOMENTS.length];
      const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
      const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-kill-" }));
      await Deno.writeTextFile(join(root, "calc.py"), CALC);
      await Deno.chmod(join(root, "calc.py"), 0o640);
      await Deno.writeTextFile(
        join(root, ".localexec.json"),
        JSON.stringify({
          model: MODEL,
          ollama_host: fake.url,
          checks: { slow: { command: "sleep 2", timeout_s: 30 } },
        }),
      );
      const before = await _snapshot(root);
      fake.script(
        block(
          "calc.py",
          "def add(a, b):\n    return a - b\n",
          "def add(a, b):\n    return a + b\n",
        ) +
          "\n" + block("newdir/deeper/new.py", "", BIG),
      );
      const conn = await connect(root);
      const pid = conn.transport.pid!;
      const worker = new Worker(new URL("kill_worker.ts", import.meta.url), { type: "module" });
      const seen = new Promise<{ tempAtKill: boolean }>((r) => worker.onmessage = (e) => r(e.data));
      worker.postMessage({ root, moment, pid, calc: CALC });
      conn.client.callTool({
        name: "implement_task",
        arguments: {
          task_id: "T1",
          spec: "fix add and add new.py",
          files_to_edit: ["calc.py", "newdir/deeper/new.py"],
        },
      }).catch(() => {});
      const { tempAtKill } = await seen;
      worker.terminate();
      await conn.close().catch(() => {});
      if (tempAtKill) tempsAtKill++;
      const fresh = await connect(root);
      const r = await callMcp(fresh.client, "revert_task", { task_id: "T1" });
      await fresh.close();
      const after = await _snapshot(root);
      const same = before.size === after.size && [...before].every(([p, v]) => after.get(p) === v);
      const stray = [...after.keys()].filter((p) => !before.has(p));
      if (r.status === "reverted") reverted++;
      if (same) exact++;
      strays += stray.length;
      rows.push(
        `${moment}${tempAtKill ? " (temp file present)" : ""}: ${r.status}, ${
          same ? "byte-identical" : `differs: ${stray.join(", ")}`
        }`,
      );
      await fake.close();
      await Deno.remove(root, { recursive: true });
    }
    figures("kills during implement_task, then revert_task", {
      kills,
      temp_files_present_at_kill: tempsAtKill,
      reverted,
      byte_identical: exact,
      stray_paths: strays,
    });
    assert.equal(exact, kills, rows.join("\n"));
    assert.equal(reverted, kills, rows.join("\n"));
  },
});
