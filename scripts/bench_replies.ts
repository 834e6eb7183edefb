/**
 * Reply corpus benchmark: runs every case in `tests/replies/` through parseReply and applyEdits
 * and reports the share of well-formed replies applied correctly, the share of malformed ones
 * rejected with a useful message, and how many were applied wrongly (targets: 100 %, 100 %, 0).
 *
 * Run: `deno run --no-prompt --allow-read scripts/bench_replies.ts [--json]`
 *
 * A case is one JSON file: `title`, `form` ("well-formed" | "malformed"), optional `model`,
 * `allowed` (files_to_edit; default: every key of `files`), `symbolsOnly`, `files` (path →
 * content, or `null` for a file that does not exist), `reply`, and `expect`: `{files}` (exact
 * content of every file that must change; files not listed must stay as they were),
 * `{question: [words]}` or `{reject: [words]}` (the message must contain every word, ignoring
 * case). A text is a string, or an array of lines that each end with "\n".
 */
import { join } from "../lib/deps.ts";
import { applyEdits, parseReply } from "../lib/edit/mod.ts";

type Text = string | string[];

/** One corpus case as stored. */
export interface ReplyCase {
  name: string;
  title: string;
  model?: string;
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
  /** The outcome matched the expectation exactly. */
  pass: boolean;
  /** Files were changed although the expectation was different (the outcome that must never happen). */
  wrong: boolean;
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

function _words(message: string, words: string[]): string[] {
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
  const base = { name: c.name, form: c.form };
  const parsed = parseReply(text(c.reply), { knownPaths: allowed });
  const expect = c.expect;
  if (parsed.kind === "question") {
    if (!("question" in expect)) {
      return { ...base, pass: false, wrong: false, detail: "asked a question" };
    }
    const missing = _words(parsed.question, expect.question);
    return { ...base, pass: !missing.length, wrong: false, detail: `question; missing ${missing}` };
  }
  let message: string;
  if (parsed.kind === "invalid") {
    message = parsed.problem;
  } else {
    const result = applyEdits(files, parsed.edits, { allowed, symbolsOnly: c.symbolsOnly ?? [] });
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
    return { ...base, pass: false, wrong: false, detail: `rejected: ${message}` };
  }
  const missing = _words(message, expect.reject);
  const detail = missing.length
    ? `message lacks ${JSON.stringify(missing)}: ${message}`
    : "rejected";
  return { ...base, pass: !missing.length, wrong: false, detail };
}

/** The benchmark's figures. */
export interface CorpusSummary {
  wellFormed: number;
  appliedCorrectly: number;
  malformed: number;
  rejectedUsefully: number;
  appliedWrongly: number;
}

/** Counts outcomes into the benchmark's figures. */
export function summarize(outcomes: readonly CaseOutcome[]): CorpusSummary {
  const well = outcomes.filter((o) => o.form === "well-formed");
  const bad = outcomes.filter((o) => o.form === "malformed");
  return {
    wellFormed: well.length,
    appliedCorrectly: well.filter((o) => o.pass).length,
    malformed: bad.length,
    rejectedUsefully: bad.filter((o) => o.pass).length,
    appliedWrongly: outcomes.filter((o) => o.wrong).length,
  };
}

function _pct(part: number, whole: number): string {
  return whole ? `${((100 * part) / whole).toFixed(1)} %` : "n/a";
}

async function _main(): Promise<void> {
  const dir = new URL("../tests/replies/", import.meta.url).pathname;
  const cases = await loadCorpus(dir);
  const started = performance.now();
  const outcomes = cases.map(runCase);
  const ms = performance.now() - started;
  const s = summarize(outcomes);
  if (Deno.args.includes("--json")) {
    console.log(
      JSON.stringify({ ...s, ms: Math.round(ms), failures: outcomes.filter((o) => !o.pass) }),
    );
    return;
  }
  for (const o of outcomes.filter((o) => !o.pass)) console.log(`FAIL ${o.name}: ${o.detail}`);
  console.log(`cases: ${cases.length} (${s.wellFormed} well-formed, ${s.malformed} malformed)`);
  console.log(
    `well-formed applied correctly: ${s.appliedCorrectly}/${s.wellFormed} ` +
      `(${_pct(s.appliedCorrectly, s.wellFormed)})`,
  );
  console.log(
    `malformed rejected with a useful message: ${s.rejectedUsefully}/${s.malformed} ` +
      `(${_pct(s.rejectedUsefully, s.malformed)})`,
  );
  console.log(`applied wrongly: ${s.appliedWrongly}`);
  console.log(
    `time: ${ms.toFixed(1)} ms for ${cases.length} replies (${
      (ms / cases.length).toFixed(2)
    } ms each)`,
  );
}

if (import.meta.main) await _main();
