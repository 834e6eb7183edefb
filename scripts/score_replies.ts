/**
 * The reply scorer: runs EVERY case of every reply corpus — `shared/replies/` real, logs-a, logs-b,
 * logs-c, aider-tests, probes-2, the project's `tests/replies/own/` and `tests/replies/probes-3/` — and the hand-written probes
 * (`shared/replies/probes.json`) through implement_task's own judge (`lib/implement/reply.ts`:
 * parse, apply in memory, the syntax backstop), with the fence the prompt would ask for, and
 * counts per corpus: applied right, refused right, refused (wrongly: an edit was expected),
 * applied wrongly (the outcome that must never happen).
 *
 * Run: `deno run --no-prompt -A scripts/score_replies.ts [--list] [--json FILE]`; `--list` prints
 * each case's outcome, `--json` writes them (to compare a change against a baseline:
 * `--baseline FILE` lists every case whose outcome got worse).
 */
import { join } from "../lib/deps.ts";
import { chooseFence } from "../lib/edit/mod.ts";
import { judgeReply, validateOutcome } from "../lib/implement/reply.ts";
import { corpusDir, loadCorpus, type ReplyCase, text } from "./bench_replies.ts";

/** How one case ended. */
export type Verdict = "applied-right" | "refused-right" | "refused" | "applied-wrongly";

/** A case in one form for all corpora: what may be written, and whether refusing is fine. */
export interface ScoreCase {
  corpus: string;
  name: string;
  files: Record<string, string | null>;
  allowed: string[];
  symbolsOnly?: string[];
  spec: string;
  reply: string;
  /** Acceptable results (path → content of each file to edit; `null` = absent). */
  accept: Record<string, string | null>[];
  /** Refusing (or asking) is right. */
  refuseOk: boolean;
  /** Passing with nothing changed is acceptable too. */
  noopOk?: boolean;
}

/** What happened to one case. */
export interface Scored {
  corpus: string;
  name: string;
  verdict: Verdict;
  detail: string;
}

/** `shared/replies/` beside the repository, or `$LOCALEXEC_SHARED_REPLIES`. */
const SHARED = Deno.env.get("LOCALEXEC_SHARED_REPLIES") ||
  new URL("../../shared/replies/", import.meta.url).pathname;

function _fromOwn(corpus: string, c: ReplyCase): ScoreCase {
  const files: Record<string, string | null> = {};
  for (const [p, v] of Object.entries(c.files)) files[p] = v === null ? null : text(v);
  const allowed = c.allowed ?? Object.keys(c.files);
  const accept: Record<string, string | null>[] = [];
  if ("files" in c.expect) {
    const want: Record<string, string | null> = {};
    for (const p of Object.keys(files)) want[p] = files[p];
    for (const [p, v] of Object.entries(c.expect.files)) want[p] = text(v);
    accept.push(want);
  }
  return {
    corpus,
    name: c.name,
    files,
    allowed,
    symbolsOnly: c.symbolsOnly,
    spec: c.spec ?? "",
    reply: text(c.reply),
    accept,
    refuseOk: !("files" in c.expect),
  };
}

interface SharedCase {
  name: string;
  files: Record<string, string>;
  files_to_edit: string[];
  spec: string;
  reply: string;
  expect: "applied" | "rejected" | "question";
  expected_files?: Record<string, string | null>;
  alt_expected_files?: Record<string, string | null>[];
  reject_ok?: boolean;
  noop_ok?: boolean;
}

function _fromShared(corpus: string, c: SharedCase): ScoreCase {
  const files: Record<string, string | null> = { ...c.files };
  for (const p of c.files_to_edit) if (!(p in files)) files[p] = null;
  const accept = c.expect === "applied"
    ? [c.expected_files ?? {}, ...(c.alt_expected_files ?? [])].map((want) => {
      const all: Record<string, string | null> = {};
      for (const p of Object.keys(files)) all[p] = files[p];
      return { ...all, ...want };
    })
    : [];
  return {
    corpus,
    name: c.name,
    files,
    allowed: c.files_to_edit,
    spec: c.spec,
    reply: c.reply,
    accept,
    refuseOk: c.expect !== "applied" || !!c.reject_ok,
    noopOk: !!c.noop_ok,
  };
}

/** Corpora in the shared case format kept in this repository (`tests/replies/<name>/cases`). */
const OWN_SHARED_FORMAT = ["probes-3", "probes-4", "probes-5"];

async function _sharedCases(corpus: string): Promise<ScoreCase[] | null> {
  const dir = OWN_SHARED_FORMAT.includes(corpus)
    ? new URL(`../tests/replies/${corpus}/cases`, import.meta.url).pathname
    : join(SHARED, corpus, "cases");
  const out: ScoreCase[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (!e.name.endsWith(".json")) continue;
      out.push(_fromShared(corpus, JSON.parse(await Deno.readTextFile(join(dir, e.name)))));
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** One probe as stored in `probes.json`. */
export interface Probe {
  id: string;
  title: string;
  files: Record<string, string>;
  allowed?: string[];
  spec?: string;
  reply: string;
  human: string;
}

/**
 * What each probe's `human` field says, as results: the file contents a careful human would
 * accept (none: only refusing is right), and whether refusing is right too. Written by reading
 * each `human` line; `probes_test.ts` checks every probe has an entry.
 */
export const PROBE_RESULTS: Record<
  string,
  { accept: Record<string, string>[]; refuseOk: boolean }
> = {
  P01: {
    accept: [{
      "calc.py": "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n",
    }],
    refuseOk: true,
  },
  P02: {
    accept: [{
      "strip.py": 'import re\n\n\ndef strip(text):\n    text = re.sub(r"<think>.*?</think>", ' +
        '"", text, flags=re.S)\n    return text.strip()\n',
    }],
    refuseOk: false,
  },
  P03: {
    accept: [{
      "store.py":
        'import json\n\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n\n\ndef save(path, data):\n    with open(path, "w") as f:\n        json.dump(data, f, indent=4)\n\n\ndef render(data):\n    return json.dumps(data)\n\n\nHELP = """Write the data as JSON\n```\n{"key": "value"}\n```\n"""\n',
    }],
    refuseOk: true,
  },
  P04: {
    accept: [{
      "README.md":
        "# Tool\n\nA small tool for doing things.\nIt reads files, counts words and prints a report.\nIt is fast and has no dependencies.\nIt works on Linux, macOS and Windows.\n\n## Install\n\nInstall it with pip.\n\n```\npip install tool\n```\n\n## Usage\n\nRun it on a file.\n\n```\ntool report.txt\n```\n\n## License\n\nMIT\n",
    }],
    refuseOk: true,
  },
  P05: { accept: [], refuseOk: true },
  P06: {
    accept: [{
      "main.py": "import os\nimport sys\n\nprint(os.getcwd())\n",
      "util.py": "import os\nimport sys\n\n\ndef home():\n    return os.path.expanduser('~')\n",
    }],
    refuseOk: true,
  },
  P07: {
    accept: [{
      "calc.py":
        "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n",
    }],
    refuseOk: true,
  },
  P07b: {
    accept: [{
      "calc.py":
        "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n",
    }],
    refuseOk: true,
  },
  P08: {
    accept: [{
      "calc.py": "def add(a, b):\n    return a + b\n",
      "utils.py": "def double(x):\n    return 2 * x\n",
    }],
    refuseOk: true,
  },
  P09: { accept: [{ "config.py": "DEBUG = False\nPORT = 8080\n" }], refuseOk: false },
  P09b: { accept: [{ "calc.py": "def add(a, b):\n    return a + b\n" }], refuseOk: false },
  P10: { accept: [], refuseOk: true },
  P11: {
    accept: [{
      "doc.py":
        'def add(a, b):\n    """Add two numbers.\n\n    >>> add(1, 2)\n    3\n    """\n    return a + b\n',
    }],
    refuseOk: false,
  },
  P12: { accept: [{ "README.rst": "WordTool\n=========\n\nCounts words.\n" }], refuseOk: true },
  P13: {
    accept: [{
      "calc.py": "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n",
    }],
    refuseOk: false,
  },
  P14: { accept: [{ "utils.py": "def double(x):\n    return 2 * x\n" }], refuseOk: false },
  P15: { accept: [], refuseOk: true },
  P16: { accept: [{ "calc.py": "def add(a, b):\n    return a + b\n" }], refuseOk: true },
  P16b: { accept: [{ "a.json": '{"port": 8080}\n' }], refuseOk: true },
  P17: { accept: [{ "src/calc.py": "def add(a, b):\n    return a + b\n" }], refuseOk: true },
  P18: {
    accept: [{ "calc.py": "def add(a: int, b: int) -> int:\n    return a + b\n" }],
    refuseOk: true,
  },
  P19: {
    accept: [{
      "cfg.go":
        'package cfg\n\nfunc Name() string {\n\treturn "a"\n}\n\nconst Doc = `\nroot:\n  child: 1\n`\n',
    }],
    refuseOk: false,
  },
};

/** The probes file, or `null` when it is absent. */
export async function loadProbes(): Promise<Probe[] | null> {
  try {
    return JSON.parse(await Deno.readTextFile(join(SHARED, "probes.json")));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** A probe as a case, judged by {@linkcode PROBE_RESULTS}. */
export function probeCase(p: Probe): ScoreCase {
  const want = PROBE_RESULTS[p.id];
  if (!want) throw new Error(`probe ${p.id} has no expected result in PROBE_RESULTS`);
  return {
    corpus: "probes",
    name: p.id,
    files: p.files,
    allowed: p.allowed ?? Object.keys(p.files),
    spec: p.spec ?? "",
    reply: p.reply,
    accept: want.accept.map((a) => ({ ...p.files, ...a })),
    refuseOk: want.refuseOk,
  };
}

/** Every corpus that is there, by name (absent ones are left out). */
export async function loadAll(): Promise<Map<string, ScoreCase[]>> {
  const out = new Map<string, ScoreCase[]>();
  for (const name of ["real", "own"] as const) {
    const dir = corpusDir(name);
    if (dir) out.set(name, (await loadCorpus(dir)).map((c) => _fromOwn(name, c)));
  }
  for (
    const name of ["logs-a", "logs-b", "logs-c", "aider-tests", "probes-2", ...OWN_SHARED_FORMAT]
  ) {
    const cases = await _sharedCases(name);
    if (cases) out.set(name, cases);
  }
  const probes = await loadProbes();
  if (probes) out.set("probes", probes.map(probeCase));
  return out;
}

/** Runs one case the way implement_task judges a reply, and says how it ended. */
export async function scoreCase(c: ScoreCase): Promise<Scored> {
  const current = new Map(Object.entries(c.files));
  const shown = Object.values(c.files).filter((v): v is string => v !== null);
  const input = {
    spec: c.spec,
    files: c.allowed,
    symbolsOnly: c.symbolsOnly ?? [],
    current,
    fence: chooseFence(shown),
  };
  const judged = await validateOutcome(judgeReply(c.reply, input), input);
  const base = { corpus: c.corpus, name: c.name };
  if (judged.kind !== "edits") {
    const what = judged.kind === "question" ? judged.question : judged.problem;
    const noop = judged.kind === "unusable" && /leave every file exactly as it was/.test(what);
    if (c.refuseOk || (noop && c.noopOk)) {
      return { ...base, verdict: "refused-right", detail: what.slice(0, 200) };
    }
    return { ...base, verdict: "refused", detail: what.slice(0, 300) };
  }
  const after: Record<string, string | null> = { ...c.files };
  for (const [p, v] of judged.files) after[p] = v;
  const outside = [...judged.files.keys()].filter((p) =>
    !c.allowed.includes(p) && judged.files.get(p) !== c.files[p]
  );
  const ok = !outside.length &&
    c.accept.some((want) =>
      Object.keys({ ...want, ...after }).every((p) => (after[p] ?? null) === (want[p] ?? null))
    );
  if (ok) return { ...base, verdict: "applied-right", detail: "applied" };
  return {
    ...base,
    verdict: "applied-wrongly",
    detail: `changed ${judged.changed.join(", ")}: ${
      JSON.stringify(Object.fromEntries(judged.changed.map((p) => [p, after[p]]))).slice(0, 400)
    }`,
  };
}

const VERDICTS: Verdict[] = ["applied-right", "refused-right", "refused", "applied-wrongly"];

/** Scores every corpus that is there; prints one line per corpus and returns every outcome. */
export async function scoreAll(print: (line: string) => void): Promise<Scored[]> {
  const results: Scored[] = [];
  // "refused": refused though a careful human would apply it (a defect too, counted).
  print(`corpus        cases  applied-right  refused-right  refused  applied-wrongly`);
  for (const [name, cases] of await loadAll()) {
    const scored: Scored[] = [];
    for (const c of cases) scored.push(await scoreCase(c));
    results.push(...scored);
    const n = (v: Verdict) => String(scored.filter((s) => s.verdict === v).length);
    print(
      `${name.padEnd(13)} ${String(cases.length).padStart(5)}  ${n(VERDICTS[0]).padStart(13)}  ${
        n(VERDICTS[1]).padStart(13)
      }  ${n(VERDICTS[2]).padStart(7)}  ${n(VERDICTS[3]).padStart(15)}`,
    );
  }
  return results;
}

async function _main(): Promise<void> {
  const results = await scoreAll(console.log);
  const list = Deno.args.includes("--list");
  for (const s of results) {
    if (
      list || s.verdict === "applied-wrongly" || (s.corpus === "probes" && s.verdict === "refused")
    ) {
      console.log(`${s.verdict.padEnd(15)} ${s.corpus}/${s.name}: ${s.detail.replace(/\n/g, "⏎")}`);
    }
  }
  const out = Deno.args.indexOf("--json");
  if (out >= 0) await Deno.writeTextFile(Deno.args[out + 1], JSON.stringify(results, null, 1));
  const base = Deno.args.indexOf("--baseline");
  if (base >= 0) {
    const before: Scored[] = JSON.parse(await Deno.readTextFile(Deno.args[base + 1]));
    const was = new Map(before.map((s) => [`${s.corpus}/${s.name}`, s.verdict]));
    for (const s of results) {
      const old = was.get(`${s.corpus}/${s.name}`);
      if (old && old !== s.verdict) {
        console.log(
          `CHANGED ${s.corpus}/${s.name}: ${old} -> ${s.verdict}: ${s.detail.slice(0, 200)}`,
        );
      }
    }
  }
}

if (import.meta.main) await _main();
