/**
 * implement_task benchmark: its own overhead per attempt, and what `symbols` saves in the prompt.
 *
 * 1. Overhead: an instant scripted model (the fake Ollama on loopback, no delay between chunks)
 *    and a trivial check (`true`); each run goes through the handler in this process. Overhead is
 *    the run's wall time minus model time (from the fake receiving each chat request to the end
 *    of its answer) and check time (the median of running the same checks alone with runChecks,
 *    times the attempts), per attempt; median of 20 runs after 3 warm-up runs, for one-attempt
 *    runs and for three-attempt runs (the check fails twice). Target: under 50 ms.
 * 2. Prompt size: one function of a 3,000-line Python file, asked for with `symbols` and without
 *    (the whole file); the size of what is sent to the model. Target: under 15 %.
 * 3. Prompt cache: with a 20k-token context file, the share of attempt 2's prompt (characters of
 *    the concatenated messages) that is an identical prefix of attempt 1's, and for a second task
 *    with the same context the share of its prompt before the task text that the first task's
 *    prompt shares. Target: >= 0.9 and 1.
 * 4. The delegation record: `status.record` over 5,000 synthetic task records (the task index
 *    read and summed), median of 9, against reading the index file alone.
 *
 * Run: `deno run --no-prompt -A scripts/bench_implement.ts [--json]`. Prints figures; asserts
 * nothing.
 */
import { runChecks } from "../lib/checks.ts";
import { loadConfig } from "../lib/config.ts";
import { PROVIDERS } from "../lib/providers/mod.ts";
import { estimateChatTokens } from "../lib/implement/mod.ts";
import { prefixShare } from "../lib/implement/prompt.ts";
import { listTasks, recordRows, storeDir, taskKind } from "../lib/tasks/mod.ts";
import { INDEX_NAME, indexEntry } from "../lib/tasks/index.ts";
import { CONTEXT_20K } from "../tests/helpers/context.ts";
import { join } from "../lib/deps.ts";
import implementTool from "../tools/implement_task.ts";
import { type FakeChatRequest, startFakeOllama } from "../tests/helpers/fake_ollama.ts";
import { callJson, tempProject, testContext } from "../tests/helpers/project.ts";

const MODEL = "bench-coder:7b";
const RUNS = 20;
const WARMUP = 3;

const CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n";

function block(path: string, search: string, replace: string): string {
  return `${path}\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n`;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

interface Overhead {
  attempts: number;
  runs: number;
  /** Median overhead per attempt, ms. */
  median_ms: number;
  p90_ms: number;
  /** Median wall time of a whole run, ms. */
  wall_ms: number;
  /** Median model and check time of a whole run, ms. */
  model_ms: number;
  check_ms: number;
}

/** Median milliseconds of one run of the project's checks on its own. */
async function checkTime(root: string): Promise<number> {
  const config = await loadConfig(join(root, ".localexec.json"), PROVIDERS);
  const times: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const started = performance.now();
    await runChecks(root, config.checks, { files: ["calc.py"] });
    if (i >= WARMUP) times.push(performance.now() - started);
  }
  return median(times);
}

/** Runs implement_task `RUNS` times with `attempts` attempts each and measures its overhead. */
async function overhead(attempts: number): Promise<Overhead> {
  const fake = await startFakeOllama({
    models: [{ name: MODEL, contextLength: 32768 }],
    chunkDelayMs: 0,
    chunkChars: 64,
  });
  // The check passes only once the marker file says so: attempts-1 failures, then a pass.
  const root = await tempProject({
    "calc.py": CALC,
    ".localexec.json": JSON.stringify({
      model: MODEL,
      ollama_host: fake.url,
      max_attempts: attempts,
      checks: {
        trivial: attempts === 1
          ? { command: ["true"] }
          : { command: "test -f pass.flag", files_filter: ["*.py"] },
      },
    }),
  });
  const checkOnce = await checkTime(root);
  const wall: number[] = [];
  const model: number[] = [];
  const check: number[] = [];
  const per: number[] = [];
  try {
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const even = i % 2 === 0;
      const [from, to] = even ? ["a - b", "a + b"] : ["a + b", "a - b"];
      const search = `def add(a, b):\n    return ${from}\n`;
      const replies: (string | ((req: FakeChatRequest) => string))[] = [];
      for (let a = 1; a <= attempts; a++) {
        // every attempt rewrites add; the last one also lets the check pass
        const body = a === 1 ? search : `def add(a, b):\n    return ${to} + ${a - 1} * 0\n`;
        const next = `def add(a, b):\n    return ${to} + ${a} * 0\n`;
        const reply = block(
          "calc.py",
          body,
          a === attempts ? `def add(a, b):\n    return ${to}\n` : next,
        );
        replies.push(
          a === attempts && attempts > 1
            ? () => {
              Deno.writeTextFileSync(join(root, "pass.flag"), "");
              return reply;
            }
            : reply,
        );
      }
      fake.script(...replies);
      await Deno.remove(join(root, "pass.flag")).catch(() => {});
      const id = `B${attempts}-${i}`;
      const started = performance.now();
      const out = await callJson(
        implementTool,
        { task_id: id, spec: `make add return ${to}`, files_to_edit: ["calc.py"] },
        testContext(root),
      );
      const ms = performance.now() - started;
      if (out.status !== "passed" || out.attempts !== attempts) {
        throw new Error(`run ${i} ended ${JSON.stringify(out)}`);
      }
      const chats = fake.requests.filter((r) => r.path === "/api/chat").slice(-attempts);
      if (i < WARMUP) continue;
      const modelMs = chats.reduce((n, r) => n + (r.doneMs! - r.receivedMs), 0);
      const checkMs = checkOnce * attempts;
      wall.push(ms);
      model.push(modelMs);
      check.push(checkMs);
      per.push((ms - modelMs - checkMs) / attempts);
    }
  } finally {
    await fake.close();
    await Deno.remove(root, { recursive: true });
  }
  const sorted = [...per].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    attempts,
    runs: RUNS,
    median_ms: round(median(per)),
    p90_ms: round(sorted[Math.floor(sorted.length * 0.9)]),
    wall_ms: round(median(wall)),
    model_ms: round(median(model)),
    check_ms: round(median(check)),
  };
}

/** A Python file of 3,000 lines: 300 functions of ten lines. */
function bigModule(): string {
  const out: string[] = [];
  for (let i = 0; i < 300; i++) {
    out.push(`def f_${i}(values, factor=${i}):`, `    """Scale values by factor ${i}."""`);
    for (let j = 0; j < 6; j++) {
      out.push(`    values = [v * factor + ${j} for v in values]  # ${j}`);
    }
    out.push("    return values", "");
  }
  return out.join("\n") + "\n";
}

interface PromptSize {
  file_lines: number;
  with_symbols: { chars: number; tokens: number };
  whole_file: { chars: number; tokens: number };
  /** Share of the whole-file prompt that the symbols prompt takes, in percent. */
  ratio_chars_pct: number;
  ratio_tokens_pct: number;
}

/** Sends one function of a 3,000-line file with and without `symbols`; compares the prompts. */
async function promptSize(): Promise<PromptSize> {
  const big = bigModule();
  const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 131072 }] });
  const root = await tempProject({
    "big.py": big,
    ".localexec.json": JSON.stringify({ model: MODEL, ollama_host: fake.url }),
  });
  try {
    const edit = block(
      "big.py",
      "def f_150(values, factor=150):\n",
      "def f_150(values, factor=150):\n    values = list(values)\n",
    );
    const undo = block(
      "big.py",
      "def f_150(values, factor=150):\n    values = list(values)\n",
      "def f_150(values, factor=150):\n",
    );
    fake.script(edit, undo);
    const spec = "In f_150, copy values into a list first.";
    for (const [id, symbols] of [["S-symbols", ["big.py::f_150"]], ["S-whole", undefined]]) {
      const out = await callJson(
        implementTool,
        { task_id: id, spec, files_to_edit: ["big.py"], ...(symbols ? { symbols } : {}) },
        testContext(root),
      );
      if (out.status !== "passed") throw new Error(`${id} ended ${JSON.stringify(out)}`);
    }
    const size = (req: FakeChatRequest) => ({
      chars: req.messages.reduce((n, m) => n + m.content.length, 0),
      tokens: estimateChatTokens(req.messages),
    });
    const [withSymbols, whole] = fake.chats.map(size);
    const pct = (a: number, b: number) => Math.round((a / b) * 1000) / 10;
    return {
      file_lines: big.split("\n").length - 1,
      with_symbols: withSymbols,
      whole_file: whole,
      ratio_chars_pct: pct(withSymbols.chars, whole.chars),
      ratio_tokens_pct: pct(withSymbols.tokens, whole.tokens),
    };
  } finally {
    await fake.close();
    await Deno.remove(root, { recursive: true });
  }
}

interface CacheShare {
  context_tokens: number;
  /** Attempt 2's prompt: the share that is attempt 1's prefix. */
  retry_share: number;
  /** A second task with the same context: its prompt's share that the first task's prefixes. */
  next_task_share: number;
  /** The same, counted only up to the second task's `## Task` heading (1 = all of it). */
  next_task_until_task: number;
  num_ctx: number[];
}

/** Two tasks with the same 20k-token context file, the first taking two attempts. */
async function cacheShare(): Promise<CacheShare> {
  const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 32768 }] });
  const root = await tempProject({
    "calc.py": CALC,
    "notes.md": CONTEXT_20K,
    ".localexec.json": JSON.stringify({
      model: MODEL,
      ollama_host: fake.url,
      checks: { tests: { command: "grep -q 'return a + b' calc.py" } },
    }),
  });
  try {
    const wrong = "def add(a, b):\n    return a * b\n";
    fake.script(
      block("calc.py", "def add(a, b):\n    return a - b\n", wrong),
      block("calc.py", wrong, "def add(a, b):\n    return a + b\n"),
      block("calc.py", "def add(a, b):\n    return a - b\n", "def add(a, b):\n    return a + b\n"),
    );
    const args = { files_to_edit: ["calc.py"], context_files: ["notes.md"] };
    const runs: [string, string][] = [["K1", "add(a, b) must return a + b"], [
      "K2",
      "make add(a, b) return the sum",
    ]];
    for (const [id, spec] of runs) {
      await Deno.writeTextFile(join(root, "calc.py"), CALC);
      const out = await callJson(implementTool, { task_id: id, spec, ...args }, testContext(root));
      if (out.status !== "passed") throw new Error(`${id} ended ${JSON.stringify(out)}`);
    }
    const [a1, a2, b1] = fake.chats;
    const text = b1.messages.map((m) => m.content).join("");
    const shared = prefixShare(a1.messages, b1.messages) * text.length;
    const until = text.indexOf("## Task\n") + "## Task\n".length;
    const r = (n: number) => Math.round(n * 1000) / 1000;
    return {
      context_tokens: estimateChatTokens([{ content: CONTEXT_20K }]),
      retry_share: r(prefixShare(a1.messages, a2.messages)),
      next_task_share: r(shared / text.length),
      next_task_until_task: r(Math.min(1, shared / until)),
      num_ctx: [a1, a2, b1].map((c) => Number(c.options?.num_ctx)),
    };
  } finally {
    await fake.close();
    await Deno.remove(root, { recursive: true });
  }
}

interface RecordSpeed {
  tasks: number;
  /** Median ms of `status.record` (list the tasks from the index, sum them up). */
  record_ms: number;
  /** Median ms of reading the index file alone. */
  read_ms: number;
  rows: number;
}

/** `status.record` over 5,000 synthetic task records. */
async function recordSpeed(tasks = 5000): Promise<RecordSpeed> {
  const root = await Deno.makeTempDir({ prefix: "localexec-record-" });
  try {
    const store = storeDir(root);
    await Deno.mkdir(store, { recursive: true });
    const models = ["small-coder:1b", "qwen2.5-coder:7b", "qwen2.5-coder:32b"];
    const lines: string[] = [];
    for (let i = 0; i < tasks; i++) {
      const files = [i % 3 ? `src/m${i}.py` : `src/m${i}.ts`];
      const attempts = 1 + (i % 4 === 0 ? 2 : i % 5 === 0 ? 1 : 0);
      const time = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
      const record = {
        id: `R${i}`,
        status: i % 7 === 0 ? "failed" : "passed",
        spec: `task ${i}: change the function that handles case ${i} so that it returns early`,
        files,
        pid: 1,
        created: time,
        started: time,
        updated: time,
        finished: time,
        runs: 1,
        attempts,
        prompt_tokens: 1200 * attempts,
        reply_tokens: 90 * attempts,
        model_secs: 2.5 * attempts,
        check_secs: 0.4 * attempts,
        written: {},
        model: models[i % 3],
        kind: taskKind(files),
        secs: 3 * attempts,
        escalate: i % 7 === 0,
        history: Array.from({ length: attempts }, () => ({ model: models[i % 3], secs: 2.5 })),
      };
      await Deno.writeTextFile(join(store, `R${i}.json`), JSON.stringify(record, null, 1) + "\n");
      lines.push(JSON.stringify(indexEntry(record)));
    }
    await Deno.writeTextFile(join(store, INDEX_NAME), lines.join("\n") + "\n");
    const record: number[] = [];
    const read: number[] = [];
    let rows = 0;
    for (let i = 0; i < 12; i++) {
      // Interleaved: the reference (reading the index alone) and the real thing.
      let t = performance.now();
      await Deno.readTextFile(join(store, INDEX_NAME));
      if (i >= 3) read.push(performance.now() - t);
      t = performance.now();
      rows = recordRows(await listTasks(root)).length;
      if (i >= 3) record.push(performance.now() - t);
    }
    const round = (n: number) => Math.round(n * 10) / 10;
    return { tasks, record_ms: round(median(record)), read_ms: round(median(read)), rows };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const one = await overhead(1);
const three = await overhead(3);
const prompt = await promptSize();
const cache = await cacheShare();
const records = await recordSpeed();

if (Deno.args.includes("--json")) {
  console.log(JSON.stringify({ overhead: [one, three], prompt, cache, records }, null, 2));
} else {
  for (const o of [one, three]) {
    console.log(
      `implement_task overhead, ${o.attempts}-attempt runs: ${o.median_ms} ms per attempt ` +
        `(median of ${o.runs}; p90 ${o.p90_ms} ms; target < 50 ms) — run wall ${o.wall_ms} ms, ` +
        `model ${o.model_ms} ms, checks ${o.check_ms} ms`,
    );
  }
  console.log(
    `prompt for one function of a ${prompt.file_lines}-line file: with symbols ` +
      `${prompt.with_symbols.chars} chars (~${prompt.with_symbols.tokens} tokens), whole file ` +
      `${prompt.whole_file.chars} chars (~${prompt.whole_file.tokens} tokens): ` +
      `${prompt.ratio_chars_pct} % of the characters, ${prompt.ratio_tokens_pct} % of the tokens ` +
      `(target < 15 %)`,
  );
  console.log(
    `prompt cache, ~${cache.context_tokens}-token context file: attempt 2 re-sends ` +
      `${cache.retry_share} of its prompt as attempt 1's prefix (target >= 0.9); a second task ` +
      `with the same context shares ${cache.next_task_share} of its prompt, ` +
      `${cache.next_task_until_task} of what comes before its task (target 1); num_ctx ` +
      `${cache.num_ctx.join(", ")}`,
  );
  console.log(
    `status.record over ${records.tasks} task records: ${records.record_ms} ms (median of 9; ` +
      `${records.rows} rows), reading the index alone ${records.read_ms} ms ` +
      `(${Math.round((records.record_ms / records.read_ms) * 10) / 10}x)`,
  );
}
