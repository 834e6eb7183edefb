/**
 * Reply corpus benchmark: runs every case of both corpora — the real one (replies local models
 * really wrote, copied from public logs; see `corpusDir`) and `tests/replies/own/` (replies we
 * wrote in the shapes small models produce) — through parseReply and applyEdits, and reports for each corpus,
 * overall and by shape: applied correctly, rejected correctly, applied wrongly, wrongly rejected
 * (targets: every well-formed reply applied, every malformed one rejected with a message naming
 * the fix, 0 applied wrongly).
 *
 * Run: `deno task bench replies`, or `deno run --no-prompt --allow-read scripts/bench_replies.ts
 * [--json]`.
 *
 * A case is one JSON file: `title`, `form` ("well-formed" | "malformed"), optional `model`,
 * `shape` (a short tag for the per-shape figures), `source`, `spec` (the task's words, which
 * decide whether a deletion was asked for), `allowed` (files_to_edit; default: every key of
 * `files`), `symbolsOnly`, `files` (path → content, or `null` for a file that does not exist),
 * `reply`, and `expect`: `{files}` (exact content of every file that must change; files not listed
 * must stay as they were), `{question: [words]}` or `{reject: [words]}` (the message must contain
 * every word, ignoring case). A text is a string, or an array of lines that each end with "\n".
 */
import { join } from "../lib/deps.ts";
import { applyEdits, chooseFence, deletionAllowance, parseReply } from "../lib/edit/mod.ts";
import { judgeReply, validateOutcome } from "../lib/implement/reply.ts";
import { primeSyntax } from "../lib/outline/mod.ts";

type Text = string | string[];

/** One corpus case as stored. */
export interface ReplyCase {
  name: string;
  title: string;
  model?: string;
  shape?: string;
  spec?: string;
  form: "well-formed" | "malformed";
  allowed?: string[];
  symbolsOnly?: string[];
  files: Record<string, Text | null>;
  reply: Text;
  expect: { files: Record<string, Text> } | { question: string[] } | { reject: string[] };
}

/** What happened to one case. */
export interface CaseOutcome {
  name: string;
  form: ReplyCase["form"];
  shape: string;
  /** The outcome matched the expectation exactly. */
  pass: boolean;
  /** Files were changed although the expectation was different (the outcome that must never happen). */
  wrong: boolean;
  /** Nothing was written although the expectation was to apply the edits. */
  wronglyRejected: boolean;
  /** What happened, for a report. */
  detail: string;
}

/** Joins a stored text: an array of lines becomes lines each ending in "\n". */
export function text(value: Text): string {
  return Array.isArray(value) ? value.map((l) => `${l}\n`).join("") : value;
}

/** Reads every `*.json` case under `dir`, sorted by name. */
export async function loadCorpus(dir: string): Promise<ReplyCase[]> {
  const cases: ReplyCase[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".json")) continue;
    const raw = JSON.parse(await Deno.readTextFile(join(dir, entry.name)));
    cases.push({ name: entry.name.replace(/\.json$/, ""), ...raw });
  }
  return cases.sort((a, b) => a.name.localeCompare(b.name));
}

function _missing(message: string, words: string[]): string[] {
  const lower = message.toLowerCase();
  return words.filter((w) => !lower.includes(w.toLowerCase()));
}

/** Runs one case through the parser and the applier and judges the outcome. */
export function runCase(c: ReplyCase): CaseOutcome {
  const files = new Map<string, string | null>();
  for (const [path, value] of Object.entries(c.files)) {
    files.set(path, value === null ? null : text(value));
  }
  const allowed = c.allowed ?? Object.keys(c.files);
  const base = { name: c.name, form: c.form, shape: c.shape ?? c.form, wronglyRejected: false };
  const wantsFiles = "files" in c.expect;
  const shown = [...files.values()].filter((v): v is string => v !== null);
  const parsed = parseReply(text(c.reply), {
    knownPaths: allowed,
    fence: chooseFence(shown),
    current: files,
  });
  const expect = c.expect;
  if (parsed.kind === "question") {
    if (!("question" in expect)) {
      return {
        ...base,
        pass: false,
        wrong: false,
        wronglyRejected: wantsFiles,
        detail: `asked a question: ${parsed.question}`,
      };
    }
    const missing = _missing(parsed.question, expect.question);
    return { ...base, pass: !missing.length, wrong: false, detail: `question; missing ${missing}` };
  }
  let message: string;
  if (parsed.kind === "invalid") {
    message = parsed.problem;
  } else {
    const result = applyEdits(files, parsed.edits, {
      allowed,
      symbolsOnly: c.symbolsOnly ?? [],
      deletion: deletionAllowance(c.spec ?? ""),
    });
    if (result.ok) {
      if (!("files" in expect)) {
        return {
          ...base,
          pass: false,
          wrong: true,
          detail: `applied: ${result.changed.join(", ")}`,
        };
      }
      const bad: string[] = [];
      for (const [path, before] of files) {
        const want = path in expect.files ? text(expect.files[path]) : before;
        const got = result.files.get(path) ?? before;
        if (got !== want) bad.push(path);
      }
      const pass = !bad.length;
      return { ...base, pass, wrong: !pass, detail: pass ? "applied" : `wrong content: ${bad}` };
    }
    message = result.error;
  }
  if (!("reject" in expect)) {
    return {
      ...base,
      pass: false,
      wrong: false,
      wronglyRejected: wantsFiles,
      detail: `rejected: ${message}`,
    };
  }
  const missing = _missing(message, expect.reject);
  const detail = missing.length
    ? `message lacks ${JSON.stringify(missing)}: ${message}`
    : "rejected";
  return { ...base, pass: !missing.length, wrong: false, detail };
}

/** The benchmark's figures for one set of outcomes. */
export interface CorpusSummary {
  cases: number;
  wellFormed: number;
  appliedCorrectly: number;
  malformed: number;
  rejectedCorrectly: number;
  appliedWrongly: number;
  wronglyRejected: number;
}

/** Counts outcomes into the benchmark's figures. */
export function summarize(outcomes: readonly CaseOutcome[]): CorpusSummary {
  const well = outcomes.filter((o) => o.form === "well-formed");
  const bad = outcomes.filter((o) => o.form === "malformed");
  return {
    cases: outcomes.length,
    wellFormed: well.length,
    appliedCorrectly: well.filter((o) => o.pass).length,
    malformed: bad.length,
    rejectedCorrectly: bad.filter((o) => o.pass).length,
    appliedWrongly: outcomes.filter((o) => o.wrong).length,
    wronglyRejected: outcomes.filter((o) => o.wronglyRejected).length,
  };
}

/** The figures per shape, in shape order. */
export function byShape(outcomes: readonly CaseOutcome[]): Map<string, CorpusSummary> {
  const shapes = [...new Set(outcomes.map((o) => o.shape))].sort();
  return new Map(shapes.map((s) => [s, summarize(outcomes.filter((o) => o.shape === s))]));
}

/** The two corpora, by name. */
export const CORPORA = ["real", "own"] as const;

/**
 * The folder that holds a corpus, or `null` when it is not there. The own corpus is in the
 * repository; the real one is public material, kept out of the repository: it is read from
 * `$LOCALEXEC_REAL_REPLIES`, else from `shared/replies/real/` beside the repository.
 */
export function corpusDir(name: (typeof CORPORA)[number]): string | null {
  if (name === "own") return new URL("../tests/replies/own/", import.meta.url).pathname;
  const dir = Deno.env.get("LOCALEXEC_REAL_REPLIES") ||
    new URL("../../shared/replies/real/", import.meta.url).pathname;
  try {
    return Deno.statSync(dir).isDirectory ? dir : null;
  } catch {
    return null;
  }
}

function _line(label: string, s: CorpusSummary): string {
  return `${label}: ${s.cases} cases; applied correctly ${s.appliedCorrectly}/${s.wellFormed}, ` +
    `rejected correctly ${s.rejectedCorrectly}/${s.malformed}, applied wrongly ` +
    `${s.appliedWrongly}, wrongly rejected ${s.wronglyRejected}`;
}

function _median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * The syntax backstop's cost on a 3,000-line file, as implement_task pays it: the file parsed
 * before and after the edit (median of 15 runs after a warm-up; target <= 20 ms), beside the
 * parse and apply of the reply itself in the same runs.
 */
async function _backstopCost(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const files: Record<string, (i: number) => string> = {
    "big.py": (i) => `def f${i}(a, b):\n    """Add."""\n    return a + b + ${i}\n`,
    "big.ts": (i) => `export function f${i}(a: number): number {\n  return a + ${i};\n}\n`,
    "big.go": (i) => `func F${i}(a int) int {\n\treturn a + ${i}\n}\n`,
  };
  for (const [path, unit] of Object.entries(files)) {
    let text = path.endsWith(".go") ? "package big\n\n" : "";
    for (let i = 0; text.split("\n").length < 3000; i++) text += unit(i);
    const reply = `${path}\n<<<<<<< SEARCH\n${unit(500)}=======\n${
      unit(500).replace("+", "-")
    }>>>>>>> REPLACE\n`;
    const current = new Map([[path, text]]);
    const input = { spec: "Change f500.", files: [path], symbolsOnly: [], current };
    const judgeMs: number[] = [];
    const backstopMs: number[] = [];
    const fullMs: number[] = [];
    // implement_task parses the files as they are while the model writes (primeSyntax).
    await primeSyntax(path, text);
    for (let run = 0; run < 16; run++) {
      const t0 = performance.now();
      const judged = judgeReply(reply, input);
      const t1 = performance.now();
      const after = await validateOutcome(judged, input);
      const t2 = performance.now();
      await primeSyntax(path, `${text}${" ".repeat(run + 1)}\n`); // a new text: a full parse
      const t3 = performance.now();
      if (after.kind !== "edits") throw new Error(`${path}: the bench edit was refused`);
      if (run === 0) continue;
      judgeMs.push(t1 - t0);
      backstopMs.push(t2 - t1);
      fullMs.push(t3 - t2);
    }
    out[path] = _median(backstopMs);
    console.log(
      `syntax backstop on ${path} (${text.split("\n").length} lines): ${
        _median(backstopMs).toFixed(1)
      } ms (target <= 20; ${(_median(backstopMs) / _median(fullMs)).toFixed(2)}x one full ` +
        `parse, ${_median(fullMs).toFixed(1)} ms, on this box now); parse+apply ${
          _median(judgeMs).toFixed(1)
        } ms`,
    );
  }
  return out;
}

async function _main(): Promise<void> {
  const report: Record<string, unknown> = {};
  for (const name of CORPORA) {
    const dir = corpusDir(name);
    if (!dir) {
      console.log(
        `${name} corpus: not found (set LOCALEXEC_REAL_REPLIES, or put it in shared/replies/real/ ` +
          "beside the repository)",
      );
      continue;
    }
    const cases = await loadCorpus(dir);
    const started = performance.now();
    const outcomes = cases.map(runCase);
    const ms = performance.now() - started;
    const s = summarize(outcomes);
    const shapes = byShape(outcomes);
    if (Deno.args.includes("--json")) {
      report[name] = {
        ...s,
        ms: Math.round(ms),
        shapes: Object.fromEntries(shapes),
        failures: outcomes.filter((o) => !o.pass),
      };
      continue;
    }
    console.log(_line(`${name} corpus`, s));
    for (const [shape, f] of shapes) console.log(`  ${_line(shape, f)}`);
    for (const o of outcomes.filter((o) => !o.pass)) {
      console.log(`  FAIL ${o.name}: ${o.detail.slice(0, 300)}`);
    }
    console.log(`  time: ${ms.toFixed(1)} ms (${(ms / cases.length).toFixed(2)} ms a reply)`);
  }
  if (!Deno.args.includes("--json")) {
    // Every corpus and the probes, as implement_task judges them (scripts/score_replies.ts).
    console.log("all corpora through implement_task's judge (scripts/score_replies.ts):");
    const score = new URL("./score_replies.ts", import.meta.url).pathname;
    await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "-A", score],
      stdout: "inherit",
      stderr: "inherit",
    }).output();
  }
  report.backstopMs = await _backstopCost();
  if (Deno.args.includes("--json")) console.log(JSON.stringify(report));
}

if (import.meta.main) await _main();
