/**
 * A user's edit made while a task runs is never lost (docs/HARDENING.md, "Your edits while a task
 * runs"): the server in process with the SDK client, a scripted Ollama whose replies wait for the
 * test, and a check that can be held while the test edits. Each moment of a task — the model
 * writing, the check running — in the tree and in a workspace (a task beside another), with edits
 * that merge and edits that do not, with `passed`, `failed` and `blocked` ends, and revert_task
 * afterwards. Each of these lost the user's edit before tasks landed like a merge.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { workspaceBase } from "../../lib/tasks/mod.ts";
import { type FakeChatRequest, startFakeOllama } from "../helpers/fake_ollama.ts";
import { callMcp, connectInProcess } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { block, MODEL } from "../helpers/calc.ts";

const A = "def one():\n    return 0\n\n\ndef two():\n    return 2\n";
/** The task's change: one() returns 1. */
const TASK_A = block("a.py", "def one():\n    return 0\n", "def one():\n    return 1\n");
/** The user's edit, far from the task's: a line at the end. */
const USER_LINE = "# the user's line\n";
const B = "B = 0\n";

/** A promise and the function that settles it. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((r) => open = r);
  return { open, opened };
}

/** Resolves once `test` holds, looking every 20 ms (15 s at most). */
async function until(test: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await test()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(await test(), "the awaited state never came");
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A project with a.py (the task's file), b.py (its second file), c.py (a blocker task's file that
 * forces the task under test into a workspace), and a check that stops while `$OUT/hold` exists,
 * saying so with `$OUT/checking`, until the test makes `$OUT/go`; it fails when a.py says BAD.
 */
async function lab() {
  const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
  const out = await Deno.makeTempDir({ prefix: "localexec-meanwhile-" });
  const check = `if [ -e ${out}/hold ]; then touch ${out}/checking; ` +
    `while [ ! -e ${out}/go ]; do sleep 0.02; done; rm -f ${out}/go ${out}/checking ${out}/hold; fi; ` +
    "if grep -q BAD a.py; then echo 'a.py is BAD'; exit 1; fi; " +
    "if grep -q 'return 1' a.py && grep -q CLASH b.py; then echo 'a.py and b.py clash'; exit 1; fi; " +
    `if [ -e ${out}/touch ]; then echo '# touched by the check' >> a.py; fi`;
  const root = await tempProject({
    "a.py": A,
    "b.py": B,
    "c.py": "C = 0\n",
    ".localexec.json": JSON.stringify({
      model: MODEL,
      ollama_host: fake.url,
      max_attempts: 2,
      parallel: 4,
      checks: { probe: { command: check, timeout_s: 60 } },
    }),
  });
  const conn = await connectInProcess(root);
  const read = (rel: string) => Deno.readTextFileSync(join(root, rel));
  const write = (rel: string, text: string) => Deno.writeTextFileSync(join(root, rel), text);
  /** Holds the next check until `release` is called; resolves `held` once it is waiting. */
  const holdCheck = () => {
    Deno.writeTextFileSync(join(out, "hold"), "");
    return {
      held: until(() => exists(join(out, "checking"))),
      release: () => Deno.writeTextFileSync(join(out, "go"), ""),
    };
  };
  /**
   * Starts a task on c.py whose reply waits until the returned function is called, so that the
   * next task runs in a workspace beside it.
   */
  const blocker = async () => {
    const g = gate();
    const chats = fake.chats.length;
    fake.script(async () => {
      await g.opened;
      return block("c.py", "C = 0\n", "C = 1\n");
    });
    const done = callMcp(conn.client, "implement_task", {
      task_id: `BLOCK${chats}`,
      spec: "blocker: set C to 1",
      files_to_edit: ["c.py"],
      checks: [],
    });
    await fake.waitForChats(chats + 1);
    return async () => {
      g.open();
      assert.equal((await done).status, "passed");
    };
  };
  const implement = (id: string, files = ["a.py"]) =>
    callMcp(conn.client, "implement_task", {
      task_id: id,
      spec: "make one() return 1",
      files_to_edit: files,
    });
  return {
    fake,
    root,
    out,
    read,
    write,
    holdCheck,
    blocker,
    implement,
    call: (name: string, args: Record<string, unknown>) => callMcp(conn.client, name, args),
    async close() {
      // A held check ends even when an assertion failed (an in-process server has no watchdog).
      Deno.writeTextFileSync(join(out, "go"), "");
      await conn.close();
      await fake.close();
      await Deno.remove(root, { recursive: true });
      await Deno.remove(out, { recursive: true });
      await Deno.remove(workspaceBase(root), { recursive: true }).catch(() => {});
    },
  };
}

/** A reply that waits until the test has edited (`edit` runs while the model writes). */
function whileWriting(reply: string, edit: () => void): (req: FakeChatRequest) => Promise<string> {
  return () => {
    edit();
    return Promise.resolve(reply);
  };
}

for (const where of ["tree", "workspace"] as const) {
  Deno.test(`meanwhile (${where}): an edit made while the model writes is merged, and revert keeps it`, async () => {
    const l = await lab();
    try {
      const unblock = where === "workspace" ? await l.blocker() : undefined;
      l.fake.script(whileWriting(TASK_A, () => l.write("a.py", A + USER_LINE)));
      const v = await l.implement("M1");
      await unblock?.();
      assert.equal(v.status, "passed", JSON.stringify(v));
      assert.equal(l.read("a.py"), A.replace("return 0", "return 1") + USER_LINE);
      assert.match(String(v.note), /merged/);
      // The patch is the task's lines alone, not the user's merged in.
      const p = await l.call("show_patch", { task_id: "M1" });
      assert.match(String(p.diff), /^\+ {4}return 1$/m);
      assert.doesNotMatch(String(p.diff), /the user's line/);
      const r = await l.call("revert_task", { task_id: "M1" });
      assert.equal(r.status, "reverted", JSON.stringify(r));
      assert.equal(
        l.read("a.py"),
        A + USER_LINE,
        "revert takes the task's line out, keeps the user's",
      );
    } finally {
      await l.close();
    }
  });

  Deno.test(`meanwhile (${where}): an edit of the task's own lines while the model writes is a conflict; the user's version stays`, async () => {
    const l = await lab();
    try {
      const unblock = where === "workspace" ? await l.blocker() : undefined;
      const mine = A.replace("return 0", "return 100");
      l.fake.script(whileWriting(TASK_A, () => l.write("a.py", mine)));
      const v = await l.implement("C1");
      await unblock?.();
      assert.equal(v.status, "conflict", JSON.stringify(v));
      assert.equal(v.escalate, false);
      assert.deepEqual(v.files, ["a.py"]);
      assert.equal(l.read("a.py"), mine);
      const p = await l.call("show_patch", { task_id: "C1" });
      assert.match(String(p.diff), /^\+ {4}return 1$/m, "the patch is the task's version");
      assert.doesNotMatch(String(p.diff), /return 100/);
      const r = await l.call("revert_task", { task_id: "C1" });
      assert.notEqual(r.status, "partial", JSON.stringify(r));
      assert.equal(l.read("a.py"), mine, "revert never writes over the user's version");
      const list = await l.call("list_tasks", {});
      assert.match(JSON.stringify(list), /conflict/);
    } finally {
      await l.close();
    }
  });

  Deno.test(`meanwhile (${where}): an edit made while the check runs is kept, checked, and kept by revert`, async () => {
    const l = await lab();
    try {
      const unblock = where === "workspace" ? await l.blocker() : undefined;
      const hold = l.holdCheck();
      l.fake.script(TASK_A);
      const running = l.implement("K1");
      await hold.held;
      // The tree's a.py: in a workspace still the original, in the tree the task's version.
      l.write("a.py", l.read("a.py") + USER_LINE);
      hold.release();
      const v = await running;
      await unblock?.();
      assert.equal(v.status, "passed", JSON.stringify(v));
      assert.equal(l.read("a.py"), A.replace("return 0", "return 1") + USER_LINE);
      const r = await l.call("revert_task", { task_id: "K1" });
      assert.equal(r.status, "reverted", JSON.stringify(r));
      assert.equal(l.read("a.py"), A + USER_LINE);
    } finally {
      await l.close();
    }
  });

  Deno.test(`meanwhile (${where}): a merge that breaks the check is failed, and the edit is kept`, async () => {
    const l = await lab();
    try {
      const unblock = where === "workspace" ? await l.blocker() : undefined;
      const hold = l.holdCheck();
      l.fake.script(TASK_A, TASK_A);
      const running = l.implement("F1");
      await hold.held;
      const bad = "# BAD: the user's edit that breaks the check\n";
      l.write("a.py", l.read("a.py") + bad);
      hold.release();
      const v = await running;
      await unblock?.();
      assert.equal(v.status, "failed", JSON.stringify(v));
      assert.ok(l.read("a.py").endsWith(bad), "the user's line is in the tree");
      const r = await l.call("revert_task", { task_id: "F1" });
      assert.ok(l.read("a.py").endsWith(bad), `revert kept the user's line: ${JSON.stringify(r)}`);
      assert.doesNotMatch(l.read("a.py"), /return 1/);
    } finally {
      await l.close();
    }
  });

  Deno.test(`meanwhile (${where}): blocked lands nothing and never resets an edit`, async () => {
    const l = await lab();
    try {
      const unblock = where === "workspace" ? await l.blocker() : undefined;
      const hold = l.holdCheck();
      // Attempt 1 writes and fails its check; the user edits meanwhile; attempt 2 asks a question.
      const bad = block("a.py", "def one():\n    return 0\n", "def one():\n    return 'BAD'\n");
      l.fake.script(bad, "QUESTION: should one() return an int or a string?");
      const running = l.implement("B1", ["a.py", "b.py"]);
      await hold.held;
      l.write("b.py", "B = 'the user'\n"); // the task's second file, which the model never edits
      l.write("a.py", l.read("a.py") + USER_LINE);
      hold.release();
      const v = await running;
      await unblock?.();
      assert.equal(v.status, "blocked", JSON.stringify(v));
      assert.equal(l.read("b.py"), "B = 'the user'\n", "the untouched file is the user's");
      assert.ok(l.read("a.py").endsWith(USER_LINE), "the user's line stays");
      assert.doesNotMatch(l.read("a.py"), /BAD/, "the task's earlier attempt is taken out");
    } finally {
      await l.close();
    }
  });

  Deno.test(`meanwhile (${where}): the task's second file, never edited by the model, is never written`, async () => {
    const l = await lab();
    try {
      const unblock = where === "workspace" ? await l.blocker() : undefined;
      const hold = l.holdCheck();
      l.fake.script(TASK_A);
      const running = l.implement("S1", ["a.py", "b.py"]);
      await hold.held;
      l.write("b.py", "B = 'the user'\n");
      hold.release();
      const v = await running;
      await unblock?.();
      assert.equal(v.status, "passed", JSON.stringify(v));
      assert.equal(l.read("b.py"), "B = 'the user'\n");
      assert.deepEqual(v.files, ["a.py"], "the user's edit of b.py is not the task's");
      await l.call("revert_task", { task_id: "S1" });
      assert.equal(l.read("b.py"), "B = 'the user'\n");
      assert.equal(l.read("a.py"), A);
    } finally {
      await l.close();
    }
  });
}

Deno.test("meanwhile (workspace): a task's file under node_modules is never written through the link", async () => {
  const l = await lab();
  try {
    const dep = "node_modules/pkg/index.js";
    const original = "module.exports = 0;\n";
    await Deno.mkdir(join(l.root, "node_modules/pkg"), { recursive: true });
    l.write(dep, original);
    l.write("node_modules/pkg/other.js", "other\n");
    const unblock = await l.blocker();
    const hold = l.holdCheck();
    l.fake.script(block(dep, original, "module.exports = 1;\n"));
    const running = l.call("implement_task", {
      task_id: "N1",
      spec: "export 1",
      files_to_edit: [dep],
    });
    await hold.held;
    // The check runs in the workspace with the task's edit; the user's file is untouched.
    assert.equal(l.read(dep), original, "written through the workspace's node_modules link");
    hold.release();
    const v = await running;
    await unblock();
    assert.equal(v.status, "passed", JSON.stringify(v));
    // Landed through the task's record, so revert restores it.
    assert.equal(l.read(dep), "module.exports = 1;\n");
    assert.equal(l.read("node_modules/pkg/other.js"), "other\n");
    const r = await l.call("revert_task", { task_id: "N1" });
    assert.equal(r.status, "reverted", JSON.stringify(r));
    assert.equal(l.read(dep), original);
  } finally {
    await l.close();
  }
});

Deno.test("meanwhile (tree): an edit made while the model writes the next attempt is kept by blocked, and by a cancel's revert", async () => {
  for (const end of ["blocked", "cancelled"]) {
    const l = await lab();
    const model = gate(); // the cancelled attempt's model, answering only at the test's end
    try {
      const bad = block("a.py", "def one():\n    return 0\n", "def one():\n    return 'BAD'\n");
      let edited!: () => void;
      const editedNow = new Promise<void>((r) => edited = r);
      l.fake.script(bad, async () => {
        l.write("a.py", l.read("a.py") + USER_LINE); // after attempt 1's write, before attempt 2's
        edited();
        if (end === "cancelled") await model.opened;
        return "QUESTION: should one() return an int or a string?";
      });
      const running = l.implement(`E${end}`);
      if (end === "cancelled") {
        await editedNow;
        const r = await l.call("revert_task", { task_id: `E${end}` });
        assert.equal(r.status, "reverted", JSON.stringify(r));
      } else {
        assert.equal((await running).status, "blocked");
      }
      await running;
      assert.equal(l.read("a.py"), A + USER_LINE, `${end}: the task's line out, the user's kept`);
    } finally {
      model.open();
      await l.close();
    }
  }
});

Deno.test("meanwhile (workspace): an edit of the task's untouched file during its check is checked before passed", async () => {
  const l = await lab();
  try {
    const unblock = await l.blocker();
    const hold = l.holdCheck();
    l.fake.script(TASK_A);
    const running = l.implement("W6", ["a.py", "b.py"]);
    await hold.held;
    l.write("b.py", "B = 'CLASH'\n"); // fails the check only together with the task's a.py
    hold.release();
    const v = await running;
    await unblock();
    assert.equal(v.status, "failed", JSON.stringify(v));
    assert.match(String(v.why), /with the edit made meanwhile to b\.py/);
    assert.equal(l.read("b.py"), "B = 'CLASH'\n");
  } finally {
    await l.close();
  }
});

Deno.test("meanwhile (tree): a file that changes during every run of the checks is named, not passed as checked", async () => {
  const l = await lab();
  try {
    Deno.writeTextFileSync(join(l.out, "touch"), ""); // the check itself appends to a.py
    l.fake.script(TASK_A);
    const v = await l.implement("T8");
    assert.equal(v.status, "passed", JSON.stringify(v));
    assert.match(JSON.stringify(v.warnings), /changed again while the checks ran/);
  } finally {
    await l.close();
  }
});
