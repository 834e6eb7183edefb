/**
 * Orphans: a server SIGKILLed while a check runs must not leave the check's processes behind, nor
 * those a command moved out of its process group with `setsid`; and a command that times out must
 * not leave its `setsid` children running either.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { CAN_RUN, figures, killAll, processesWith, size, sleep } from "./suite.ts";

/** A number no other process on the machine has on its command line. */
function _tag(): string {
  return `9${crypto.getRandomValues(new Uint32Array(1))[0] % 100_000_000}`;
}

/** How many of `sleep <tag>1` … `sleep <tag>4` run as sleep itself (not a shell naming them). */
function _sleeping(tag: string): number {
  const want = new Set([1, 2, 3, 4].map((k) => `sleep ${tag}${k}`));
  let n = 0;
  for (const pid of processesWith(`sleep ${tag}`)) {
    try {
      const cmd = Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ").trim();
      if (want.has(cmd)) n++;
    } catch {
      // gone already
    }
  }
  return n;
}

/**
 * Waits up to `ms` for the processes matching `text` to be gone; returns those left. The watchdog
 * kills them in the background, so a loaded machine may take a few seconds: the wait ends as soon
 * as they are gone.
 */
async function _gone(text: string, ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  let left = processesWith(text);
  while (left.length && Date.now() < until) {
    await sleep(50);
    left = processesWith(text);
  }
  return left;
}

Deno.test({
  name: "faults a server killed during a check leaves no process behind",
  ignore: !CAN_RUN,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const rounds = size(2, 5);
    let orphans = 0, started = 0;
    for (let i = 0; i < rounds; i++) {
      const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-orphan-" }));
      const tag = _tag();
      const command = `sleep ${tag}1 & setsid sleep ${tag}2 & (setsid sleep ${tag}3 &); ` +
        `sleep ${tag}4`;
      await Deno.writeTextFile(
        join(root, ".localexec.json"),
        JSON.stringify({ checks: { slow: { command, timeout_s: 600 } } }),
      );
      const conn = await connect(root);
      conn.client.callTool({ name: "run_checks", arguments: {} }).catch(() => {});
      // All four sleeps must run before the kill, however loaded the machine: a kill before the
      // setsid ones started would test less than it says.
      const until = Date.now() + 60_000;
      while (_sleeping(tag) < 4 && Date.now() < until) await sleep(20);
      await sleep(100 * i);
      const sleeping = _sleeping(tag);
      started += processesWith(`sleep ${tag}`).length;
      Deno.kill(conn.transport.pid!, "SIGKILL");
      await conn.close().catch(() => {});
      const left = await _gone(`sleep ${tag}`, 10_000);
      orphans += left.length;
      killAll(left);
      await Deno.remove(root, { recursive: true });
      assert.equal(sleeping, 4, "every sleep of the check ran at the kill");
    }
    figures("server SIGKILLed during a check", {
      rounds,
      processes_running_at_kill: started,
      orphans,
    });
    assert.equal(orphans, 0);
  },
});

Deno.test({
  name: "faults setsid children of a command that times out are killed",
  ignore: !CAN_RUN,
  async fn() {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-orphan-" }));
    const conn = await connect(root);
    const forms = [
      "setsid sleep {T} &",
      "(setsid sleep {T} &)",
      "setsid -f sleep {T}",
      "nohup setsid sleep {T} >/dev/null 2>&1 &",
      "sh -c 'setsid sleep {T} &'",
    ];
    let escaped = 0;
    try {
      for (const form of forms) {
        const tag = _tag();
        const r = await callMcp(conn.client, "shell", {
          command: `${form.replace("{T}", tag)}\nsleep 30`,
          timeout: 1,
        });
        assert.equal(r.status, "timeout");
        const left = await _gone(`sleep ${tag}`, 10_000);
        if (left.length) escaped++;
        killAll(left);
      }
    } finally {
      await conn.close();
      await Deno.remove(root, { recursive: true });
    }
    figures("setsid forms in a command that times out", { forms: forms.length, escaped });
    assert.equal(escaped, 0);
  },
});
