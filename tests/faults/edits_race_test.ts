/**
 * A user edits the task's file at a random moment of a task — while the model writes, after an
 * attempt's write, during the check, during the landing — with an editor (a plain in-place
 * save), write_file or patch_file over MCP, in the tree and in a workspace, with the check passing
 * and failing, half the edits far from the task's lines and half beside them. After the verdict
 * the user's line is in the file, and after revert_task it still is: never lost. The long form
 * (`deno task test:faults`) runs 20 timed tries of each kind with two CPU hogs beside it.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { workspaceBase } from "../../lib/tasks/mod.ts";
import { block, MODEL } from "../helpers/calc.ts";
import { startFakeOllama } from "../helpers/fake_ollama.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { CAN_RUN, figures, LONG, size, sleep } from "./suite.ts";

const BASE =
  "def one():\n    return 0\n\n\ndef two():\n    return 2\n\n\ndef three():\n    return 3\n";
const TASK = block("a.py", "def one():\n    return 0\n", "def one():\n    return 1\n");

type Writer = "editor" | "write_file" | "patch_file";

/** The kinds the short form tries (where, check, writer). */
const SHORT_KINDS = [
  "tree pass editor",
  "tree fail write_file",
  "workspace pass patch_file",
  "workspace fail editor",
];
type Where = "tree" | "workspace";

/** The user's line, and where it goes: at the end, or right under the task's line. */
function _edit(text: string, marker: string, near: boolean): string {
  if (!near) return text + `# ${marker}\n`;
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.startsWith("    return")) + 1;
  lines.splice(at, 0, `    # ${marker}`);
  return lines.join("\n");
}

Deno.test({
  name: "faults a user's edit at any moment of a task is never lost, nor by revert_task",
  ignore: !CAN_RUN,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tries = size(1, 20);
    const hogs = LONG
      ? [0, 1].map(() =>
        new Deno.Command("sh", { args: ["-c", "while :; do :; done"], stdout: "null" }).spawn()
      )
      : [];
    const fake = await startFakeOllama({
      models: [{ name: MODEL, contextLength: 32768 }],
      modelMs: 250,
      chunkDelayMs: 15,
    });
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-race-" }));
    const verdictFile = join(root, "verdict");
    Deno.writeTextFileSync(verdictFile, "pass");
    Deno.writeTextFileSync(join(root, "a.py"), BASE);
    Deno.writeTextFileSync(join(root, "c.py"), "C = 0\n");
    Deno.writeTextFileSync(
      join(root, ".localexec.json"),
      JSON.stringify({
        model: MODEL,
        ollama_host: fake.url,
        max_attempts: 1,
        parallel: 4,
        checks: { probe: { command: `sleep 0.25; grep -q pass verdict`, timeout_s: 60 } },
      }),
    );
    const conn = await connect(root);
    const a = join(root, "a.py");
    const call = (name: string, args: Record<string, unknown>) => callMcp(conn.client, name, args);
    /** The user's edit through `writer`, made from what the file holds at that moment. */
    const userEdit = async (writer: Writer, marker: string, near: boolean) => {
      for (let attempt = 0; attempt < 10; attempt++) {
        const now = Deno.readTextFileSync(a);
        const next = _edit(now, marker, near);
        if (writer === "editor") {
          Deno.writeTextFileSync(a, next); // in place: truncate and write, as many editors save
          return;
        }
        if (writer === "write_file") {
          const r = await call("write_file", { file_path: "a.py", content: next });
          if (r.status === "ok" || r.status === "written") return;
          continue;
        }
        const read = await call("read_file", { filename: "a.py", line_numbers: true });
        const total = String(read.content ?? "").split("\n").filter((l) => /^\s*\d+/.test(l))
          .length;
        const nearAt = String(read.content ?? "").split("\n").findIndex((l) => /return/.test(l));
        const r = near
          ? await call("patch_file", {
            file_path: "a.py",
            from_line: nearAt + 2,
            to_line: nearAt + 1,
            content: `    # ${marker}\n`,
          })
          : await call("patch_file", {
            file_path: "a.py",
            from_line: total + 1,
            to_line: total,
            content: `# ${marker}\n`,
          });
        if (r.status === "ok" || r.status === "patched") return;
      }
    };
    const rows: Record<string, number>[] = [];
    let losses = 0, revertLosses = 0, total = 0;
    const statuses: Record<string, number> = {};
    try {
      // How long a task takes here: the user's moments are spread over it.
      fake.answer = TASK;
      let t0 = performance.now();
      await call("implement_task", {
        task_id: "CAL",
        spec: "make one() return 1",
        files_to_edit: ["a.py"],
      });
      const span = performance.now() - t0;
      await call("revert_task", { task_id: "CAL" });
      let n = 0;
      for (const where of ["tree", "workspace"] as Where[]) {
        for (const check of ["pass", "fail"]) {
          for (const writer of ["editor", "write_file", "patch_file"] as Writer[]) {
            // The short form (inside `deno task test`) tries four of the twelve kinds, each writer
            // and each place and check at least once.
            const kind = `${where} ${check} ${writer}`;
            if (!LONG && !SHORT_KINDS.includes(kind)) continue;
            const row = { tries: 0, lost: 0, lost_by_revert: 0, conflict: 0 };
            for (let i = 0; i < tries; i++) {
              n++;
              const id = `U${n}`;
              const marker = `user ${n}`;
              const near = n % 2 === 0;
              Deno.writeTextFileSync(a, BASE);
              Deno.writeTextFileSync(verdictFile, check);
              // A blocker on c.py makes the task under test run in a workspace.
              let release: (() => void) | undefined;
              let blocker: Promise<unknown> | undefined;
              if (where === "workspace") {
                const gate = new Promise<void>((r) => release = r);
                fake.script(async () => {
                  await gate;
                  return block("c.py", "C = 0\n", "C = 1\n");
                });
                const chats = fake.chats.length;
                blocker = call("implement_task", {
                  task_id: `B${n}`,
                  spec: "blocker",
                  files_to_edit: ["c.py"],
                  checks: [],
                });
                await fake.waitForChats(chats + 1);
              }
              t0 = performance.now();
              const task = call("implement_task", {
                task_id: id,
                spec: "make one() return 1",
                files_to_edit: ["a.py"],
              });
              await sleep(Math.random() * span * 1.1);
              await userEdit(writer, marker, near);
              const v = await task;
              release?.();
              await blocker;
              total++;
              row.tries++;
              statuses[String(v.status)] = (statuses[String(v.status)] ?? 0) + 1;
              if (v.status === "conflict") row.conflict++;
              if (!Deno.readTextFileSync(a).includes(marker)) {
                row.lost++;
                losses++;
                console.log(`LOST ${id} ${where} ${check} ${writer}: ${JSON.stringify(v)}`);
              }
              await call("revert_task", { task_id: id });
              if (!Deno.readTextFileSync(a).includes(marker)) {
                row.lost_by_revert++;
                revertLosses++;
              }
              if (blocker) await call("revert_task", { task_id: `B${n}` });
              Deno.writeTextFileSync(join(root, "c.py"), "C = 0\n");
            }
            rows.push({ ...row });
            figures(`user edits (${where}, check ${check}, ${writer})`, row);
          }
        }
      }
    } finally {
      for (const h of hogs) {
        h.kill("SIGKILL");
        await h.status;
      }
      await conn.close();
      await fake.close();
      await Deno.remove(workspaceBase(root), { recursive: true }).catch(() => {});
      await Deno.remove(root, { recursive: true });
    }
    figures("a user's edit at a random moment of a task", {
      tries: total,
      cpu_hogs: hogs.length,
      lost: losses,
      lost_by_revert: revertLosses,
      statuses,
    });
    assert.equal(losses, 0, "a user's edit was lost at the verdict");
    assert.equal(revertLosses, 0, "a user's edit was lost by revert_task");
  },
});
