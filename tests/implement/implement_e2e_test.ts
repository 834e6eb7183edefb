/**
 * implement_task end to end: the real server over stdio, the SDK client, a scripted Ollama on
 * loopback, real checks and a real temp project. Each test scripts the model's replies and looks
 * at what the tool answered, what the model was sent, and what is in the tree afterwards.
 */
import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ProgressNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { join } from "../../lib/deps.ts";
import { workspaceBase } from "../../lib/tasks/mod.ts";
import { estimateChatTokens, NUM_CTX_SIZES } from "../../lib/implement/context_size.ts";
import { closedUrl, type FakeOllama, startFakeOllama } from "../helpers/fake_ollama.ts";
import { callMcp, connect, type Connection } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { block, CALC, FIX_ADD, MODEL } from "../helpers/calc.ts";

/** Every key docs/reference/localexec-tool-reference.txt allows in an implement_task result. */
const RESULT_KEYS = [
  "status",
  "attempts",
  "model",
  "tried",
  "escalate",
  "why",
  "files",
  "stat",
  "patch",
  "log",
  "question",
  "error",
  "failed_check",
  "warnings",
  "truncated",
  "note",
];

/** A check that passes once add() adds. */
const ADD_CHECK = {
  command: "grep -q 'return a + b' calc.py || { echo 'FAIL test_add: add(2, 3) == -1'; exit 1; }",
};

const WRONG_ADD = block(
  "calc.py",
  "def add(a, b):\n    return a - b\n",
  "def add(a, b):\n    return a * b\n",
);

interface Env {
  fake: FakeOllama;
  root: string;
  conn: Connection;
  /** Progress messages received, per progress token. */
  progress: Map<string | number, string[]>;
  close(): Promise<void>;
}

async function setup(
  files: Record<string, string | Uint8Array>,
  config: Record<string, unknown> = {},
  fakeOptions: Parameters<typeof startFakeOllama>[0] = {},
): Promise<Env> {
  const fake = await startFakeOllama({
    models: [{ name: MODEL, contextLength: 32768 }],
    ...fakeOptions,
  });
  const root = await tempProject({
    ...files,
    ".localexec.json": JSON.stringify({ model: MODEL, ollama_host: fake.url, ...config }),
  });
  const conn = await connect(root);
  const progress = new Map<string | number, string[]>();
  // Our own handler: the SDK's per-request callback can miss notifications sent just before the
  // response.
  conn.client.setNotificationHandler(ProgressNotificationSchema, (n) => {
    const list = progress.get(n.params.progressToken) ?? [];
    list.push(String(n.params.message ?? ""));
    progress.set(n.params.progressToken, list);
  });
  return {
    fake,
    root,
    conn,
    progress,
    async close() {
      await conn.close();
      await fake.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

let tokens = 0;

/** Calls implement_task with a progress token; returns the result and the token used. */
async function implement(
  env: Env,
  args: Record<string, unknown>,
  options: { signal?: AbortSignal } = {},
): Promise<Record<string, unknown> & { token: number }> {
  const token = ++tokens;
  const result = await env.conn.client.callTool(
    { name: "implement_task", arguments: args, _meta: { progressToken: token } },
    undefined,
    { signal: options.signal, timeout: 60_000 },
  );
  const content = result.content as { type: string; text?: string }[];
  const json = JSON.parse(content[0].text!);
  assert.deepEqual(result.structuredContent, json);
  return { ...json, token };
}

/** Asserts the fields every implement_task result carries, and that it is short. */
function assertVerdict(out: Record<string, unknown>): void {
  const { token: _, ...json } = out;
  assert.equal(typeof json.status, "string");
  assert.equal(typeof json.attempts, "number", "attempts");
  assert.equal(typeof json.escalate, "boolean", "escalate");
  assert.equal(typeof json.why, "string", "why");
  assert.ok(String(json.why).length > 0 && String(json.why).length < 200, "why is one sentence");
  for (const key of Object.keys(json)) assert.ok(RESULT_KEYS.includes(key), `unexpected ${key}`);
  const { failed_check: __, ...rest } = json;
  const size = JSON.stringify(rest).length;
  assert.ok(size <= 1000, `result is ${size} characters: ${JSON.stringify(rest)}`);
}

/** Every file under `root` but `.localexec/` and the config, with folders and modes, byte for byte. */
async function tree(root: string, dir = ""): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of Deno.readDir(join(root, dir))) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (rel === ".localexec" || rel === ".localexec.json") continue;
    if (e.isDirectory) {
      out.set(`${rel}/`, "dir");
      for (const [k, v] of await tree(root, rel)) out.set(k, v);
    } else {
      const bytes = await Deno.readFile(join(root, rel));
      const mode = ((await Deno.stat(join(root, rel))).mode ?? 0) & 0o777;
      out.set(rel, `${mode.toString(8)}:${Array.from(bytes).join(",")}`);
    }
  }
  return out;
}

function read(env: Env, rel: string): Promise<string> {
  return Deno.readTextFile(join(env.root, rel));
}

function userText(fake: FakeOllama, i: number): string {
  return fake.chats[i].messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
}

Deno.test("implement_task passes on the first attempt, with progress, patch, log and totals", async () => {
  const env = await setup({ "calc.py": CALC }, { checks: { tests: ADD_CHECK } });
  try {
    env.fake.script(FIX_ADD);
    const out = await implement(env, {
      task_id: "T1-fix-add",
      spec: "add(a, b) must return a + b",
      files_to_edit: ["calc.py"],
    });
    assertVerdict(out);
    const { token, ...json } = out;
    assert.deepEqual(json, {
      status: "passed",
      attempts: 1,
      model: MODEL,
      files: ["calc.py"],
      stat: "+1 -1 in 1 file",
      patch: ".localexec/T1-fix-add.patch",
      log: ".localexec/T1-fix-add.log",
      escalate: false,
      why: "all checks passed",
    });
    assert.deepEqual(Object.keys(json), [
      "status",
      "attempts",
      "model",
      "files",
      "stat",
      "patch",
      "log",
      "escalate",
      "why",
    ]);
    assert.equal(await read(env, "calc.py"), CALC.replace("return a - b", "return a + b"));
    const patch = await read(env, ".localexec/T1-fix-add.patch");
    assert.match(patch, /^- {4}return a - b$/m);
    assert.match(patch, /^\+ {4}return a \+ b$/m);
    const log = await read(env, ".localexec/T1-fix-add.log");
    assert.match(log, /attempt 1 prompt \(num_ctx \d+\)/);
    assert.match(log, /add\(a, b\) must return a \+ b/);
    assert.match(log, /return a \+ b/);
    assert.match(log, /=== tests: /);
    const messages = env.progress.get(token) ?? [];
    assert.ok(messages.some((m) => /^attempt 1\/3: asking /.test(m)), messages.join(" | "));
    assert.ok(messages.includes("attempt 1/3: running check tests 1/1"), messages.join(" | "));
    const record = JSON.parse(await read(env, ".localexec/T1-fix-add.json"));
    assert.equal(record.status, "passed");
    assert.ok(record.prompt_tokens > 0 && record.reply_tokens > 0, "token counts recorded");
    const listed = await callMcp(env.conn.client, "list_tasks", {});
    assert.equal(listed.total, 1);
    // keep_alive and a low temperature go with the request
    assert.equal(env.fake.chats[0].keep_alive, "30m");
    assert.ok(Number(env.fake.chats[0].options?.temperature) <= 0.2);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task feeds a failing check back and passes on attempt 2", async () => {
  const env = await setup({ "calc.py": CALC }, { checks: { tests: ADD_CHECK } });
  try {
    env.fake.script(WRONG_ADD, block("calc.py", "    return a * b\n", "    return a + b\n"));
    const out = await implement(env, {
      task_id: "T2",
      spec: "add(a, b) must return a + b",
      files_to_edit: ["calc.py"],
    });
    assertVerdict(out);
    assert.equal(out.status, "passed");
    assert.equal(out.attempts, 2);
    assert.equal(out.escalate, false);
    assert.equal(env.fake.chats.length, 2);
    const second = userText(env.fake, 1);
    assert.match(second, /FAIL test_add: add\(2, 3\) == -1/);
    assert.match(second, /"tests" failed/);
    // the files as they now are: attempt 1's edit
    assert.match(second, /return a \* b/);
    assert.doesNotMatch(userText(env.fake, 0), /FAIL test_add/);
    const messages = env.progress.get(out.token) ?? [];
    assert.ok(messages.some((m) => m.startsWith("attempt 2/3: ")), messages.join(" | "));
    assert.equal(await read(env, "calc.py"), CALC.replace("return a - b", "return a + b"));
  } finally {
    await env.close();
  }
});

Deno.test("implement_task reports failed with escalate, failed_check and note when attempts run out", async () => {
  const env = await setup({ "calc.py": CALC }, { checks: { tests: ADD_CHECK }, max_attempts: 2 });
  try {
    env.fake.script(WRONG_ADD, block("calc.py", "    return a * b\n", "    return a // b\n"));
    const out = await implement(env, {
      task_id: "T3",
      spec: "add(a, b) must return a + b",
      files_to_edit: ["calc.py"],
    });
    assertVerdict(out);
    assert.equal(out.status, "failed");
    assert.equal(out.attempts, 2);
    assert.equal(out.escalate, true);
    assert.match(String(out.failed_check), /^tests: .*FAIL test_add/s);
    assert.match(String(out.note), /still in the tree.*revert_task/);
    assert.match(String(out.why), /tests still fails after 2 attempts/);
    assert.deepEqual(out.files, ["calc.py"]);
    assert.match(await read(env, "calc.py"), /return a \/\/ b/);
    assert.equal(env.fake.chats.length, 2);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task answers blocked on QUESTION: and leaves the tree byte for byte", async () => {
  const crlf = "def add(a, b):\r\n    return a - b\r\n\r\ndef sub(a, b):\r\n    return a - b";
  const env = await setup(
    { "calc.py": crlf, "pkg/__init__.py": "" },
    { checks: { tests: ADD_CHECK } },
  );
  try {
    await Deno.chmod(join(env.root, "calc.py"), 0o640);
    const before = await tree(env.root);
    env.fake.script("QUESTION: should add() also accept strings?\nI can do either.");
    const out = await implement(env, {
      task_id: "Q1",
      spec: "fix add",
      files_to_edit: ["calc.py", "pkg/new_mod.py"],
    });
    assertVerdict(out);
    assert.equal(out.status, "blocked");
    assert.equal(out.escalate, false);
    assert.equal(out.attempts, 1);
    assert.match(String(out.question), /should add\(\) also accept strings\?/);
    assert.deepEqual(await tree(env.root), before);

    // An earlier attempt of the same call had applied edits (and created a file in a new
    // folder): all of it is undone.
    env.fake.script(
      WRONG_ADD + block("made/new_mod.py", "", "X = 1\n"),
      "QUESTION: the check wants a + b but the spec says otherwise; which is right?",
    );
    const again = await implement(env, {
      task_id: "Q2",
      spec: "fix add",
      files_to_edit: ["calc.py", "made/new_mod.py"],
    });
    assertVerdict(again);
    assert.equal(again.status, "blocked");
    assert.equal(again.attempts, 2);
    assert.deepEqual(await tree(env.root), before);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task refuses an edit outside files_to_edit and tells the model", async () => {
  const env = await setup({ "calc.py": CALC, "other.py": "SECRET = 1\n" });
  try {
    env.fake.script(
      block("other.py", "SECRET = 1\n", "SECRET = 2\n") + FIX_ADD,
      FIX_ADD,
    );
    const out = await implement(env, {
      task_id: "T5",
      spec: "fix add",
      files_to_edit: ["calc.py"],
      context_files: ["other.py"],
    });
    assertVerdict(out);
    assert.equal(out.status, "passed");
    assert.equal(out.attempts, 2);
    assert.equal(await read(env, "other.py"), "SECRET = 1\n");
    const second = userText(env.fake, 1);
    assert.match(second, /other\.py/);
    assert.match(second, /not (one of|in) .*files to edit|may (only )?edit|not allowed|refused/i);
    assert.equal(await read(env, "calc.py"), CALC.replace("return a - b", "return a + b"));
  } finally {
    await env.close();
  }
});

Deno.test("implement_task creates a new file, and revert_task removes it again", async () => {
  const env = await setup({ "calc.py": CALC }, {
    checks: { defines: { command: "grep -q 'def shout' {files}", files_filter: ["*.py"] } },
  });
  try {
    env.fake.script(block("lib/util/strings.py", "", "def shout(s):\n    return s.upper()\n"));
    const out = await implement(env, {
      task_id: "T6",
      spec: "create lib/util/strings.py with shout(s)",
      files_to_edit: ["lib/util/strings.py"],
    });
    assertVerdict(out);
    assert.equal(out.status, "passed");
    assert.deepEqual(out.files, ["lib/util/strings.py"]);
    assert.equal(out.stat, "+2 -0 in 1 file");
    assert.equal(await read(env, "lib/util/strings.py"), "def shout(s):\n    return s.upper()\n");
    assert.match(userText(env.fake, 0), /does not exist yet/);
    const reverted = await callMcp(env.conn.client, "revert_task", { task_id: "T6" });
    assert.equal(reverted.status, "reverted");
    assert.deepEqual(reverted.remove, ["lib/util/strings.py"]);
    await assert.rejects(Deno.stat(join(env.root, "lib")), Deno.errors.NotFound);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task applies a whole-file reply", async () => {
  const env = await setup({ "calc.py": CALC }, { checks: { tests: ADD_CHECK } });
  try {
    const whole = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n";
    env.fake.script(`Here is the fixed file.\n\ncalc.py\n\`\`\`python\n${whole}\`\`\`\n`);
    const out = await implement(env, {
      task_id: "T7",
      spec: "fix add",
      files_to_edit: ["calc.py"],
    });
    assertVerdict(out);
    assert.equal(out.status, "passed");
    assert.equal(await read(env, "calc.py"), whole);
    // a small file without symbols is asked for whole
    assert.match(
      userText(env.fake, 0),
      /calc\.py — whole file: reply with its complete new content/,
    );
  } finally {
    await env.close();
  }
});

/** A Python file of about 3,000 lines: 300 ten-line functions. */
function bigModule(): string {
  const out: string[] = [];
  for (let i = 0; i < 300; i++) {
    out.push(`def f_${i}(x):`, `    """Function number ${i}."""`);
    for (let j = 0; j < 6; j++) out.push(`    x = x + ${i * 10 + j}  # step ${j} of f_${i}`);
    out.push("    return x", "");
  }
  return out.join("\n") + "\n";
}

Deno.test("implement_task with symbols shows only those functions, not far-away code", async () => {
  const big = bigModule();
  const env = await setup({ "big.py": big });
  try {
    env.fake.script(
      block("big.py", "def f_150(x):\n", "def f_150(x):\n    x = -x\n"),
    );
    const out = await implement(env, {
      task_id: "T8",
      spec: "negate x at the start of f_150",
      files_to_edit: ["big.py"],
      symbols: ["big.py::f_150"],
    });
    assertVerdict(out);
    assert.equal(out.status, "passed");
    const text = userText(env.fake, 0);
    assert.match(text, /def f_150\(x\):/);
    assert.match(text, /step 5 of f_150/);
    assert.doesNotMatch(text, /f_3\b|f_10\b|f_299\b|f_200\b/);
    assert.match(text, /⋯ lines 1-\d+ not shown ⋯/);
    assert.match(text, /⋯ lines \d+-3000 not shown ⋯/);
    assert.ok(text.length < big.length / 20, `prompt is ${text.length} of ${big.length}`);
    assert.match(await read(env, "big.py"), /def f_150\(x\):\n {4}x = -x\n/);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task sizes num_ctx from the prompt, from a few fixed sizes", async () => {
  const context = Array.from({ length: 600 }, (_, i) => `CONST_${i} = ${i}  # a constant`)
    .join("\n");
  const env = await setup({ "calc.py": CALC, "consts.py": context });
  try {
    env.fake.script(
      FIX_ADD,
      block("calc.py", "def add(a, b):\n    return a + b\n", "def add(a, b):\n    return b + a\n"),
    );
    const small = await implement(env, {
      task_id: "N1",
      spec: "fix add",
      files_to_edit: ["calc.py"],
    });
    assert.equal(small.status, "passed");
    const large = await implement(env, {
      task_id: "N2",
      spec: "fix add",
      files_to_edit: ["calc.py"],
      context_files: ["consts.py"],
    });
    assertVerdict(large);
    assert.equal(large.status, "passed", JSON.stringify(large));
    assert.equal(large.truncated, undefined);
    const [a, b] = env.fake.chats;
    for (const chat of [a, b]) {
      const numCtx = Number(chat.options?.num_ctx);
      assert.ok(NUM_CTX_SIZES.includes(numCtx), `num_ctx ${numCtx}`);
      assert.ok(numCtx >= estimateChatTokens(chat.messages), "num_ctx holds the prompt");
    }
    assert.equal(a.options?.num_ctx, 4096);
    assert.ok(Number(b.options?.num_ctx) > 4096, "a larger prompt gets a larger window");
    assert.match(userText(env.fake, 1), /CONST_599 = 599/);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task turns every Ollama failure into short JSON quickly, tree untouched", async () => {
  const env = await setup({ "calc.py": CALC }, { checks: { tests: ADD_CHECK } });
  const configure = (extra: Record<string, unknown>) =>
    Deno.writeTextFile(
      join(env.root, ".localexec.json"),
      JSON.stringify({
        model: MODEL,
        ollama_host: env.fake.url,
        checks: { tests: ADD_CHECK },
        request_timeout_s: 1,
        ...extra,
      }),
    );
  try {
    const before = await tree(env.root);
    const unreachable = "Ollama could not be reached";
    const late = "Ollama did not answer in time";
    const garbage = "Ollama's answer was not usable";
    const cases: [string, () => void | Promise<void>, RegExp, string][] = [
      [
        "down",
        () => configure({ ollama_host: closedUrl() }),
        /not reachable.*ollama serve/,
        unreachable,
      ],
      [
        "404",
        () => configure({ model: "nope:1b" }),
        /ollama pull nope:1b/,
        "the configured model is not installed",
      ],
      [
        "500",
        () => {
          env.fake.chatMode = "error";
        },
        /HTTP 500.*system memory/,
        "Ollama answered with an error",
      ],
      [
        "stalled chat",
        () => {
          env.fake.chatMode = "stall";
        },
        /within 1 s|for 1 s/,
        late,
      ],
      [
        "stalled server",
        () => {
          env.fake.mode = "stall";
        },
        /did not answer within 1 s/,
        late,
      ],
      [
        "html",
        () => {
          env.fake.chatMode = "html";
        },
        /not Ollama's API/,
        garbage,
      ],
      [
        "broken json",
        () => {
          env.fake.chatMode = "broken_json";
        },
        /not Ollama's API.*broken JSON/,
        garbage,
      ],
    ];
    for (const [name, arrange, expected, why] of cases) {
      await configure({});
      env.fake.mode = "normal";
      env.fake.chatMode = "normal";
      await arrange();
      const started = performance.now();
      const out = await implement(env, {
        task_id: `E-${name.replace(/ /g, "-")}`,
        spec: "fix add",
        files_to_edit: ["calc.py"],
      });
      const secs = (performance.now() - started) / 1000;
      assertVerdict(out);
      assert.equal(out.status, "error", name);
      assert.equal(out.escalate, false, name);
      assert.match(String(out.error), expected, `${name}: ${out.error}`);
      assert.equal(out.why, why, name);
      assert.ok(secs < 8, `${name} took ${secs} s`);
      assert.deepEqual(await tree(env.root), before, name);
    }
    env.fake.mode = "normal";
    env.fake.chatMode = "normal";
    // A 500 on attempt 2, after attempt 1 applied an edit: the tree is as before this call.
    await configure({});
    env.fake.script(WRONG_ADD, { content: "", fail: "error" });
    const mid = await implement(env, {
      task_id: "E-mid",
      spec: "fix add",
      files_to_edit: ["calc.py"],
    });
    assertVerdict(mid);
    assert.equal(mid.status, "error");
    assert.equal(mid.attempts, 2);
    assert.deepEqual(await tree(env.root), before);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task stops the model request on cancellation and stays revertable", async () => {
  const env = await setup({ "calc.py": CALC }, { checks: { tests: ADD_CHECK } });
  try {
    // Attempt 1 applies a wrong edit; attempt 2's reply streams slowly and is cancelled.
    env.fake.script(WRONG_ADD, { content: FIX_ADD.repeat(40), chunkDelayMs: 200 });
    const ctl = new AbortController();
    const call = implement(env, { task_id: "C1", spec: "fix add", files_to_edit: ["calc.py"] }, {
      signal: ctl.signal,
    });
    await env.fake.waitForChats(2);
    const chat = env.fake.requests.filter((r) => r.path === "/api/chat")[1];
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(chat.doneMs, undefined, "the reply is still streaming");
    const cancelled = performance.now();
    ctl.abort();
    await assert.rejects(call);
    while (chat.doneMs === undefined && performance.now() - cancelled < 5000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const secs = (performance.now() - cancelled) / 1000;
    assert.ok(chat.doneMs !== undefined && secs < 1.5, `connection ended after ${secs} s`);
    assert.match(await read(env, "calc.py"), /return a \* b/);
    const reverted = await callMcp(env.conn.client, "revert_task", { task_id: "C1" });
    assert.equal(reverted.status, "reverted", JSON.stringify(reverted));
    assert.equal(await read(env, "calc.py"), CALC);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task runs two tasks on disjoint files at once", async () => {
  const env = await setup(
    { "calc.py": CALC, "more.py": "def mul(a, b):\n    return a + b\n" },
    {
      parallel: 2, // the host serves both chats at once (default: one at a time)
      checks: { compiles: { command: "python3 -m py_compile calc.py more.py" } },
    },
  );
  try {
    // The first reply streams for about a second: the second task's chat comes meanwhile.
    env.fake.script(
      { content: FIX_ADD, chunkDelayMs: 80 },
      block("more.py", "    return a + b\n", "    return a * b\n"),
    );
    const first = implement(env, { task_id: "L1", spec: "fix add", files_to_edit: ["calc.py"] });
    await env.fake.waitForChats(1);
    const second = implement(env, { task_id: "L2", spec: "fix mul", files_to_edit: ["more.py"] });
    const [a, b] = await Promise.all([first, second]);
    assertVerdict(a);
    assertVerdict(b);
    assert.equal(a.status, "passed", JSON.stringify(a));
    assert.equal(b.status, "passed", JSON.stringify(b));
    const chats = env.fake.requests.filter((r) => r.path === "/api/chat");
    assert.equal(chats.length, 2);
    assert.ok(chats[1].receivedMs < chats[0].doneMs!, "the second chat began during the first");
    assert.equal(await read(env, "calc.py"), CALC.replace("return a - b", "return a + b"));
    assert.equal(await read(env, "more.py"), "def mul(a, b):\n    return a * b\n");
    // The second task ran in a workspace, which is gone (or kept as the project's standby copy);
    // its record and patch are as usual.
    const left = [...Deno.readDirSync(workspaceBase(env.root))].map((e) => e.name);
    assert.deepEqual(left.filter((n) => /^L\d\.[0-9a-f]{8}$/.test(n)), [], left.join(", "));
    await Deno.remove(workspaceBase(env.root), { recursive: true });
    assert.match(await read(env, ".localexec/L2.patch"), /^\+ {4}return a \* b$/m);
    const reverted = await callMcp(env.conn.client, "revert_task", { task_id: "L2" });
    assert.equal(reverted.status, "reverted");
    assert.equal(await read(env, "more.py"), "def mul(a, b):\n    return a + b\n");
  } finally {
    await env.close();
  }
});

Deno.test("implement_task makes a task that overlaps a running one wait, then it sees its result", async () => {
  const env = await setup({ "calc.py": CALC }, { checks: {} });
  try {
    env.fake.script(
      { content: FIX_ADD, chunkDelayMs: 80 },
      block("calc.py", "def sub(a, b):\n    return a - b\n", "def sub(a, b):\n    return b - a\n"),
    );
    const first = implement(env, { task_id: "L1", spec: "fix add", files_to_edit: ["calc.py"] });
    await env.fake.waitForChats(1);
    const second = implement(env, { task_id: "L2", spec: "flip sub", files_to_edit: ["calc.py"] });
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a.status, "passed", JSON.stringify(a));
    assert.equal(b.status, "passed", JSON.stringify(b));
    const chats = env.fake.requests.filter((r) => r.path === "/api/chat");
    assert.ok(chats[1].receivedMs >= chats[0].doneMs!, "the second chat began after the first");
    const waited = env.progress.get(b.token) ?? [];
    assert.ok(
      waited.some((m) => /waiting for task L1, which edits calc.py/.test(m)),
      waited.join(" | "),
    );
    // The second task's prompt shows the first one's result.
    assert.match(JSON.stringify(env.fake.chats[1].messages), /return a \+ b/);
    assert.match(await read(env, "calc.py"), /return a \+ b[^]*return b - a/);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task continues a task id, and revert restores the original", async () => {
  const env = await setup({ "calc.py": CALC }, { checks: { tests: ADD_CHECK }, max_attempts: 1 });
  try {
    env.fake.script(WRONG_ADD, block("calc.py", "    return a * b\n", "    return a + b\n"));
    const first = await implement(env, {
      task_id: "K1",
      spec: "fix add",
      files_to_edit: ["calc.py"],
    });
    assert.equal(first.status, "failed");
    assert.match(await read(env, "calc.py"), /a \* b/);
    const second = await implement(env, {
      task_id: "K1",
      spec: "fix add",
      files_to_edit: ["calc.py"],
    });
    assertVerdict(second);
    assert.equal(second.status, "passed");
    assert.match(String(second.note), /continued/);
    assert.match(String(second.note), /still in the tree/);
    // the patch covers the whole task, against the original
    assert.equal(second.stat, "+1 -1 in 1 file");
    const patch = await read(env, ".localexec/K1.patch");
    assert.match(patch, /^- {4}return a - b$/m);
    const reverted = await callMcp(env.conn.client, "revert_task", { task_id: "K1" });
    assert.equal(reverted.status, "reverted");
    assert.equal(await read(env, "calc.py"), CALC);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task answers invalid input with every promised field", async () => {
  const env = await setup({ "calc.py": CALC, "a.py": "", "b.py": "" }, {
    checks: { tests: ADD_CHECK },
  });
  try {
    const bad = "the arguments are invalid";
    const base = { task_id: "T", spec: "x", files_to_edit: ["calc.py"] };
    const cases: [Record<string, unknown>, RegExp, string][] = [
      [{ ...base, task_id: "bad id!" }, /task_id/, bad],
      [{ ...base, task_id: "x".repeat(65) }, /task_id/, bad],
      [{ ...base, files_to_edit: ["calc.py", "a.py", "b.py"] }, /files_to_edit/, bad],
      [{ ...base, files_to_edit: [] }, /files_to_edit/, bad],
      [{ task_id: "T", files_to_edit: ["calc.py"] }, /spec/, bad],
      [{ ...base, wat: 1 }, /wat/, bad],
      [{ ...base, spec: "x".repeat(200_000) }, /spec/, bad],
      [{ ...base, checks: ["pytest"] }, /pytest/, "a named check is not in .localexec.json"],
      [{ ...base, symbols: ["calc.py::mul"] }, /mul/, "a symbol could not be found"],
      [{ ...base, symbols: ["calc.py"] }, /path::name/, "a symbol could not be found"],
      [{ ...base, files_to_edit: ["../outside.py"] }, /escapes/, "a path was refused"],
      [{ ...base, files_to_edit: [".localexec/x.py"] }, /\.localexec/, "a path was refused"],
      [{ ...base, context_files: ["nope.py"] }, /nope/, "a file given cannot be used"],
    ];
    for (const [args, expected, why] of cases) {
      const out = await implement(env, args);
      assertVerdict(out);
      assert.equal(out.status, "error", JSON.stringify(out));
      assert.equal(out.attempts, 0);
      assert.equal(out.escalate, false);
      assert.match(String(out.error), expected);
      assert.equal(out.why, why, String(out.error));
    }
    assert.equal(env.fake.chats.length, 0);
    assert.equal(await read(env, "calc.py"), CALC);
  } finally {
    await env.close();
  }
});
