import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "../../lib/deps.ts";
import { lockHolder, lockPath, LockTimeoutError, withProjectLock } from "../../lib/tasks/lock.ts";
import { tempProject } from "../helpers/project.ts";

const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));
const CHILD = fileURLToPath(new URL("../fixtures/lock_child.ts", import.meta.url));

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Runs the lock fixture: ROOT LOG HOLD_MS. */
function child(root: string, log: string, hold: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-prompt", "--config", CONFIG, CHILD, root, log, hold],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
}

/** Reads `proc`'s stdout until a line equal to `line` appears. */
async function waitForLine(proc: Deno.ChildProcess, line: string): Promise<void> {
  const reader = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    while (!text.split("\n").includes(line)) {
      const r = await reader.read();
      if (r.done) throw new Error(`child ended before printing "${line}"`);
      text += r.value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Checks that `log` holds start/end pairs that never overlap; returns the pids in order. */
async function assertSerial(log: string): Promise<number[]> {
  const lines = (await Deno.readTextFile(log)).trim().split("\n");
  const pids: number[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const [a, pa] = lines[i].split(" ");
    const [b, pb] = lines[i + 1].split(" ");
    assert.deepEqual([a, b, pa], ["start", "end", pb], lines.join(" | "));
    pids.push(Number(pa));
  }
  return pids;
}

Deno.test("lock serialises holders inside one process and reports the wait", async () => {
  const root = await tempProject();
  const events: string[] = [];
  const waits: string[] = [];
  let release!: () => void;
  const first = withProjectLock(root, { tool: "implement_task", taskId: "T1" }, async () => {
    events.push("first in");
    await new Promise<void>((r) => release = r);
    events.push("first out");
  });
  while (!release) await sleep(5);
  const second = withProjectLock(root, { onWait: (m) => waits.push(m) }, () => {
    events.push("second in");
    return Promise.resolve(42);
  });
  while (!waits.length) await sleep(5);
  assert.match(
    waits[0],
    new RegExp(
      `waiting for the project lock held by pid ${Deno.pid} \\(implement_task, task T1\\)`,
    ),
  );
  assert.deepEqual(events, ["first in"]);
  release();
  await first;
  assert.equal(await second, 42);
  assert.deepEqual(events, ["first in", "first out", "second in"]);
  await assert.rejects(() => Deno.lstat(lockPath(root)));
  const left = [...Deno.readDirSync(join(root, ".localexec"))].map((e) => e.name).sort();
  assert.deepEqual(left, [".gitignore"]);
});

Deno.test("lock wait ends in an error naming the holder", async () => {
  const root = await tempProject();
  let release!: () => void;
  const held = withProjectLock(
    root,
    { tool: "run_checks", taskId: "T7" },
    () => new Promise<void>((r) => release = r),
  );
  while (!release) await sleep(5);
  const holder = await lockHolder(root);
  assert.equal(holder?.pid, Deno.pid);
  assert.equal(holder?.tool, "run_checks");
  await assert.rejects(
    () => withProjectLock(root, { timeoutS: 0.2 }, () => Promise.resolve()),
    (err: Error) =>
      err instanceof LockTimeoutError &&
      new RegExp(`locked by pid ${Deno.pid} \\(run_checks, task T7\\) since \\d{4}-`).test(
        err.message,
      ) &&
      /gave up after 0\.2 s/.test(err.message),
  );
  release();
  await held;
  assert.equal(await lockHolder(root), undefined);
});

Deno.test("lock is released when the holder throws or the waiter is cancelled", async () => {
  const root = await tempProject();
  await assert.rejects(
    () => withProjectLock(root, {}, () => Promise.reject(new Error("boom"))),
    /boom/,
  );
  await assert.rejects(() => Deno.lstat(lockPath(root)));
  let release!: () => void;
  const held = withProjectLock(root, {}, () => new Promise<void>((r) => release = r));
  while (!release) await sleep(5);
  const controller = new AbortController();
  const waiting = withProjectLock(root, { signal: controller.signal }, () => Promise.resolve());
  await sleep(50);
  controller.abort();
  await assert.rejects(waiting, (err: Error) => err.name === "AbortError");
  release();
  await held;
  assert.equal(await withProjectLock(root, { timeoutS: 0 }, () => Promise.resolve("free")), "free");
  const left = [...Deno.readDirSync(join(root, ".localexec"))].map((e) => e.name).sort();
  assert.deepEqual(left, [".gitignore"]);
});

Deno.test("lock left by a dead pid is taken over", async () => {
  const root = await tempProject();
  await Deno.mkdir(join(root, ".localexec"));
  await Deno.writeTextFile(
    lockPath(root),
    JSON.stringify({
      pid: 2 ** 22 + 17,
      tool: "implement_task",
      task_id: "old",
      since: "2020-01-01T00:00:00Z",
    }),
  );
  assert.equal(await lockHolder(root), undefined);
  const waits: string[] = [];
  const out = await withProjectLock(
    root,
    { timeoutS: 0, onWait: (m) => waits.push(m) },
    () => Promise.resolve("mine"),
  );
  assert.equal(out, "mine");
  assert.match(
    waits.join("\n"),
    /took over the project lock left by pid 4194321 \(implement_task, task old\)/,
  );
});

Deno.test("lock held by another process blocks, and is taken over after SIGKILL", async () => {
  const root = await tempProject();
  const log = join(root, "events.log");
  const proc = child(root, log, "forever");
  try {
    await waitForLine(proc, "locked");
    const holder = await lockHolder(root);
    assert.equal(holder?.pid, proc.pid);
    await assert.rejects(
      () => withProjectLock(root, { timeoutS: 0.3 }, () => Promise.resolve()),
      new RegExp(`locked by pid ${proc.pid}( on \\S+)? \\(lock_child, task child\\)`),
    );
  } finally {
    proc.kill("SIGKILL");
    await proc.status;
    await proc.stdout.cancel().catch(() => {});
  }
  const waits: string[] = [];
  await withProjectLock(
    root,
    { timeoutS: 5, onWait: (m) => waits.push(m) },
    () => Promise.resolve(),
  );
  assert.match(waits.join("\n"), new RegExp(`took over the project lock left by pid ${proc.pid}`));
});

Deno.test("lock serialises several processes racing, over a stale lock too", async () => {
  const root = await tempProject();
  await Deno.mkdir(join(root, ".localexec"));
  await Deno.writeTextFile(lockPath(root), JSON.stringify({ pid: 2 ** 22 + 19, since: "x" }));
  const log = join(root, "events.log");
  const procs = [0, 1, 2, 3].map(() => child(root, log, "150"));
  const statuses = await Promise.all(procs.map((p) => p.status));
  await Promise.all(procs.map((p) => p.stdout.cancel().catch(() => {})));
  assert.ok(statuses.every((s) => s.success));
  const pids = await assertSerial(log);
  assert.deepEqual(pids.sort(), procs.map((p) => p.pid).sort());
  await assert.rejects(() => Deno.lstat(lockPath(root)));
});

Deno.test("lock sweeps temporary files left by waiters that died", async () => {
  const root = await tempProject();
  await Deno.mkdir(join(root, ".localexec"));
  const orphan = join(root, ".localexec", "lock.0123456789ab.tmp");
  await Deno.writeTextFile(orphan, "{}");
  const young = join(root, ".localexec", "lock.ba9876543210.tmp");
  await Deno.writeTextFile(young, "{}");
  const past = new Date(Date.now() - 120_000);
  await Deno.utime(orphan, past, past);
  await withProjectLock(root, {}, () => Promise.resolve());
  await assert.rejects(() => Deno.lstat(orphan));
  assert.ok(await Deno.lstat(young), "a file a live waiter may just have created is kept");
});

Deno.test("lockHolder does not report a dead holder while a waiter is taking over its lock", async () => {
  const root = await tempProject();
  await Deno.mkdir(join(root, ".localexec"));
  const path = lockPath(root);
  await Deno.writeTextFile(
    path,
    JSON.stringify({ pid: 2 ** 22 + 19, since: "2020-01-01T00:00:00Z" }),
  );
  // A waiter found the lock stale: it holds the file's flock for a moment, then removes it.
  const waiter = await Deno.open(path, { read: true });
  assert.equal(await waiter.tryLock(true), true);
  const takeover = new Promise<void>((resolve) =>
    setTimeout(async () => {
      await Deno.remove(path);
      waiter.close();
      resolve();
    }, 30)
  );
  try {
    assert.equal(await lockHolder(root), undefined);
  } finally {
    await takeover;
  }
});

Deno.test("lock never takes over a live lock that replaced the stale one it was looking at", async () => {
  // Deterministic: the stale lock is swapped for a live one exactly between the waiter's open of
  // it and its look at the name (where another waiter could have taken it over meanwhile). The
  // file now at the name has the same device but another inode: it must be left alone.
  const root = await tempProject();
  await Deno.mkdir(join(root, ".localexec"));
  const path = lockPath(root);
  const dead = { pid: 2 ** 22 + 17, tool: "implement_task", since: "2020-01-01T00:00:00Z" };
  await Deno.writeTextFile(path, JSON.stringify(dead));
  const live = { pid: Deno.pid, tool: "other_waiter", since: new Date().toISOString() };
  let held: Deno.FsFile | undefined;
  const lstat = Deno.lstat;
  Deno.lstat = (p: string | URL) => {
    if (!held && p === path) {
      Deno.removeSync(path);
      held = Deno.openSync(path, { read: true, write: true, createNew: true });
      held.lockSync(true);
      held.writeSync(new TextEncoder().encode(JSON.stringify(live)));
    }
    return lstat(p);
  };
  let ran = false;
  try {
    await assert.rejects(
      () =>
        withProjectLock(root, { timeoutS: 0.3 }, () => {
          ran = true;
          return Promise.resolve();
        }),
      (err) => err instanceof LockTimeoutError && /other_waiter/.test(err.message),
    );
  } finally {
    Deno.lstat = lstat;
  }
  assert.ok(held, "the swap happened");
  assert.equal(ran, false, "ran while another held the lock");
  assert.equal(Deno.lstatSync(path).ino, held.statSync().ino, "the live lock is still in place");
  held.close();
});
