/**
 * Landing a task (lib/implement/landing.ts) without a model or a server: real folders, a begun
 * task, its place (the tree or a workspace) and a real check, with the run's end given. Only
 * `passed` and `failed` land; a change that does not merge lands nothing; a request to stop is
 * honoured under the lock; a landing round whose shared checks fail counts nobody as checked.
 */
import { PROVIDERS } from "../../lib/providers/mod.ts";
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { loadConfig } from "../../lib/config.ts";
import type { EngineContext } from "../../lib/implement/context.ts";
import { snapshot } from "../../lib/implement/files.ts";
import { landTask } from "../../lib/implement/landing.ts";
import type { RungEnd, TaskRun } from "../../lib/implement/loop.ts";
import { type Place, TreePlace, WorkspacePlace } from "../../lib/implement/place.ts";
import { planTask } from "../../lib/implement/plan.ts";
import { LandingRounds } from "../../lib/implement/rounds.ts";
import {
  appendLog,
  askToCancel,
  beginTask,
  landings,
  noteLanded,
  syncLanded,
} from "../../lib/tasks/mod.ts";
import { tempProject, writeFiles } from "../helpers/project.ts";

const FILES = { "a.py": "A = 0\n", "b.py": "B = 0\n", "c.py": "C = 0\n" };
const PASSED: RungEnd = { status: "passed", why: "the checks passed", escalate: false };
const FAILED: RungEnd = {
  status: "failed",
  why: "the check probe still fails after 2 attempts",
  escalate: true,
  failed_check: "probe: clash",
};

/**
 * A project with a.py, b.py and c.py and a check that notes where it ran and fails when a.py
 * says `A = 1` and b.py `B = 1` together; `more(root)` is shell the check runs first.
 */
async function lab(more: (root: string) => string = () => "") {
  const out = await Deno.makeTempDir({ prefix: "localexec-landing-" });
  const runs = join(out, "runs");
  const root = await tempProject(FILES);
  const check = `pwd -P >> ${runs}; ${more(root)}` +
    "if grep -q 'A = 1' a.py && grep -q 'B = 1' b.py; then echo clash; exit 1; fi";
  await writeFiles(root, {
    ".localexec.json": JSON.stringify({ checks: { probe: { command: check, timeout_s: 30 } } }),
  });
  const config = await loadConfig(join(root, ".localexec.json"), PROVIDERS);
  const rounds = new LandingRounds();
  const works: string[] = [];
  /** Task `id` on `file`, begun, in the tree or in a workspace (a copy of the tree). */
  const task = async (id: string, file: string, where: "tree" | "workspace"): Promise<TaskRun> => {
    const plan = await planTask(
      root,
      { task_id: id, spec: `set ${file}`, files_to_edit: [file] },
      config,
    );
    const begun = await beginTask(root, { id, spec: plan.spec, files: plan.files });
    const files = await snapshot(root, plan.files);
    const o = { root, id, files: plan.files, start: { files, dirs: [] }, run: begun.task.runs };
    let place: Place = new TreePlace(o);
    if (where === "workspace") {
      const work = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-landing-ws-" }));
      works.push(work);
      await writeFiles(work, FILES);
      place = new WorkspacePlace(o, work, Promise.resolve());
    }
    const ctx: EngineContext = {
      root,
      signal: new AbortController().signal,
      progress: () => {},
      config: () => Promise.resolve(config),
      rounds,
    };
    const run: TaskRun = {
      plan,
      config,
      ctx,
      place,
      sync: async () => {
        const got = await syncLanded(root, place.work, run.seen, id);
        run.seen = got.seq;
        for (const t of got.tasks) run.landedWith.add(t);
      },
      seen: (await landings(root)).length,
      landedWith: new Set(),
      covered: new Set(),
      checkMs: 0,
      theirs: new Set(),
      log: (text) => appendLog(root, id, text),
      run: begun.task.runs,
      rungs: 1,
      attempts: 1,
      warnings: new Set(),
      truncated: new Set(),
    };
    return run;
  };
  /** The task's attempt: `text` for its file, written where it works. */
  const edit = async (t: TaskRun, text: string) => {
    const from = await t.place.read();
    const file = t.plan.files[0];
    assert.deepEqual(await t.place.write(new Map([[file, new TextEncoder().encode(text)]]), from), {
      merged: [],
    });
  };
  const ranIn = (dir: string) => {
    try {
      return Deno.readTextFileSync(runs).split("\n").filter((l) => l === dir).length;
    } catch {
      return 0;
    }
  };
  return {
    root,
    rounds,
    task,
    edit,
    ranIn,
    read: (rel: string) => Deno.readTextFileSync(join(root, rel)),
    write: (rel: string, text: string) => Deno.writeTextFileSync(join(root, rel), text),
    async close() {
      for (const w of works) await Deno.remove(w, { recursive: true });
      await Deno.remove(root, { recursive: true });
      await Deno.remove(out, { recursive: true });
    },
  };
}

Deno.test("landing (workspace) lands a failed task's last attempt, and leaves the task idle", async () => {
  const l = await lab();
  try {
    const t = await l.task("W1", "a.py", "workspace");
    await l.edit(t, "A = 2\n");
    l.rounds.busy("W1");
    const end = await landTask(t, FAILED);
    assert.deepEqual([end.status, end.inTree, end.notLanded], ["failed", true, undefined]);
    assert.equal(l.read("a.py"), "A = 2\n");
    assert.equal(l.rounds.busyCount, 0);
  } finally {
    await l.close();
  }
});

Deno.test("landing (workspace) a change that does not merge lands nothing: conflict when passed, failed stays failed", async () => {
  const l = await lab();
  try {
    const passed = await l.task("W2", "a.py", "workspace");
    const failed = await l.task("W3", "b.py", "workspace");
    await l.edit(passed, "A = 2\n");
    await l.edit(failed, "B = 2\n");
    l.write("a.py", "A = 'the user'\n");
    l.write("b.py", "B = 'the user'\n");
    const p = await landTask(passed, PASSED);
    assert.equal(p.status, "conflict", JSON.stringify(p));
    assert.deepEqual(p.conflicts?.map((c) => c.path), ["a.py"]);
    const f = await landTask(failed, FAILED);
    assert.equal(f.status, "failed", JSON.stringify(f));
    assert.deepEqual([f.inTree, f.notLanded?.map((c) => c.path)], [false, ["b.py"]]);
    assert.equal(f.why, FAILED.why);
    assert.equal(l.read("a.py"), "A = 'the user'\n");
    assert.equal(l.read("b.py"), "B = 'the user'\n");
  } finally {
    await l.close();
  }
});

Deno.test("landing (workspace) lands nothing once another server asked to stop the task", async () => {
  const l = await lab();
  try {
    const t = await l.task("W4", "a.py", "workspace");
    await l.edit(t, "A = 2\n");
    l.rounds.busy("W4");
    await askToCancel(l.root, "W4");
    await assert.rejects(() => landTask(t, PASSED), (err: Error) => err.name === "AbortError");
    assert.equal(l.read("a.py"), "A = 0\n");
    assert.equal(l.rounds.busyCount, 0);
  } finally {
    await l.close();
  }
});

Deno.test("landing rounds: when the shared checks fail, each member checks again alone and the clash fails", async () => {
  const l = await lab();
  try {
    // TA runs in the tree (its attempt is there already), TB in a workspace; TC lands after both
    // last checked, so both must check again: together first, in one round.
    const ta = await l.task("TA", "a.py", "tree");
    const tb = await l.task("TB", "b.py", "workspace");
    await l.edit(ta, "A = 1\n");
    await l.edit(tb, "B = 1\n");
    l.write("c.py", "C = 1\n");
    await noteLanded(l.root, "TC", ["c.py"]);
    for (const t of [ta, tb]) {
      l.rounds.busy(t.plan.id);
      t.checkMs = 5_000; // a round waits up to 10 s for the other
    }
    const [, vb] = await Promise.all([landTask(ta, PASSED), landTask(tb, PASSED)]);
    // The round (in TB's workspace) fails; TA checks again alone in the tree; TB alone fails.
    assert.equal(vb.status, "failed", JSON.stringify(vb));
    assert.match(vb.why, /passed alone, but check probe fails together with task T/);
    assert.equal(l.ranIn(l.root), 1, "TA checked again alone after the failed round");
    assert.equal(l.ranIn(tb.place.work), 2, "the round, then TB alone");
    assert.equal(l.read("b.py"), "B = 1\n", "a failed task lands");
    assert.equal(l.rounds.busyCount, 0);
  } finally {
    await l.close();
  }
});

Deno.test("rounds tell every member that the round's checks failed", async () => {
  const rounds = new LandingRounds<string>();
  const signal = new AbortController().signal;
  let led: string[] = [];
  const lead = (members: string[]) => {
    led = members;
    return Promise.resolve(false);
  };
  rounds.busy("b");
  const a = rounds.join("a", "A", { windowMs: 10_000, signal, lead });
  const b = rounds.join("b", "B", { windowMs: 10_000, signal, lead });
  const shape = ({ passed, with: w }: { passed: boolean; with: string[] }) => ({ passed, with: w });
  assert.deepEqual((await Promise.all([a, b])).map(shape), [
    { passed: false, with: ["b"] },
    { passed: false, with: ["a"] },
  ]);
  assert.deepEqual(led, ["A", "B"]);
});

Deno.test("rounds: a first task cancelled while it gathers leaves no member waiting", async () => {
  const rounds = new LandingRounds<string>();
  const stopA = new AbortController();
  const stopB = new AbortController();
  const lead = () => Promise.resolve(true);
  rounds.busy("c"); // a third task still checking: the round keeps gathering
  const a = rounds.join("a", "A", { windowMs: 10_000, signal: stopA.signal, lead });
  const b = rounds.join("b", "B", { windowMs: 10_000, signal: stopB.signal, lead });
  stopA.abort();
  await assert.rejects(a, (err: Error) => err.name === "AbortError");
  // B hears that the round's checks did not run, and checks again on its own.
  const got = await b;
  assert.deepEqual({ passed: got.passed, with: got.with }, { passed: false, with: ["a"] });
  rounds.idle("c");
});

Deno.test("rounds: a member cancelled while it waits for the round stops waiting", async () => {
  const rounds = new LandingRounds<string>();
  const stopB = new AbortController();
  const lead = () => Promise.resolve(true);
  rounds.busy("x"); // a task still checking: A gathers
  const a = rounds.join("a", "A", { windowMs: 10_000, signal: new AbortController().signal, lead });
  const b = rounds.join("b", "B", { windowMs: 10_000, signal: stopB.signal, lead });
  stopB.abort();
  await assert.rejects(b, (err: Error) => err.name === "AbortError");
  rounds.idle("x");
  assert.equal((await a).passed, true);
});

Deno.test("rounds: a member hears whether every other member landed", async () => {
  const rounds = new LandingRounds<string>();
  const signal = new AbortController().signal;
  const lead = () => Promise.resolve(true);
  rounds.busy("b");
  const [a, b] = await Promise.all([
    rounds.join("a", "A", { windowMs: 10_000, signal, lead }),
    rounds.join("b", "B", { windowMs: 10_000, signal, lead }),
  ]);
  a.landed(true);
  b.landed(false); // it conflicted, or was cancelled
  assert.equal(await a.mates(), false, "a was checked with b's change, which did not land");
  assert.equal(await b.mates(), true);
});

Deno.test("landing (workspace) after three contended rounds checks again under the lock, with what landed last", async () => {
  // Every run of the check notes a landing by another task X, as if X landed while it ran; the
  // fifth line (a landing after the third round outside the lock) makes it fail.
  const l = await lab((root) => {
    const log = join(root, ".localexec", "landed.jsonl");
    return `n=$(wc -l < ${log}); printf '%s\\n' '{"task_id":"X","files":[]}' >> ${log}; ` +
      `if [ "$n" -ge 4 ]; then echo late; exit 1; fi; `;
  });
  try {
    const t = await l.task("W1", "a.py", "workspace");
    await l.edit(t, "A = 2\n");
    await noteLanded(l.root, "X", []); // after W1's checks ran
    l.rounds.busy("W1");
    const end = await landTask(t, PASSED);
    assert.equal(end.status, "failed", JSON.stringify(end));
    assert.match(end.why, /passed alone, but check probe fails together with task X/);
    assert.equal(l.ranIn(t.place.work), 4, "three rounds outside the lock, then once under it");
    assert.equal(l.read("a.py"), "A = 2\n", "a failed task lands");
  } finally {
    await l.close();
  }
});

Deno.test("landing rounds: what the round took in counts as seen by every member (one check run)", async () => {
  const l = await lab();
  try {
    const t1 = await l.task("W1", "a.py", "workspace");
    const t2 = await l.task("W2", "b.py", "workspace");
    await l.edit(t1, "A = 2\n");
    await l.edit(t2, "B = 2\n");
    l.write("c.py", "C = 1\n");
    await noteLanded(l.root, "TC", ["c.py"]); // after both last checked
    for (const t of [t1, t2]) {
      l.rounds.busy(t.plan.id);
      t.checkMs = 5_000; // a round waits up to 10 s for the other
    }
    const ends = await Promise.all([landTask(t1, PASSED), landTask(t2, PASSED)]);
    assert.deepEqual(ends.map((e) => e.status), ["passed", "passed"], JSON.stringify(ends));
    const runs = l.ranIn(t1.place.work) + l.ranIn(t2.place.work) + l.ranIn(l.root);
    assert.equal(runs, 1, "the round's one run; no member checks TC's landing again");
    assert.deepEqual([l.read("a.py"), l.read("b.py")], ["A = 2\n", "B = 2\n"]);
  } finally {
    await l.close();
  }
});
