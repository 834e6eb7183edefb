/**
 * implement_task's handling of the reply shapes real small models write (issue 8): a file name
 * alone in its own fence, a whole-file reply that would delete most of the file, a request for a
 * file the prompt showed, a request for something else; and the task log's decision line.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { judgeReply } from "../../lib/implement/reply.ts";
import implementTool from "../../tools/implement_task.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake_ollama.ts";
import { callJson, tempProject, testContext } from "../helpers/project.ts";
import { CALC, FIX_ADD, FIXED, MODEL } from "../helpers/calc.ts";

async function withProject(
  fn: (fake: FakeOllama, root: string) => Promise<void>,
): Promise<void> {
  const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
  const root = await tempProject({
    "calc.py": CALC,
    ".localexec.json": JSON.stringify({ model: MODEL, ollama_host: fake.url, max_attempts: 2 }),
  });
  try {
    await fn(fake, root);
  } finally {
    await fake.close();
    await Deno.remove(root, { recursive: true });
  }
}

function run(root: string, id: string, spec: string): Promise<Record<string, unknown>> {
  return callJson(
    implementTool,
    { task_id: id, spec, files_to_edit: ["calc.py"] },
    testContext(root),
  );
}

function userText(fake: FakeOllama, i: number): string {
  return fake.chats[i].messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
}

Deno.test("implement_task writes the code, not the name, when the name has its own fence", async () => {
  await withProject(async (fake, root) => {
    // The shape phi4 14B and granite3.3 8B write (real corpus, shape name_fence_*).
    fake.script(
      "Sorry about that. The corrected `calc.py` follows:\n\n" +
        "```plaintext\ncalc.py\n```\n```python\n" + FIXED + "```\n\nThis fixes add().\n",
    );
    const out = await run(root, "N1", "fix add");
    assert.equal(out.status, "passed");
    assert.equal(await Deno.readTextFile(join(root, "calc.py")), FIXED);
    const log = await Deno.readTextFile(join(root, ".localexec/N1.log"));
    assert.match(log, /--- attempt 1 decision ---\nparse: calc\.py \(whole file\); notes: Took/);
    assert.match(log, /apply: changes calc\.py/);
  });
});

Deno.test("implement_task refuses an edit that deletes most of a file, says what would go", async () => {
  await withProject(async (fake, root) => {
    fake.script("calc.py\n```python\ndef add(a, b):\n    return a + b\n```\n", FIX_ADD);
    const out = await run(root, "D1", "fix add");
    assert.equal(out.status, "passed");
    assert.equal(out.attempts, 2);
    const feedback = userText(fake, 1);
    assert.match(feedback, /would remove 3 of the 4 lines of "calc.py"/);
    assert.match(feedback, /"def sub\(a, b\):"/);
    assert.match(feedback, /narrower edit/);
    assert.equal(await Deno.readTextFile(join(root, "calc.py")), FIXED);
    const log = await Deno.readTextFile(join(root, ".localexec/D1.log"));
    assert.match(log, /apply: refused \(destructive\), nothing written/);
  });
});

Deno.test("implement_task applies the deletion a task asks for", async () => {
  await withProject(async (fake, root) => {
    fake.script("calc.py\n```python\ndef add(a, b):\n    return a + b\n```\n");
    const out = await run(root, "D2", "fix add and remove sub()");
    assert.equal(out.status, "passed");
    assert.equal(
      await Deno.readTextFile(join(root, "calc.py")),
      "def add(a, b):\n    return a + b\n",
    );
  });
});

Deno.test("implement_task tells a model that asks for a file it was shown to use it", async () => {
  await withProject(async (fake, root) => {
    // The shape devstral 24B and gpt-oss 20B write (real corpus, shape asks_for_shown_file).
    fake.script(
      "OK. Please provide the current `calc.py` so I can change it.",
      FIX_ADD,
    );
    const out = await run(root, "A1", "fix add");
    assert.equal(out.status, "passed");
    assert.match(userText(fake, 1), /asks for "calc\.py", but its current content is already/);
  });
});

Deno.test("implement_task asks the caller when the model wants a file it was not shown", async () => {
  await withProject(async (fake, root) => {
    fake.script("Could you please share `helpers.py`? add() calls into it.");
    const out = await run(root, "A2", "fix add");
    assert.equal(out.status, "blocked");
    assert.match(String(out.question), /share `helpers\.py`/);
    assert.equal(await Deno.readTextFile(join(root, "calc.py")), CALC);
  });
});

Deno.test("implement_task's feedback after a refusal shows the shape with the file's name", async () => {
  await withProject(async (fake, root) => {
    const miss = "calc.py\n<<<<<<< SEARCH\nreturn a * b\n=======\nreturn a + b\n>>>>>>> REPLACE\n";
    fake.script(miss, miss);
    const out = await run(root, "S1", "fix add");
    assert.equal(out.status, "failed");
    const feedback = userText(fake, 1);
    assert.match(feedback, /matches nothing/);
    assert.match(
      feedback,
      /The shape to use:\ncalc\.py\n```\n\(the complete new content of calc\.py\)/,
    );
    // The caller gets the problem without the reminder.
    assert.doesNotMatch(String(out.error), /The shape to use/);
  });
});

// ---- the whole-file excerpt guard's boundaries, through the reply applier ----

/** Judges a whole-file reply for `path` (its name on the line before the fence). */
function judgeWhole(path: string, before: string, after: string, spec: string) {
  return judgeReply(`${path}\n\`\`\`\n${after}\`\`\`\n`, {
    spec,
    files: [path],
    symbolsOnly: [],
    current: new Map([[path, before]]),
  });
}

/** `n` settings lines, one per line, from 1. */
function settings(n: number): string {
  return Array.from({ length: n }, (_, i) => `key_${i + 1} = ${i + 1}\n`).join("");
}

Deno.test("a whole file under 40% of a file of 15+ lines is an excerpt; 40% exactly, or 14 lines, is not", () => {
  // The task asks for lines to go, so only the excerpt guard can refuse.
  const spec = "remove the settings after the first few";
  const cut = (n: number, keep: number) =>
    judgeWhole("settings.txt", settings(n), settings(keep), spec);
  const excerpt = cut(15, 5);
  assert.equal(excerpt.kind, "unusable");
  assert.match(
    excerpt.kind === "unusable" ? excerpt.problem : "",
    /has 5 lines of code where the file has 15; it looks like an excerpt/,
  );
  assert.equal(cut(15, 6).kind, "edits", "6 of 15 is 40% exactly");
  assert.equal(cut(14, 5).kind, "edits", "a file under 15 lines is never judged by size");
});

Deno.test("a whole file dropping 2 definitions and half of them is an excerpt; fewer is not", () => {
  const defs = (names: number[]) => names.map((n) => `def f${n}():\n    return ${n}\n`).join("\n");
  const judge = (had: number[], kept: number[], spec = "f1 must return 1") =>
    judgeWhole("mod.py", defs(had), defs(kept), spec);
  const half = judge([1, 2, 3, 4], [1, 2]);
  assert.equal(half.kind, "unusable");
  assert.match(half.kind === "unusable" ? half.problem : "", /drops "f3", "f4"/);
  assert.equal(judge([1, 2, 3, 4, 5], [1, 2, 3]).kind, "edits", "2 of 5 is under half");
  assert.equal(judge([1, 2], [1]).kind, "edits", "one function may go whole-file");
  // A task that asks for a deletion leaves the names to the definitions validator.
  const asked = judge([1, 2, 3, 4], [1, 2], "remove the unused functions");
  assert.equal(asked.kind, "edits");
});

Deno.test("a closing fence with a three-word sentence glued to it closes the block", () => {
  const out = judgeReply(`calc.py\n\`\`\`python\n${FIXED}\`\`\`This fixes it.\n`, {
    spec: "fix add",
    files: ["calc.py"],
    symbolsOnly: [],
    current: new Map([["calc.py", CALC]]),
  });
  assert.equal(out.kind, "edits", JSON.stringify(out));
  assert.equal(out.kind === "edits" && out.files.get("calc.py"), FIXED);
});
