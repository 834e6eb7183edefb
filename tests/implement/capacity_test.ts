/**
 * Model capacity (`parallel`): tasks on three and four projects at once through the engine, over
 * real HTTP to scripted Ollamas whose model takes a fixed time per chat, sharing one server's
 * slots. Separate projects, because one project's lock still runs its tasks one at a time.
 */
import { PROVIDERS } from "../../lib/providers/mod.ts";
import assert from "node:assert/strict";
import { loadToolConfig } from "../../lib/config.ts";
import { implementTask, type Verdict } from "../../lib/implement/mod.ts";
import { HostSlots } from "../../lib/model/mod.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake_ollama.ts";
import { startFakeOpenAI } from "../helpers/fake_openai.ts";
import { tempProject } from "../helpers/project.ts";
import { CALC, FIX_ADD, MODEL } from "../helpers/calc.ts";
import { join } from "../../lib/deps.ts";

const ADD_CHECK = { command: "grep -q 'return a + b' calc.py" };
/**
 * The model's time per chat: the tasks start together, and their chats must overlap however
 * loaded the machine is (the figure of the measurements).
 */
const MODEL_MS = 3_000;

/** `n` projects configured with `config`, each given one task at the same time. */
async function runAtOnce(
  n: number,
  config: Record<string, unknown>,
): Promise<{ verdicts: Verdict[]; progress: string[][] }> {
  const slots = new HostSlots();
  const roots = await Promise.all(Array.from({ length: n }, () =>
    tempProject({
      "calc.py": CALC,
      ".localexec.json": JSON.stringify({ model: MODEL, checks: { add: ADD_CHECK }, ...config }),
    })));
  const progress = roots.map(() => [] as string[]);
  try {
    const verdicts = await Promise.all(roots.map((root, i) =>
      implementTask({
        task_id: `T${i}`,
        spec: "Fix add() so that it adds",
        files_to_edit: ["calc.py"],
      }, {
        root,
        signal: new AbortController().signal,
        progress: (m) => progress[i].push(m),
        config: () => loadToolConfig(join(root, ".localexec.json"), root, PROVIDERS),
        slots,
      })
    ));
    return { verdicts, progress };
  } finally {
    for (const root of roots) await Deno.remove(root, { recursive: true });
  }
}

async function fakes(n: number, modelMs: number): Promise<FakeOllama[]> {
  return await Promise.all(Array.from({ length: n }, async () => {
    const fake = await startFakeOllama({
      models: [{ name: MODEL, contextLength: 32768 }],
      modelMs,
    });
    fake.script(...Array(4).fill(FIX_ADD));
    return fake;
  }));
}

Deno.test("parallel 2: one host serves two chats at once, and a third waits for a slot", async () => {
  const [fake] = await fakes(1, MODEL_MS);
  try {
    const { verdicts, progress } = await runAtOnce(3, { ollama_host: fake.url, parallel: 2 });
    assert.deepEqual(verdicts.map((v) => v.status), ["passed", "passed", "passed"]);
    assert.equal(fake.busy.most, 2);
    const waited = progress.flat().filter((m) => /waiting for a free slot/.test(m));
    assert.equal(waited.length, 1, JSON.stringify(progress));
    assert.match(waited[0], new RegExp(`waiting for a free slot on ${fake.url} \\(2/2 chats`));
  } finally {
    await fake.close();
  }
});

Deno.test("parallel 1 (the default): one chat at a time on a host", async () => {
  const [fake] = await fakes(1, 300);
  try {
    const { verdicts } = await runAtOnce(2, { ollama_host: fake.url });
    assert.deepEqual(verdicts.map((v) => v.status), ["passed", "passed"]);
    assert.equal(fake.busy.most, 1);
  } finally {
    await fake.close();
  }
});

Deno.test("parallel 2 on two hosts: four tasks, each host serves two chats at once", async () => {
  const [a, b] = await fakes(2, MODEL_MS);
  try {
    const { verdicts, progress } = await runAtOnce(4, {
      ollama_host: [a.url, b.url],
      parallel: { [a.url]: 2, [new URL(b.url).host]: 2 },
    });
    assert.deepEqual(verdicts.map((v) => v.status), ["passed", "passed", "passed", "passed"]);
    assert.equal(a.busy.most, 2);
    assert.equal(b.busy.most, 2);
    assert.ok(!progress.flat().some((m) => /waiting for a free slot/.test(m)));
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("parallel 2 on an OpenAI-compatible server: two chats at once, not three", async () => {
  const fake = await startFakeOpenAI({
    models: [{ id: MODEL, contextLength: 16384 }],
    modelMs: MODEL_MS,
  });
  fake.script(FIX_ADD, FIX_ADD, FIX_ADD);
  try {
    const { verdicts } = await runAtOnce(3, {
      provider: "openai",
      base_url: fake.baseUrl,
      parallel: 2,
    });
    assert.deepEqual(verdicts.map((v) => v.status), ["passed", "passed", "passed"]);
    assert.equal(fake.busy.most, 2);
  } finally {
    await fake.close();
  }
});
