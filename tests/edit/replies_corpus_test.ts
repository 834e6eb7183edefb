import assert from "node:assert/strict";
import { loadCorpus, type ReplyCase, runCase, summarize } from "../../scripts/bench_replies.ts";

const DIR = new URL("../replies/", import.meta.url).pathname;
const CASES = await loadCorpus(DIR);

Deno.test("reply corpus holds at least 40 cases of both forms", () => {
  const s = summarize(CASES.map(runCase));
  assert.ok(CASES.length >= 40, `only ${CASES.length} cases`);
  assert.ok(s.wellFormed >= 20 && s.malformed >= 20, JSON.stringify(s));
});

for (const c of CASES) {
  Deno.test(`reply corpus ${c.name}: ${c.title}`, () => {
    const outcome = runCase(c);
    assert.ok(outcome.pass, outcome.detail);
    assert.equal(outcome.wrong, false);
  });
}

Deno.test("reply corpus meets the benchmark targets", () => {
  const s = summarize(CASES.map(runCase));
  assert.equal(s.appliedCorrectly, s.wellFormed);
  assert.equal(s.rejectedUsefully, s.malformed);
  assert.equal(s.appliedWrongly, 0);
});

Deno.test("reply corpus runner catches a wrong result and a vague message", () => {
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
  const right = runCase({ ...base, expect: { files: { "a.py": ["x = 2"] } } });
  assert.equal(right.pass, true);
});
