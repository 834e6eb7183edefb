/**
 * A server SIGKILLed while three tasks run at once (one in the tree, two in workspaces), each in
 * its check: a fresh server lists all three as interrupted, reverts each to the byte, and leaves no
 * workspace, claim, temporary file or check process behind.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { block, MODEL } from "../helpers/calc.ts";
import { startFakeOllama } from "../helpers/fake_ollama.ts";
import { workspaceBase } from "../../lib/tasks/mod.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { CAN_RUN, figures, processesWith, size, sleep } from "./suite.ts";

const FILES = ["a.py", "b.py", "c.py"];

/** Every path under `root` but `.localexec/`, with its mode and content. */
function _tree(root: string, rel = "", out = new Map<string, string>()): Map<string, string> {
  for (const e of Deno.readDirSync(join(root, rel))) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (p === ".localexec") continue;
    const info = Deno.lstatSync(join(root, p));
    if (info.isDirectory) {
      out.set(`${p}/`, "folder");
      _tree(root, p, out);
    } else out.set(p, `${(info.mode ?? 0) & 0o7777}:${Deno.readTextFileSync(join(root, p))}`);
  }
  return out;
}

/** The check processes of round `tag` (the `sleep` itself, not a shell naming it). */
function _checks(tag: string): number[] {
  return processesWith(`sleep ${tag}`).filter((pid) => {
    try {
      return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ").trim() ===
        `sleep ${tag}`;
    } catch {
      return false;
    }
  });
}

function _list(path: string): string[] {
  try {
    return [...Deno.readDirSync(path)].map((e) => e.name);
  } catch {
    return [];
  }
}

Deno.test({
  name: "faults a server killed with three tasks running: each interrupted, each reverts exactly",
  ignore: !CAN_RUN,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const rounds = size(1, 5);
    let exact = 0, interrupted = 0, reverted = 0, leftovers = 0;
    const rows: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const tag = `9${crypto.getRandomValues(new Uint32Array(1))[0] % 100_000_000}`;
      const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
      const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-kill3-" }));
      for (const f of FILES) await Deno.writeTextFile(join(root, f), `${f[0].toUpperCase()} = 0\n`);
      await Deno.writeTextFile(
        join(root, ".localexec.json"),
        JSON.stringify({
          model: MODEL,
          ollama_host: fake.url,
          parallel: 3, // the host serves the three chats at once
          checks: { slow: { command: `sleep ${tag}`, timeout_s: 600 } },
        }),
      );
      const before = _tree(root);
      // Each task's reply comes once the three chats have arrived: all three run at once.
      const reply = async (req: { messages: { content: string }[] }) => {
        await fake.waitForChats(3);
        const f = FILES.find((f) => JSON.stringify(req.messages).includes(`edit ${f}`))!;
        const v = `${f[0].toUpperCase()} = `;
        return block(f, `${v}0\n`, `${v}1\n`);
      };
      fake.script(reply, reply, reply);
      const conn = await connect(root);
      const pid = conn.transport.pid!;
      for (const [i, f] of FILES.entries()) {
        conn.client.callTool({
          name: "implement_task",
          arguments: { task_id: `T${i}`, spec: `edit ${f}: set it to 1`, files_to_edit: [f] },
        }).catch(() => {});
        await fake.waitForChats(i + 1);
      }
      // All three checks are running.
      const deadline = Date.now() + 30_000;
      while (_checks(tag).length < 3 && Date.now() < deadline) await sleep(50);
      const checks = _checks(tag).length;
      // Task workspaces are named after their task; the project's standby copy is kept on purpose.
      const workspaces = _list(workspaceBase(root)).filter((n) =>
        /^T\d\.[0-9a-f]{8}$/.test(n)
      ).length;
      Deno.kill(pid, "SIGKILL");
      await conn.close().catch(() => {});

      const fresh = await connect(root);
      const list = await callMcp(fresh.client, "list_tasks", {}) as { tasks: string[] };
      const statuses = FILES.map((_, i) =>
        list.tasks.find((t) => t.startsWith(`T${i} `))?.split(" ")[1]
      );
      interrupted += statuses.filter((s) => s === "interrupted").length;
      for (const i of FILES.keys()) {
        const r = await callMcp(fresh.client, "revert_task", { task_id: `T${i}` });
        if (r.status === "reverted" || r.status === "already_reverted") reverted++;
      }
      // Give the watchdog a moment for the dead server's checks.
      const until = Date.now() + 10_000;
      while (_checks(tag).length && Date.now() < until) await sleep(50);
      await fresh.close();
      const after = _tree(root);
      const same = before.size === after.size && [...before].every(([p, v]) => after.get(p) === v);
      if (same) exact++;
      const left = [
        ..._list(workspaceBase(root)).filter((n) => /^T\d\.[0-9a-f]{8}$/.test(n)).map((n) =>
          `ws/${n}`
        ),
        ..._list(join(root, ".localexec/claims")).map((n) => `claims/${n}`),
        ...[...after.keys()].filter((p) => p.includes("localexec-tmp")),
        ..._checks(tag).map((p) => `process ${p}`),
      ];
      leftovers += left.length;
      rows.push(
        `round ${round}: ${checks} checks running, ${workspaces} workspaces at the kill; ` +
          `${statuses.join(", ")}; ${same ? "byte-identical" : "differs"}; left: ${
            left.join(", ")
          }`,
      );
      await fake.close();
      await Deno.remove(workspaceBase(root), { recursive: true }).catch(() => {});
      await Deno.remove(root, { recursive: true });
    }
    figures("a kill with three tasks running, then revert_task each", {
      rounds,
      interrupted,
      reverted,
      byte_identical: exact,
      leftovers,
    });
    const detail = rows.join("\n");
    assert.equal(interrupted, rounds * 3, detail);
    assert.equal(reverted, rounds * 3, detail);
    assert.equal(exact, rounds, detail);
    assert.equal(leftovers, 0, detail);
    assert.match(detail, /3 checks running, 2 workspaces/);
  },
});
