/**
 * A check that cannot start is the setup's problem, not the model's (issue 34, finding 1): the real
 * server over stdio, a scripted Ollama on loopback, real checks. implement_task ends such a task as
 * `error` naming the check and the fix before anything asks the model, with no attempt spent and
 * nothing added to `status.record`; a check that starts and fails still goes back to the model.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake_ollama.ts";
import { callMcp, connect, type Connection } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { CALC, FIX_ADD, FIX_WRONG, MODEL, WRONG_ADD } from "../helpers/calc.ts";

/** What rustup's `cargo` prints, and its exit code, when no default toolchain is configured. */
const RUSTUP_CARGO = `#!/bin/sh
echo "error: rustup could not choose a version of cargo to run, because one wasn't specified explicitly, and no default is configured." >&2
echo "help: run 'rustup default stable' to download the latest stable release of Rust and set it as your default toolchain." >&2
exit 1
`;

/** A check that passes once add() adds, and prints a failing test's output otherwise. */
const ADD_CHECK =
  "grep -q 'return a + b' calc.py || { echo 'FAIL test_add: add(2, 3) == -1'; exit 1; }";

interface Env {
  fake: FakeOllama;
  root: string;
  conn: Connection;
  close(): Promise<void>;
}

async function setup(checks: Record<string, unknown>, path?: string): Promise<Env> {
  const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
  const root = await tempProject({
    "calc.py": CALC,
    "bin/cargo": RUSTUP_CARGO,
    ".localexec.json": JSON.stringify({ model: MODEL, ollama_host: fake.url, checks }),
  });
  await Deno.chmod(join(root, "bin/cargo"), 0o755);
  const env = path ? { PATH: `${join(root, "bin")}:${path}` } : undefined;
  const conn = await connect(root, { env });
  return {
    fake,
    root,
    conn,
    async close() {
      await conn.close();
      await fake.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

function implement(env: Env, id: string, checks?: string[]) {
  return callMcp(env.conn.client, "implement_task", {
    task_id: id,
    spec: "add(a, b) must return a + b",
    files_to_edit: ["calc.py"],
    ...(checks ? { checks } : {}),
  });
}

async function record(env: Env): Promise<unknown> {
  return (await callMcp(env.conn.client, "status", {})).record;
}

Deno.test("implement_task: a check whose program is not installed ends the task as error before the model", async () => {
  const env = await setup({ tests: { command: "pytestt -q" }, add: { command: ADD_CHECK } });
  try {
    // One task the model passes first, so the record has a row that must not change.
    env.fake.script(FIX_ADD);
    assert.equal((await implement(env, "T1", ["add"])).status, "passed");
    await Deno.writeTextFile(join(env.root, "calc.py"), CALC);
    const before = await record(env);
    const asked = env.fake.requests.length;
    const out = await implement(env, "T2");
    assert.equal(out.status, "error", JSON.stringify(out));
    assert.equal(out.attempts, 0);
    assert.equal(out.escalate, false);
    assert.match(
      String(out.error),
      /^check tests cannot start: pytestt: command not found — is it installed and on PATH\? fix the "command" of checks\.tests in \.localexec\.json$/,
    );
    assert.match(String(out.why), /a check cannot start/);
    assert.equal(env.fake.requests.length, asked, "the model server was not asked anything");
    assert.deepEqual(await record(env), before);
    assert.equal(await Deno.readTextFile(join(env.root, "calc.py")), CALC);
    const listed = await callMcp(env.conn.client, "list_tasks", {});
    assert.ok(!JSON.stringify(listed).includes('"T2"'), JSON.stringify(listed));
  } finally {
    await env.close();
  }
});

Deno.test("implement_task: a toolchain that is installed but does not run (rustup, no default) is an error", async () => {
  const env = await setup(
    { tests: { command: "cargo test -q" } },
    Deno.env.get("PATH") ?? "/usr/bin:/bin",
  );
  try {
    const out = await implement(env, "R1");
    assert.equal(out.status, "error", JSON.stringify(out));
    assert.equal(out.attempts, 0);
    assert.match(
      String(out.error),
      /^check tests cannot start: cargo is installed but does not run/,
    );
    assert.match(String(out.error), /rustup could not choose a version of cargo to run/);
    assert.match(String(out.error), /the "command" of checks\.tests in \.localexec\.json/);
    assert.equal(env.fake.requests.length, 0, "the model server was not asked anything");
    assert.deepEqual(await record(env), []);
  } finally {
    await env.close();
  }
});

Deno.test("implement_task: a check that starts and fails still goes back to the model", async () => {
  const env = await setup({ tests: { command: ADD_CHECK }, py: { command: "python3 -c 'pass'" } });
  try {
    env.fake.script(WRONG_ADD, FIX_WRONG);
    const out = await implement(env, "F1");
    assert.equal(out.status, "passed", JSON.stringify(out));
    assert.equal(out.attempts, 2);
    assert.equal(env.fake.chats.length, 2);
    const second = env.fake.chats[1].messages.map((m) => m.content).join("\n");
    assert.match(second, /FAIL test_add/);
  } finally {
    await env.close();
  }
});
