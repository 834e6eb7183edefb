/**
 * Parallel tasks end to end (docs/ARCHITECTURE.md, "Parallel tasks"): the real server over stdio,
 * a scripted Ollama whose replies wait for what the other task did, real checks. Two tasks on
 * disjoint files run at once; the second runs in a workspace, whose checks never see the first
 * task's unfinished edits; the task that lands second checks again with the first one's change.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { workspaceBase } from "../../lib/tasks/mod.ts";
import { type FakeChatRequest, startFakeOllama } from "../helpers/fake_ollama.ts";
import { callMcp, connect } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { block, MODEL } from "../helpers/calc.ts";

/** Resolves once `test` holds, looking every 20 ms (10 s at most). */
async function until(test: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!test() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(test(), "the awaited state never came");
}

function _text(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

/** Whether the chat `req` is for the task whose spec says `word`. */
function _for(req: FakeChatRequest, word: string): boolean {
  return JSON.stringify(req.messages).includes(word);
}

async function _lab(check: string) {
  const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
  const out = await Deno.makeTempDir({ prefix: "localexec-saw-" });
  const root = await tempProject({
    "a.py": "A = 0\n",
    "b.py": "B = 0\n",
    ".localexec.json": JSON.stringify({
      model: MODEL,
      ollama_host: fake.url,
      max_attempts: 1,
      checks: { probe: { command: check.replaceAll("$OUT", out), timeout_s: 60 } },
    }),
  });
  const conn = await connect(root);
  const call = (id: string, spec: string, file: string) =>
    callMcp(conn.client, "implement_task", { task_id: id, spec, files_to_edit: [file] });
  /**
   * Runs TA (alpha: a.py) and, once its chat came, TB (beta: b.py) at once; TB's reply waits
   * until A's edit is in the tree, and `pauseMs` more.
   */
  const both = (pauseMs: number) => {
    const reply = async (req: FakeChatRequest) => {
      if (_for(req, "task alpha")) return block("a.py", "A = 0\n", "A = 1\n");
      await until(() => _text(join(root, "a.py")) === "A = 1\n");
      await new Promise((r) => setTimeout(r, pauseMs));
      return block("b.py", "B = 0\n", "B = 2\n");
    };
    fake.script(reply, reply);
    const a = call("TA", "task alpha: set A to 1", "a.py");
    return fake.waitForChats(1).then(() =>
      Promise.all([a, call("TB", "task beta: set B to 2", "b.py")])
    );
  };
  return {
    fake,
    root,
    out,
    both,
    conn,
    async close() {
      await conn.close();
      await fake.close();
      await Deno.remove(root, { recursive: true });
      await Deno.remove(out, { recursive: true });
      await Deno.remove(workspaceBase(root), { recursive: true }).catch(() => {});
    },
  };
}

Deno.test("parallel a check of task B never sees task A's unfinished edit", async () => {
  // A's check holds A's edit in the tree for 3 s; B's reply comes only once A's edit is there.
  // B's check notes what a.py held the first time it ran (A's later re-check sees both).
  const lab = await _lab(
    "grep -q 'B = 2' b.py && [ ! -e $OUT/b_saw ] && cat a.py > $OUT/b_saw; grep -q 'A = 1' a.py && sleep 3; true",
  );
  try {
    const [va, vb] = await lab.both(0);
    assert.equal(va.status, "passed", JSON.stringify(va));
    assert.equal(vb.status, "passed", JSON.stringify(vb));
    assert.equal(
      _text(join(lab.out, "b_saw")),
      "A = 0\n",
      "B's check saw a.py as it was before A",
    );
    assert.equal(_text(join(lab.root, "a.py")), "A = 1\n");
    assert.equal(_text(join(lab.root, "b.py")), "B = 2\n");
  } finally {
    await lab.close();
  }
});

Deno.test("parallel two steps that pass alone but fail together: the second to land is not passed", async () => {
  // The check fails when both edits are there. A runs in the tree: its check passes at once, then
  // holds for 2 s; B (in a workspace) passes and lands meanwhile, so A checks again before it may
  // land, and fails.
  const lab = await _lab(
    "if grep -q 'A = 1' a.py && grep -q 'B = 2' b.py; then echo 'A and B clash'; exit 1; fi; " +
      "grep -q 'A = 1' a.py && [ ! -e $OUT/rechecked ] && touch $OUT/rechecked && sleep 2; true",
  );
  try {
    const [va, vb] = await lab.both(300);
    assert.equal(vb.status, "passed", JSON.stringify(vb));
    assert.equal(va.status, "failed", JSON.stringify(va));
    assert.match(String(va.why), /passed alone, but check probe fails together with task TB/);
    assert.match(String(va.failed_check), /A and B clash/);
    // Both landed (a failed task's edits stay in the tree, as always), and A is revertable.
    assert.equal(_text(join(lab.root, "a.py")), "A = 1\n");
    assert.equal(_text(join(lab.root, "b.py")), "B = 2\n");
    const r = await callMcp(lab.conn.client, "revert_task", { task_id: "TA" });
    assert.equal(r.status, "reverted");
    assert.equal(_text(join(lab.root, "a.py")), "A = 0\n");
    const list = await callMcp(lab.conn.client, "list_tasks", {});
    assert.match(JSON.stringify(list), /TB/);
  } finally {
    await lab.close();
  }
});

Deno.test("parallel two servers on one project run disjoint tasks at once, each isolated", async () => {
  const lab = await _lab(
    "grep -q 'B = 2' b.py && [ ! -e $OUT/b_saw ] && cat a.py > $OUT/b_saw; " +
      "grep -q 'A = 1' a.py && sleep 2; true",
  );
  const other = await connect(lab.root);
  try {
    const reply = async (req: FakeChatRequest) => {
      if (_for(req, "task alpha")) return block("a.py", "A = 0\n", "A = 1\n");
      await until(() => _text(join(lab.root, "a.py")) === "A = 1\n");
      return block("b.py", "B = 0\n", "B = 2\n");
    };
    lab.fake.script(reply, reply);
    const a = callMcp(lab.conn.client, "implement_task", {
      task_id: "SA",
      spec: "task alpha: set A to 1",
      files_to_edit: ["a.py"],
    });
    await lab.fake.waitForChats(1);
    const b = callMcp(other.client, "implement_task", {
      task_id: "SB",
      spec: "task beta: set B to 2",
      files_to_edit: ["b.py"],
    });
    const [va, vb] = await Promise.all([a, b]);
    assert.equal(va.status, "passed", JSON.stringify(va));
    assert.equal(vb.status, "passed", JSON.stringify(vb));
    // B's reply came only once A's edit was in the tree, and B's check ran while A's check held
    // it there: B ran beside A, and did not see it.
    assert.equal(_text(join(lab.out, "b_saw")), "A = 0\n", "B's check did not see A's edit");
    assert.match(_text(join(lab.root, ".localexec/SB.log")), /a workspace/);
  } finally {
    await other.close();
    await lab.close();
  }
});

Deno.test("parallel a workspace task takes in what landed once: one check again, not one per round", async () => {
  // B's first check (in its workspace) waits until A has landed; A's check (in the tree) waits
  // until B's has begun. So A lands after B's checks ran, and B checks again once with A's change:
  // the sync that takes A's landing in marks it seen. Three runs in all.
  const lab = await _lab(
    "echo run >> $OUT/runs; " +
      "if grep -q 'B = 2' b.py && [ ! -e $OUT/b_began ]; then touch $OUT/b_began; " +
      `while ! grep -qs '"task_id":"TA"' $OUT/root/.localexec/landed.jsonl; do sleep 0.05; done; fi; ` +
      "if grep -q 'A = 1' a.py && ! grep -q 'B = 2' b.py; then " +
      "while [ ! -e $OUT/b_began ]; do sleep 0.05; done; fi; true",
  );
  try {
    await Deno.symlink(lab.root, join(lab.out, "root"));
    const [va, vb] = await lab.both(0);
    assert.equal(va.status, "passed", JSON.stringify(va));
    assert.equal(vb.status, "passed", JSON.stringify(vb));
    const runs = _text(join(lab.out, "runs")).split("\n").filter(Boolean).length;
    assert.equal(runs, 3, "A once, B once and once again with A's change");
    assert.equal(_text(join(lab.root, "b.py")), "B = 2\n");
  } finally {
    await lab.close();
  }
});
