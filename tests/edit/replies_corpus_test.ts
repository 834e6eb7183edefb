import assert from "node:assert/strict";
import {
  byShape,
  CORPORA,
  corpusDir,
  loadCorpus,
  type ReplyCase,
  runCase,
  summarize,
} from "../../scripts/bench_replies.ts";

const CASES = new Map<string, ReplyCase[]>();
for (const name of CORPORA) {
  const dir = corpusDir(name);
  if (dir) CASES.set(name, await loadCorpus(dir));
}

Deno.test({
  name: "the real reply corpus is there (LOCALEXEC_REAL_REPLIES or shared/replies/real/)",
  ignore: !CASES.has("real"),
  fn: () => assert.ok(CASES.get("real")!.length >= 40),
});

Deno.test("reply corpora hold at least 40 cases each, of both forms", () => {
  assert.ok(CASES.has("own"), "the own corpus (tests/replies/own/) is missing");
  for (const [name, cases] of CASES) {
    const s = summarize(cases.map(runCase));
    assert.ok(cases.length >= 40, `${name}: only ${cases.length} cases`);
    assert.ok(s.wellFormed >= 15 && s.malformed >= 15, `${name}: ${JSON.stringify(s)}`);
  }
});

Deno.test({
  name: "every real reply names its source, model, shape and the task's words",
  ignore: !CASES.has("real"),
  fn() {
    const real = CASES.get("real")!;
    assert.ok(real.length >= 40, `only ${real.length} real cases`);
    for (const c of real) {
      const raw = c as ReplyCase & { source?: { repo?: string; path?: string } };
      assert.ok(raw.source?.repo && raw.source.path, `${c.name}: no source`);
      assert.ok(
        c.model && c.shape && c.spec !== undefined,
        `${c.name}: model, shape or spec missing`,
      );
    }
  },
});

for (const [name, cases] of CASES) {
  for (const c of cases) {
    Deno.test(`reply corpus ${name}/${c.name}: ${c.title}`, () => {
      const outcome = runCase(c);
      assert.ok(outcome.pass, outcome.detail);
      assert.equal(outcome.wrong, false);
    });
  }
}

Deno.test("reply corpora meet the benchmark targets, in every shape", () => {
  for (const [name, cases] of CASES) {
    const outcomes = cases.map(runCase);
    for (const [shape, s] of [["all", summarize(outcomes)] as const, ...byShape(outcomes)]) {
      const where = `${name} ${shape}: ${JSON.stringify(s)}`;
      assert.equal(s.appliedCorrectly, s.wellFormed, where);
      assert.equal(s.rejectedCorrectly, s.malformed, where);
      assert.equal(s.appliedWrongly, 0, where);
      assert.equal(s.wronglyRejected, 0, where);
    }
  }
});

Deno.test("reply corpus runner catches a wrong result, a vague message and a wrong refusal", () => {
  const base: ReplyCase = {
    name: "probe",
    title: "probe",
    form: "well-formed",
    files: { "a.py": ["x = 1"] },
    reply: ["a.py", "<<<<<<< SEARCH", "x = 1", "=======", "x = 2", ">>>>>>> REPLACE"],
    expect: { files: { "a.py": ["x = 3"] } },
  };
  const wrong = runCase(base);
  assert.equal(wrong.pass, false);
  assert.equal(wrong.wrong, true);
  const applied = runCase({ ...base, form: "malformed", expect: { reject: ["x"] } });
  assert.equal(applied.wrong, true);
  const vague = runCase({
    ...base,
    form: "malformed",
    reply: ["a.py", "<<<<<<< SEARCH", "x = 1"],
    expect: { reject: ["no such words"] },
  });
  assert.equal(vague.pass, false);
  assert.equal(vague.wrong, false);
  const refused = runCase({ ...base, reply: ["a.py", "<<<<<<< SEARCH", "x = 1"] });
  assert.equal(refused.pass, false);
  assert.equal(refused.wronglyRejected, true);
  const right = runCase({ ...base, expect: { files: { "a.py": ["x = 2"] } } });
  assert.equal(right.pass, true);
  assert.equal(right.wronglyRejected, false);
});

Deno.test("reply corpus runner passes the task's words to the destructive-edit guard", () => {
  const base: ReplyCase = {
    name: "probe",
    title: "probe",
    form: "malformed",
    files: { "a.py": ["a = 1", "b = 2", "c = 3", "d = 4"] },
    reply: ["a.py", "```", "a = 1", "```"],
    expect: { reject: ["a.py", "remove"] },
  };
  assert.equal(runCase(base).pass, true);
  const asked = runCase({
    ...base,
    form: "well-formed",
    spec: "Remove b, c and d.",
    expect: { files: { "a.py": ["a = 1"] } },
  });
  assert.equal(asked.pass, true, asked.detail);
});
