import assert from "node:assert/strict";
import { join } from "../lib/deps.ts";
import {
  currentWatchdog,
  MARKER_VAR,
  runProcess,
  startWatchdog,
  wantWatchdog,
} from "../lib/process/mod.ts";
import { tempProject } from "./helpers/project.ts";

/** True while `pid` is a live process (a zombie waiting to be reaped counts as gone). */
async function isAlive(pid: number): Promise<boolean> {
  const out = await new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] }).output();
  const stat = new TextDecoder().decode(out.stdout).trim();
  return out.success && stat !== "" && !stat.startsWith("Z");
}

/** Reads the pids a command wrote, one per line, into `file`. */
async function readPids(file: string): Promise<number[]> {
  const text = await Deno.readTextFile(file);
  return text.split("\n").filter(Boolean).map(Number);
}

/** Waits (polling, at most 10 s) until none of `pids` is alive; returns those still alive. */
async function survivors(pids: number[]): Promise<number[]> {
  let alive = pids;
  for (let i = 0; i < 100 && alive.length; i++) {
    const next = [];
    for (const pid of alive) if (await isAlive(pid)) next.push(pid);
    alive = next;
    if (alive.length) await new Promise((r) => setTimeout(r, 100));
  }
  for (const pid of alive) Deno.kill(pid, "SIGKILL");
  return alive;
}

Deno.test("runProcess merges stdout and stderr in order", async () => {
  const root = await tempProject();
  const r = await runProcess(
    "for i in 1 2 3 4 5; do echo out$i; echo err$i >&2; done",
    { cwd: root, timeoutS: 10 },
  );
  const lines = r.output.trim().split("\n");
  assert.deepEqual(lines, [1, 2, 3, 4, 5].flatMap((i) => [`out${i}`, `err${i}`]));
  assert.equal(r.code, 0);
  assert.equal(r.totalBytes, r.output.length);
});

Deno.test("runProcess reports exit codes", async () => {
  const root = await tempProject();
  for (const code of [0, 1, 3, 255]) {
    const r = await runProcess(`exit ${code}`, { cwd: root, timeoutS: 10 });
    assert.equal(r.code, code);
    assert.equal(r.signal, null);
    assert.equal(r.timedOut, false);
  }
  const argv = await runProcess(["sh", "-c", "exit 7"], { cwd: root, timeoutS: 10 });
  assert.equal(argv.code, 7);
});

Deno.test("runProcess reports a kill by signal", async () => {
  const root = await tempProject();
  const r = await runProcess("echo bye; kill -9 $$", { cwd: root, timeoutS: 10 });
  assert.equal(r.code, null);
  assert.equal(r.signal, "SIGKILL");
  assert.equal(r.output, "bye\n");
  const argv = await runProcess(["sh", "-c", "kill -TERM $$"], { cwd: root, timeoutS: 10 });
  assert.equal(argv.signal, "SIGTERM");
  assert.equal(argv.timedOut, false);
});

Deno.test("runProcess feeds stdin and closes it", async () => {
  const root = await tempProject();
  const r = await runProcess("cat", { cwd: root, timeoutS: 10, stdin: "héllo\nwörld" });
  assert.equal(r.output, "héllo\nwörld");
  const big = "x".repeat(3_000_000);
  const counted = await runProcess("wc -c", { cwd: root, timeoutS: 20, stdin: big });
  assert.equal(counted.output.trim(), "3000000");
  const none = await runProcess("cat; echo end", { cwd: root, timeoutS: 10 });
  assert.equal(none.output, "end\n");
  assert.equal(none.timedOut, false);
});

Deno.test("runProcess does not hang on stdin the command never reads", async () => {
  const root = await tempProject();
  const r = await runProcess("echo ok", { cwd: root, timeoutS: 10, stdin: "y".repeat(5_000_000) });
  assert.equal(r.output, "ok\n");
  assert.equal(r.code, 0);
  assert.equal(r.timedOut, false);
});

Deno.test("runProcess timeout kills the whole process group", async () => {
  const root = await tempProject();
  const pids = join(root, "pids");
  const t0 = performance.now();
  const r = await runProcess(
    `echo $$ > pids; sleep 30 & echo $! >> pids; sleep 30 & echo $! >> pids; echo started; wait`,
    { cwd: root, timeoutS: 1 },
  );
  assert.ok(performance.now() - t0 < 5000, "returned soon after the timeout");
  assert.equal(r.timedOut, true);
  assert.equal(r.code, null);
  assert.equal(r.output, "started\n");
  const started = await readPids(pids);
  assert.equal(started.length, 3);
  assert.deepEqual(await survivors(started), []);
});

Deno.test("runProcess timeout escalates to SIGKILL when SIGTERM is ignored", async () => {
  const root = await tempProject();
  const r = await runProcess(
    `trap '' TERM; sleep 30 & echo $! > pids; echo $$ >> pids; wait; wait; sleep 30`,
    { cwd: root, timeoutS: 0.5 },
  );
  assert.equal(r.timedOut, true);
  assert.equal(r.signal, "SIGKILL");
  assert.deepEqual(await survivors(await readPids(join(root, "pids"))), []);
});

Deno.test("runProcess kills background children left after the command exits", async () => {
  const root = await tempProject();
  const t0 = performance.now();
  const r = await runProcess(
    `sleep 30 & echo $! > pids; sleep 30 >/dev/null 2>&1 & echo $! >> pids; echo done`,
    { cwd: root, timeoutS: 20 },
  );
  assert.ok(performance.now() - t0 < 10_000, "did not wait for the background children");
  assert.equal(r.code, 0);
  assert.equal(r.timedOut, false);
  assert.equal(r.output, "done\n");
  assert.deepEqual(await survivors(await readPids(join(root, "pids"))), []);
});

Deno.test("runProcess returns when a process that left the group holds the output", async () => {
  const root = await tempProject();
  const t0 = performance.now();
  const r = await runProcess(
    `setsid sh -c 'echo $$ > pids; exec sleep 30' & while [ ! -s pids ]; do sleep 0.05; done; echo done`,
    { cwd: root, timeoutS: 20 },
  );
  const pids = await readPids(join(root, "pids"));
  for (const pid of pids) Deno.kill(pid, "SIGKILL");
  assert.ok(performance.now() - t0 < 10_000, "did not wait for the escaped process");
  assert.equal(r.code, 0);
  assert.equal(r.output, "done\n");
});

Deno.test("runProcess cancellation ends the group within about a second", async () => {
  const root = await tempProject();
  const controller = new AbortController();
  let abortedAt = 0;
  const r = await runProcess(`sleep 30 & echo $! > pids; echo $$ >> pids; echo started; wait`, {
    cwd: root,
    timeoutS: 60,
    signal: controller.signal,
    sink() {
      if (!abortedAt) {
        abortedAt = performance.now();
        controller.abort();
      }
    },
  });
  assert.ok(abortedAt > 0, "the sink saw output");
  assert.ok(performance.now() - abortedAt < 2000, "ended soon after the abort");
  assert.equal(r.cancelled, true);
  assert.equal(r.timedOut, false);
  assert.equal(r.output, "started\n");
  assert.deepEqual(await survivors(await readPids(join(root, "pids"))), []);
});

Deno.test("runProcess with an already aborted signal does not start the command", async () => {
  const root = await tempProject();
  const r = await runProcess("touch ran", {
    cwd: root,
    timeoutS: 10,
    signal: AbortSignal.abort(),
  });
  assert.equal(r.cancelled, true);
  assert.equal(r.code, null);
  await assert.rejects(Deno.stat(join(root, "ran")), Deno.errors.NotFound);
});

Deno.test("runProcess keeps head and tail of huge output with flat memory", async () => {
  const root = await tempProject();
  const before = Deno.memoryUsage().rss;
  let sunk = 0;
  const r = await runProcess("echo START; yes | head -c 50000000; echo END", {
    cwd: root,
    timeoutS: 120,
    sink(chunk) {
      sunk += chunk.length;
    },
  });
  const grown = Deno.memoryUsage().rss - before;
  const total = 6 + 50_000_000 + 4;
  assert.ok(grown < 100 * 1024 * 1024, `rss grew by ${Math.round(grown / 1024 / 1024)} MB`);
  assert.equal(r.code, 0);
  assert.equal(r.totalBytes, total);
  assert.equal(sunk, total);
  assert.equal(r.droppedBytes, total - 2 * 16 * 1024);
  assert.ok(r.output.startsWith("START\ny\ny\n"));
  assert.ok(r.output.endsWith("y\ny\nEND\n"));
  assert.match(r.output, new RegExp(`\\[… ${r.droppedBytes} bytes of output cut …\\]`));
  assert.ok(r.output.length < 2 * 16 * 1024 + 100);
});

Deno.test("runProcess output cut exactly at keepBytes", async () => {
  const root = await tempProject();
  const fits = await runProcess("printf 0123456789abcdefghij", {
    cwd: root,
    timeoutS: 10,
    keepBytes: 10,
  });
  assert.equal(fits.output, "0123456789abcdefghij");
  assert.equal(fits.droppedBytes, 0);
  const over = await runProcess("printf 0123456789Xabcdefghij", {
    cwd: root,
    timeoutS: 10,
    keepBytes: 10,
  });
  assert.equal(over.droppedBytes, 1);
  assert.equal(over.output, "0123456789\n[… 1 bytes of output cut …]\nabcdefghij");
});

Deno.test("runProcess never splits a UTF-8 character at the cut", async () => {
  const root = await tempProject();
  for (const keep of [1001, 1002, 1003]) {
    const r = await runProcess(`python3 -c "print('é€😀' * 3000, end='')"`, {
      cwd: root,
      timeoutS: 20,
      keepBytes: keep,
    });
    assert.equal(r.totalBytes, 9 * 3000);
    assert.ok(!r.output.includes("\ufffd"), `replacement character with keepBytes ${keep}`);
    assert.ok(r.droppedBytes > 0);
    const kept = new TextEncoder().encode(
      r.output.replace(/\n\[… \d+ bytes of output cut …\]\n/, ""),
    );
    assert.equal(kept.length + r.droppedBytes, r.totalBytes);
  }
});

Deno.test("runProcess reports a command that is not found", async () => {
  const root = await tempProject();
  const r = await runProcess("no_such_command_xyz --flag", { cwd: root, timeoutS: 10 });
  assert.equal(r.code, 127);
  assert.equal(r.output, "sh: 1: no_such_command_xyz: not found\n");
  const argv = await runProcess(["no_such_command_xyz"], { cwd: root, timeoutS: 10 });
  assert.equal(argv.code, 127);
  assert.match(argv.output, /no_such_command_xyz: not found/);
});

Deno.test("runProcess refuses a cwd that does not exist or is a file", async () => {
  const root = await tempProject({ "f.txt": "x" });
  await assert.rejects(
    runProcess("true", { cwd: join(root, "missing"), timeoutS: 10 }),
    (err: Error) =>
      err instanceof Deno.errors.NotFound && /missing" does not exist/.test(err.message),
  );
  await assert.rejects(
    runProcess("true", { cwd: join(root, "f.txt"), timeoutS: 10 }),
    (err: Error) => err instanceof Deno.errors.NotADirectory && /is not a folder/.test(err.message),
  );
});

Deno.test("runProcess passes argv arrays untouched", async () => {
  const root = await tempProject();
  const args = ["a b", "'single'", '"double"', "$HOME", "`id`", "-n", "", "*", "x;y", "a\nb"];
  const r = await runProcess(["printf", "%s|", ...args], { cwd: root, timeoutS: 10 });
  assert.equal(r.output, args.map((a) => `${a}|`).join(""));
  assert.equal(r.code, 0);
});

Deno.test("runProcess runs a string exactly as sh -c and in cwd", async () => {
  const root = await tempProject({ "sub/x.txt": "" });
  const r = await runProcess('echo "$0"; pwd; ls', { cwd: join(root, "sub"), timeoutS: 10 });
  assert.equal(r.output, `sh\n${join(root, "sub")}\nx.txt\n`);
});

Deno.test("runProcess adds env variables to the server's own", async () => {
  const root = await tempProject();
  const r = await runProcess('echo "$LOCALEXEC_TEST_VAR" "${PATH:+has-path}"', {
    cwd: root,
    timeoutS: 10,
    env: { LOCALEXEC_TEST_VAR: "a b" },
  });
  assert.equal(r.output, "a b has-path\n");
});

Deno.test("runProcess goes on when the sink throws", async () => {
  const root = await tempProject();
  let calls = 0;
  const r = await runProcess("echo one; sleep 0.2; echo two", {
    cwd: root,
    timeoutS: 10,
    sink() {
      calls++;
      throw new Error("disk full");
    },
  });
  assert.equal(r.output, "one\ntwo\n");
  assert.equal(r.sinkError, "disk full");
  assert.equal(calls, 1);
  assert.equal(r.code, 0);
});

Deno.test({
  name: "watchdog kills what left the group with setsid, and every group when it stops",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const root = await tempProject();
    const dog = startWatchdog()!;
    try {
      const r = await runProcess(
        `setsid sh -c 'echo $$ > pids; exec sleep 31' &\nwhile [ ! -s pids ]; do sleep 0.05; done\nsleep 30`,
        { cwd: root, timeoutS: 1 },
      );
      assert.equal(r.timedOut, true);
      const escaped = await readPids(join(root, "pids"));
      assert.deepEqual(await survivors(escaped), [], "the setsid child is killed by its marker");
      const running = runProcess("echo $$ > group; exec sleep 32", { cwd: root, timeoutS: 60 });
      while (!(await Deno.stat(join(root, "group")).then((i) => i.size > 0, () => false))) {
        await new Promise((r) => setTimeout(r, 20));
      }
      await dog.stop(); // as when the server dies: the groups still running are killed
      const ended = await running;
      assert.notEqual(ended.code, 0);
      assert.deepEqual(await survivors(await readPids(join(root, "group"))), []);
    } finally {
      await dog.stop();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "a wanted watchdog starts with the first command, not before",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const root = await tempProject();
    await currentWatchdog()?.stop(); // another test's
    try {
      wantWatchdog();
      assert.equal(currentWatchdog(), undefined, "no command yet: no watchdog");
      const r = await runProcess(`echo "$${MARKER_VAR}"`, { cwd: root, timeoutS: 10 });
      const dog = currentWatchdog();
      assert.ok(dog, "the first command started it");
      assert.equal(r.output.trim(), `${dog.marker}.1.`, "and carries its marker");
      await runProcess("true", { cwd: root, timeoutS: 10 });
      assert.equal(currentWatchdog(), dog, "one watchdog for every command");
    } finally {
      await currentWatchdog()?.stop();
      await Deno.remove(root, { recursive: true });
    }
  },
});
