/**
 * implement_task through its handler (in process, through the boundary) against the scripted
 * Ollama, and the prompt builder on its own.
 */
import assert from "node:assert/strict";
import { estimateChatTokens } from "../../lib/implement/context_size.ts";
import { join } from "../../lib/deps.ts";
import { buildPrompt, excerpt, mergeRanges, prefixShare } from "../../lib/implement/prompt.ts";
import { fitVerdict } from "../../lib/implement/verdict.ts";
import { withProjectLock } from "../../lib/tasks/lock.ts";
import { revertTask } from "../../lib/tasks/mod.ts";
import implementTool from "../../tools/implement_task.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake_ollama.ts";
import { callJson, tempProject, testContext } from "../helpers/project.ts";
import { block, CALC, FIX_ADD, FIXED, MODEL, WRONG_ADD } from "../helpers/calc.ts";
import { prose } from "../helpers/context.ts";

interface Env {
  fake: FakeOllama;
  root: string;
  close(): Promise<void>;
}

async function setup(
  files: Record<string, string>,
  config: Record<string, unknown> = {},
  models = [{ name: MODEL, contextLength: 32768 }],
): Promise<Env> {
  const fake = await startFakeOllama({ models });
  const root = await tempProject({
    ...files,
    ".localexec.json": JSON.stringify({ model: MODEL, ollama_host: fake.url, ...config }),
  });
  return {
    fake,
    root,
    async close() {
      await fake.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

function run(
  env: Env,
  args: Record<string, unknown>,
  options: { signal?: AbortSignal; progress?: string[] } = {},
): Promise<Record<string, unknown>> {
  return callJson(implementTool, args, testContext(env.root, options));
}

function userText(fake: FakeOllama, i: number): string {
  return fake.chats[i].messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
}

function short(out: Record<string, unknown>): void {
  const { failed_check: _, ...rest } = out;
  const size = JSON.stringify(rest).length;
  assert.ok(size <= 1000, `result is ${size} characters`);
  for (const key of ["status", "attempts", "escalate", "why"]) assert.ok(key in out, key);
}

/** Allocates and drops enough objects to make V8 run a full garbage collection. */
function churn(): number {
  let n = 0;
  for (let round = 0; round < 6; round++) {
    const hold: unknown[] = [];
    for (let i = 0; i < 400_000; i++) hold.push({ a: i, b: [i] });
    n += hold.length;
  }
  return n;
}

// ---- prompt building ----

Deno.test("prompt excerpt shows symbol ranges with margins and marks what is left out", () => {
  const content = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const text = excerpt(content, [{ start: 10, end: 12 }, { start: 30, end: 31 }]);
  const lines = text.split("\n");
  assert.equal(lines[0], "⋯ lines 1-6 not shown ⋯");
  assert.equal(lines[1], "line 7");
  assert.ok(lines.includes("line 15"));
  assert.ok(!lines.includes("line 16"));
  assert.ok(lines.includes("⋯ lines 16-26 not shown ⋯"));
  assert.ok(lines.includes("line 27") && lines.includes("line 34"));
  assert.equal(lines.at(-1), "⋯ lines 35-40 not shown ⋯");
  // overlapping and touching ranges merge; clamped to the file
  assert.deepEqual(mergeRanges([{ start: 1, end: 2 }, { start: 5, end: 6 }], 7), [
    { start: 1, end: 7 },
  ]);
});

Deno.test("prompt cuts context files to the budget and lists them as truncated", () => {
  const big = Array.from({ length: 3000 }, (_, i) => `VALUE_${i} = compute(${i})  # note`)
    .join("\n");
  const small = "HELPER = 1\n";
  const prompt = buildPrompt({
    spec: "do it",
    files: [{ rel: "a.py", content: "x = 1\n", format: "whole" }],
    context: [
      { rel: "small.py", content: small },
      { rel: "big.py", content: big },
      { rel: "later.py", content: big },
    ],
    contextBudget: 2000,
  });
  const user = prompt.messages[1].content;
  assert.deepEqual(prompt.truncated, ["big.py", "later.py"]);
  assert.match(user, /### small\.py\n```python\nHELPER = 1\n```/);
  assert.match(user, /### big\.py \(cut to fit\)/);
  assert.match(user, /⋯ \d+ more lines not shown ⋯/);
  assert.match(user, /VALUE_0 = compute\(0\)/);
  assert.doesNotMatch(user, /VALUE_2999/);
  // what is left of the budget after the first cut may show the start of the next file
  const bare = buildPrompt({
    spec: "do it",
    files: [{ rel: "a.py", content: "x = 1\n", format: "whole" }],
    context: [],
    contextBudget: 2000,
  });
  assert.ok(prompt.estimate - bare.estimate <= 2000, "the context stays within its budget");
  // the estimate stays conservative: never below what the messages hold
  assert.ok(prompt.estimate >= estimateChatTokens(prompt.messages), "estimate errs high");
  const none = buildPrompt({
    spec: "do it",
    files: [{ rel: "a.py", content: "x = 1\n", format: "diff" }],
    context: [{ rel: "big.py", content: big }],
    contextBudget: 0,
  });
  assert.deepEqual(none.truncated, ["big.py"]);
  assert.doesNotMatch(none.messages[1].content, /Read-only context/);
});

Deno.test("prompt marks a symbols-only file and carries retry feedback", () => {
  const content = Array.from({ length: 100 }, (_, i) => `x${i} = ${i}`).join("\n") + "\n";
  const prompt = buildPrompt({
    spec: "change x50",
    files: [{ rel: "m.py", content, format: "diff", ranges: [{ start: 50, end: 51 }] }],
    context: [],
    feedback: "The SEARCH part of block 1 matches nothing",
    contextBudget: 1000,
  });
  const user = prompt.messages[1].content;
  assert.match(user, /only parts of this 100-line file are shown/);
  assert.match(user, /x49 = 49/);
  assert.doesNotMatch(user, /x10 = 10\n/);
  assert.match(user, /## Your previous reply did not work\nThe SEARCH part of block 1/);
  assert.match(prompt.messages[0].content, /<<<<<<< SEARCH/);
});

// ---- the loop, through the handler ----

Deno.test("implement_task switches to whole-file after two failed matches on a small file", async () => {
  const env = await setup({ "calc.py": CALC }, { max_attempts: 3 });
  try {
    const miss = block(
      "calc.py",
      "def add(x, y):\n    return x - y\n",
      "def add(x, y):\n    return x + y\n",
    );
    env.fake.script(miss, miss, `calc.py\n\`\`\`python\n${FIXED}\`\`\`\n`);
    const out = await run(env, {
      task_id: "F1",
      spec: "fix add",
      files_to_edit: ["calc.py"],
      symbols: ["calc.py::add"],
    });
    short(out);
    assert.equal(out.status, "passed", JSON.stringify(out));
    assert.equal(out.attempts, 3);
    assert.match(userText(env.fake, 0), /only parts of this/);
    assert.match(env.fake.chats[0].messages[0].content, /SEARCH\/REPLACE/);
    // the nearest lines go back with the failed match
    assert.match(userText(env.fake, 1), /matches nothing[\s\S]*def add\(a, b\):/);
    assert.match(userText(env.fake, 1), /only parts of this/);
    const third = userText(env.fake, 2);
    assert.match(third, /calc\.py — whole file: reply with its complete new content/);
    assert.match(third, /def sub\(a, b\):/);
    assert.doesNotMatch(third, /not shown/);
    assert.equal(await Deno.readTextFile(join(env.root, "calc.py")), FIXED);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task feeds a reply cut off by the length limit back to the model", async () => {
  const env = await setup({ "calc.py": CALC });
  try {
    env.fake.script(
      { content: "calc.py\n<<<<<<< SEARCH\ndef add(a, b):\n", doneReason: "length" },
      FIX_ADD,
    );
    const out = await run(env, { task_id: "D1", spec: "fix add", files_to_edit: ["calc.py"] });
    assert.equal(out.status, "passed");
    assert.equal(out.attempts, 2);
    assert.match(userText(env.fake, 1), /cut off/);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task with checks [] runs none, and says so", async () => {
  const env = await setup({ "calc.py": CALC }, {
    checks: { never: { command: "touch ran.txt; exit 1" } },
    max_attempts: 1,
  });
  try {
    env.fake.script(FIX_ADD);
    const out = await run(env, {
      task_id: "E1",
      spec: "fix add",
      files_to_edit: ["calc.py"],
      checks: [],
    });
    assert.equal(out.status, "passed");
    assert.equal(out.why, "edits applied; no checks were selected");
    await assert.rejects(Deno.stat(join(env.root, "ran.txt")), Deno.errors.NotFound);
    // absent means all of them
    env.fake.script(block("calc.py", "def sub(a, b):\n", "def sub(a, b):  # minus\n"));
    const all = await run(env, { task_id: "E2", spec: "comment sub", files_to_edit: ["calc.py"] });
    assert.equal(all.status, "failed");
    assert.match(String(all.failed_check), /^never/);
    await Deno.stat(join(env.root, "ran.txt"));
  } finally {
    await env.close();
  }
});

Deno.test("implement_task answers error with escalate when the task cannot fit the model", async () => {
  const huge = Array.from({ length: 1200 }, (_, i) => `def f${i}(x):\n    return x * ${i}\n`)
    .join("\n");
  const env = await setup({ "big.py": huge }, {}, [{ name: MODEL, contextLength: 2048 }]);
  try {
    const out = await run(env, {
      task_id: "X1",
      spec: "rewrite everything",
      files_to_edit: ["big.py"],
    });
    short(out);
    assert.equal(out.status, "error");
    assert.equal(out.escalate, true);
    assert.equal(out.attempts, 0);
    assert.match(String(out.error), /task needs ~\d+ tokens; the model's window is 2048/);
    assert.match(String(out.error), /symbols/);
    assert.equal(env.fake.chats.length, 0);
    assert.equal(await Deno.readTextFile(join(env.root, "big.py")), huge);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task cuts context files to the model's window and lists them", async () => {
  const big = Array.from({ length: 4000 }, (_, i) => `VALUE_${i} = compute(${i})  # note`)
    .join("\n");
  const env = await setup({ "calc.py": CALC, "values.py": big }, {}, [
    { name: MODEL, contextLength: 8192 },
  ]);
  try {
    env.fake.script(FIX_ADD);
    const out = await run(env, {
      task_id: "W1",
      spec: "fix add",
      files_to_edit: ["calc.py"],
      context_files: ["values.py"],
    });
    short(out);
    assert.equal(out.status, "passed");
    assert.deepEqual(out.truncated, ["values.py"]);
    const chat = env.fake.chats[0];
    assert.ok(Number(chat.options?.num_ctx) <= 8192);
    assert.ok(Number(chat.options?.num_ctx) >= estimateChatTokens(chat.messages));
    assert.match(userText(env.fake, 0), /### values\.py \(cut to fit\)/);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task reuses the context a model is loaded with, under its short name", async () => {
  const env = await setup({ "calc.py": CALC }, { model: "coder" }, [
    { name: "coder:latest", contextLength: 32768 },
  ]);
  try {
    // load it with a 16k window, as an earlier task would have
    await fetch(`${env.fake.url}/api/chat`, {
      method: "POST",
      body: JSON.stringify({ model: "coder", messages: [], options: { num_ctx: 16384 } }),
    }).then((r) => r.body?.cancel());
    env.fake.script(FIX_ADD);
    const out = await run(env, { task_id: "R1", spec: "fix add", files_to_edit: ["calc.py"] });
    assert.equal(out.status, "passed");
    assert.equal(env.fake.chats.at(-1)!.options?.num_ctx, 16384);
    assert.equal(env.fake.loads, 1, "no reload");
  } finally {
    await env.close();
  }
});

Deno.test("implement_task reports failed with the problem when no reply can be used", async () => {
  const env = await setup({ "calc.py": CALC }, { max_attempts: 2 });
  try {
    env.fake.script("I would change the subtraction to an addition.", "Sure! Done.");
    const out = await run(env, { task_id: "U1", spec: "fix add", files_to_edit: ["calc.py"] });
    short(out);
    assert.equal(out.status, "failed");
    assert.equal(out.escalate, true);
    assert.equal(out.attempts, 2);
    assert.match(String(out.why), /no usable edit came back in 2 attempts/);
    assert.match(String(out.error), /holds no edits/);
    assert.match(String(out.note), /no edit was applied/);
    assert.equal(out.files, undefined);
    assert.equal(await Deno.readTextFile(join(env.root, "calc.py")), CALC);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task keeps a long question and many warnings within the result size", async () => {
  const env = await setup({ "calc.py": CALC });
  try {
    env.fake.script(`QUESTION: ${"Which of these do you mean? ".repeat(120)}`);
    const out = await run(env, { task_id: "Q1", spec: "fix add", files_to_edit: ["calc.py"] });
    short(out);
    assert.equal(out.status, "blocked");
    assert.match(String(out.question), /^Which of these do you mean\?/);
    const log = await Deno.readTextFile(join(env.root, ".localexec/Q1.log"));
    assert.ok(log.includes("Which of these do you mean? ".repeat(120).trim()), "the log has all");
  } finally {
    await env.close();
  }
  const fitted = fitVerdict({
    status: "passed",
    attempts: 1,
    escalate: false,
    why: "all checks passed",
    warnings: Array.from({ length: 8 }, (_, i) => `warning ${i}: ${"x".repeat(300)}`),
    truncated: Array.from({ length: 20 }, (_, i) => `src/some/deep/folder/context_${i}.py`),
    failed_check: "tests: " + "y".repeat(1800),
  });
  const { failed_check: kept, ...rest } = fitted;
  assert.ok(JSON.stringify(rest).length <= 1000, JSON.stringify(rest));
  assert.equal(String(kept).length, 1807, "failed_check is left whole");
});

Deno.test("implement_task warns when Ollama read far fewer prompt tokens than sent", async () => {
  const env = await setup({ "calc.py": CALC });
  try {
    env.fake.script({ content: FIX_ADD, promptEvalCount: 3 });
    const out = await run(env, { task_id: "P1", spec: "fix add", files_to_edit: ["calc.py"] });
    assert.equal(out.status, "passed");
    assert.match(String((out.warnings as string[])[0]), /did not reach the model/);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task gives up on the lock after lock_timeout_s, tree untouched", async () => {
  const env = await setup({ "calc.py": CALC }, { lock_timeout_s: 0.3 });
  try {
    env.fake.script(FIX_ADD);
    const out = await withProjectLock(
      env.root,
      { tool: "run_checks" },
      () => run(env, { task_id: "L1", spec: "fix add", files_to_edit: ["calc.py"] }),
    );
    short(out);
    assert.equal(out.status, "error");
    assert.equal(out.why, "another task holds the project lock");
    assert.match(String(out.error), /locked by pid \d+ \(run_checks\)/);
    assert.equal(env.fake.chats.length, 0);
    assert.equal(await Deno.readTextFile(join(env.root, "calc.py")), CALC);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task explains a missing, model-less or invalid configuration", async () => {
  const root = await tempProject({ "calc.py": CALC });
  try {
    const args = { task_id: "C1", spec: "fix add", files_to_edit: ["calc.py"] };
    const none = await callJson(implementTool, args, testContext(root));
    short(none);
    assert.match(String(none.error), /localexec init/);
    await Deno.writeTextFile(join(root, ".localexec.json"), "{}");
    const noModel = await callJson(implementTool, args, testContext(root));
    assert.match(String(noModel.error), /add "model" to \.localexec\.json/);
    await Deno.writeTextFile(join(root, ".localexec.json"), '{"model": "m", "max_attempts": "3"}');
    const bad = await callJson(implementTool, args, testContext(root));
    short(bad);
    assert.match(String(bad.error), /max_attempts: expected an integer, got string/);
    assert.equal(bad.why, "the configuration needs fixing");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("implement_task stops a running check on cancellation and stays revertable", async () => {
  const env = await setup({ "calc.py": CALC }, {
    checks: { slow: { command: "echo $$ > check.pid; sleep 30" } },
  });
  try {
    env.fake.script(FIX_ADD);
    const ctl = new AbortController();
    const progress: string[] = [];
    const call = run(env, { task_id: "S1", spec: "fix add", files_to_edit: ["calc.py"] }, {
      signal: ctl.signal,
      progress,
    });
    const pidFile = join(env.root, "check.pid");
    while (!(await Deno.readTextFile(pidFile).catch(() => "")).trim()) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const pid = Number((await Deno.readTextFile(pidFile)).trim());
    const started = performance.now();
    ctl.abort();
    const out = await call;
    const secs = (performance.now() - started) / 1000;
    short(out);
    assert.ok(secs < 2, `answered ${secs} s after cancellation`);
    assert.equal(out.status, "error");
    assert.equal(out.error, "cancelled");
    assert.match(String(out.note), /revert_task/);
    assert.ok(progress.includes("attempt 1/3: running check slow 1/1"));
    await assert.rejects(Deno.stat(`/proc/${pid}`), Deno.errors.NotFound);
    assert.equal(await Deno.readTextFile(join(env.root, "calc.py")), FIXED);
    const reverted = await revertTask(env.root, "S1");
    assert.equal(reverted.status, "reverted");
    assert.equal(await Deno.readTextFile(join(env.root, "calc.py")), CALC);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task ends a stalled model request within a second of cancellation", async () => {
  const env = await setup({ "calc.py": CALC });
  try {
    env.fake.chatMode = "stall";
    const ctl = new AbortController();
    const call = run(env, { task_id: "S2", spec: "fix add", files_to_edit: ["calc.py"] }, {
      signal: ctl.signal,
    });
    await env.fake.waitForChats(1);
    await new Promise((r) => setTimeout(r, 50));
    // A full garbage collection while the request waits must not make it deaf to cancellation.
    churn();
    const started = performance.now();
    ctl.abort();
    const out = await Promise.race([
      call,
      new Promise<Record<string, unknown>>((r) =>
        setTimeout(() => r({ status: "still running" }), 5000)
      ),
    ]);
    const secs = (performance.now() - started) / 1000;
    assert.equal(out.status, "error", `${JSON.stringify(out)} after ${secs} s`);
    assert.equal(out.error, "cancelled");
    assert.ok(secs < 1.5, `answered ${secs} s after cancellation`);
    const chat = env.fake.requests.find((r) => r.path === "/api/chat")!;
    for (let i = 0; i < 50 && chat.doneMs === undefined; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(chat.doneMs !== undefined, "the connection to Ollama was closed");
    assert.equal(await Deno.readTextFile(join(env.root, "calc.py")), CALC);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task leaves the tree as it was when the run fails midway", async () => {
  // The check fails and, on its way out, turns the task's log into a folder: the next attempt
  // cannot write its log, which ends the run with an error after an edit was applied.
  const env = await setup({ "calc.py": CALC }, {
    checks: { sabotage: { command: "rm -f .localexec/M1.log; mkdir .localexec/M1.log; exit 1" } },
  });
  try {
    env.fake.script(FIX_ADD, FIX_ADD);
    const out = await run(env, { task_id: "M1", spec: "fix add", files_to_edit: ["calc.py"] });
    short(out);
    assert.equal(out.status, "error", JSON.stringify(out));
    assert.equal(out.attempts, 2);
    assert.equal(await Deno.readTextFile(join(env.root, "calc.py")), CALC);
  } finally {
    await env.close();
  }
});

Deno.test("prompt: the instructions do not depend on the files' formats, and the context comes before the task", () => {
  const make = (format: "whole" | "diff", feedback?: string) =>
    buildPrompt({
      spec: "do it",
      files: [{ rel: "a.py", content: "x = 1\n", format }],
      context: [{ rel: "notes.md", content: "# Notes\nhelpful\n" }],
      feedback,
      contextBudget: 2000,
    });
  const whole = make("whole");
  const diff = make("diff", "The check failed");
  assert.equal(whole.messages[0].content, diff.messages[0].content);
  const user = diff.messages[1].content;
  const order = ["## Read-only context", "## Task", "## Files to edit", "## Your previous reply"]
    .map((h) => user.indexOf(h));
  assert.ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), String(order));
  assert.match(whole.messages[1].content, /### a\.py — whole file: reply with its complete new/);
  // Everything before the files to edit is shared by a retry.
  const cut = user.indexOf("## Files to edit");
  assert.ok(
    prefixShare(whole.messages, diff.messages) * (diff.messages[0].content.length + user.length) >=
      diff.messages[0].content.length + cut,
  );
});

Deno.test("implement_task keeps num_ctx across a retry whose feedback would outgrow the first window", async () => {
  // 32 paragraphs of context: attempt 1 alone fits 4096 tokens, attempt 1 plus the check's
  // feedback does not; without room kept for the retry, Ollama would reload the model for it.
  const fail = "FAIL: add(2, 3) should be 5 but the function returned 6; check the operator used " +
    "in add and make sure it adds both numbers";
  const env = await setup({ "calc.py": CALC, "notes.md": prose(32) }, {
    checks: { tests: { command: `grep -q 'a + b' calc.py || { echo '${fail}'; exit 1; }` } },
  });
  try {
    const wrong = "def add(a, b):\n    return a * b\n";
    env.fake.script(
      block("calc.py", "def add(a, b):\n    return a - b\n", wrong),
      block("calc.py", wrong, "def add(a, b):\n    return a + b\n"),
    );
    const out = await run(env, {
      task_id: "K1",
      spec: "fix add",
      files_to_edit: ["calc.py"],
      context_files: ["notes.md"],
    });
    assert.equal(out.status, "passed", JSON.stringify(out));
    assert.equal(out.attempts, 2);
    const [a, b] = env.fake.chats.map((c) => c.options?.num_ctx);
    assert.equal(a, b, `num_ctx ${a} then ${b}`);
    assert.equal(env.fake.loads, 1, "the model was loaded once");
  } finally {
    await env.close();
  }
});

Deno.test("implement_task asks for a fence no shown file holds, the same in every attempt, and holds replies to it", async () => {
  const readme = "# Tool\n\nInstall it with pip.\n\n```\npip install tool\n```\n";
  const env = await setup({ "README.md": readme }, { max_attempts: 2 });
  try {
    const full = `${readme}\n## Usage\n\nRun it.\n\n\`\`\`\ntool a.txt\n\`\`\`\n`;
    // The first reply uses ``` although ```` was asked: its inner fences cut it, so it is refused.
    env.fake.script(`README.md\n\`\`\`\n${full}\`\`\`\n`, `README.md\n\`\`\`\`\n${full}\`\`\`\`\n`);
    const out = await run(env, {
      task_id: "F2",
      spec: "Add a Usage section",
      files_to_edit: ["README.md"],
    });
    assert.equal(out.status, "passed", JSON.stringify(out));
    assert.equal(out.attempts, 2);
    const [first, second] = env.fake.chats.map((c) => c.messages[0].content);
    assert.match(first, /opened and closed with ````/);
    assert.equal(first, second);
    assert.match(userText(env.fake, 1), /holds fences of its own/);
    assert.equal(await Deno.readTextFile(join(env.root, "README.md")), full);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task refuses an edit that breaks the syntax of a file that parsed, before the checks", async () => {
  const env = await setup({ "calc.py": CALC }, {
    max_attempts: 1,
    checks: { mark: { command: "touch checked" } },
  });
  try {
    const add = "def add(a, b):\n    return a - b\n";
    env.fake.script(block("calc.py", add, add.replace("a - b", "(a + b")));
    const out = await run(env, { task_id: "F3", spec: "fix add", files_to_edit: ["calc.py"] });
    assert.notEqual(out.status, "passed", JSON.stringify(out));
    assert.match(JSON.stringify(out), /syntax error at line/);
    assert.equal(await Deno.readTextFile(join(env.root, "calc.py")), CALC);
    await assert.rejects(Deno.stat(join(env.root, "checked")));
  } finally {
    await env.close();
  }
});

// ---- the verdict after an applied attempt ----

/** A check that passes once add() adds, and fails with a long output (2,000 lines) otherwise. */
const LOUD_CHECK = {
  command: "grep -q 'return a + b' calc.py || { seq 100000 102000; exit 1; }",
};

Deno.test("implement_task puts an applied attempt back when the next prompt no longer fits", async () => {
  // Attempt 1 fits a 2048-token window and is applied; its check fails with a long output, and
  // the prompt carrying that output does not fit: the error must leave the tree as it was.
  const env = await setup(
    { "calc.py": CALC },
    { checks: { tests: LOUD_CHECK }, max_attempts: 3 },
    [{ name: MODEL, contextLength: 2048 }],
  );
  try {
    env.fake.script(WRONG_ADD, FIX_ADD);
    const out = await run(env, { task_id: "L1", spec: "fix add", files_to_edit: ["calc.py"] });
    short(out);
    assert.equal(out.status, "error", JSON.stringify(out));
    assert.equal(out.escalate, true);
    assert.equal(out.attempts, 1);
    assert.match(String(out.error), /task needs ~\d+ tokens/);
    assert.equal(env.fake.chats.length, 1);
    assert.equal(await Deno.readTextFile(join(env.root, "calc.py")), CALC);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task says when a failing check was followed by a reply that could not be applied", async () => {
  const env = await setup({ "calc.py": CALC }, { checks: { tests: LOUD_CHECK }, max_attempts: 2 });
  try {
    // check failed, then an unusable reply: the verdict names both
    env.fake.script(WRONG_ADD, "Sure! Done.");
    const out = await run(env, { task_id: "V1", spec: "fix add", files_to_edit: ["calc.py"] });
    short(out);
    assert.equal(out.status, "failed");
    assert.match(String(out.failed_check), /^tests: /);
    assert.match(String(out.why), /check tests still fails after 2 attempts \(the last reply/);
    assert.match(String(out.error), /holds no edits/);
    assert.match(String(out.note), /still in the tree/);
    // an unusable reply, then a failing check: the check is the last word, no error
    assert.equal((await revertTask(env.root, "V1")).status, "reverted");
    env.fake.script("Sure! Done.", WRONG_ADD);
    const other = await run(env, { task_id: "V2", spec: "fix add", files_to_edit: ["calc.py"] });
    assert.equal(other.status, "failed");
    assert.equal(other.why, "check tests still fails after 2 attempts");
    assert.equal(other.error, undefined);
  } finally {
    await env.close();
  }
});

Deno.test("fitVerdict drops every warning before it cuts a long question", () => {
  const question = "Which one? ".repeat(60);
  const fitted = fitVerdict({
    status: "blocked",
    attempts: 1,
    escalate: false,
    why: "the model asked a question instead of editing",
    question,
    error: "e".repeat(300),
    warnings: ["w".repeat(150), "v".repeat(150)],
  });
  assert.ok(JSON.stringify(fitted).length <= 1000);
  assert.equal(fitted.warnings, undefined, "warnings go first");
  assert.ok(String(fitted.question).startsWith(question.slice(0, 450)), "the question stays long");
});
