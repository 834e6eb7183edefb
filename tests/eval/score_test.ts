/**
 * eval's figures from outcomes: medians, the recommendation, refused replies (from a record's
 * history or from the log), attempts over a ladder's rungs.
 */
import assert from "node:assert/strict";
import {
  countRefused,
  median,
  recommend,
  type TaskOutcome,
  totalAttempts,
} from "../../lib/eval/mod.ts";

function outcome(kind: string, passed: boolean, attempts: number): TaskOutcome {
  return {
    task: `t-${kind}-${attempts}`,
    language: "python",
    kind,
    model: "m",
    status: passed ? "passed" : "failed",
    passed,
    attempts,
    first_try: passed && attempts === 1,
    seconds: 1,
    prompt_tokens: 10,
    reply_tokens: 5,
    refused: 0,
    why: passed ? "all checks passed" : "check t still fails after 3 attempts",
    verdict: {},
  };
}

Deno.test("median of odd and even counts, none", () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([]), null);
});

Deno.test("the recommendation names the kinds passed every time and the others", () => {
  assert.equal(
    recommend([outcome("bug fix", true, 1), outcome("tabs", true, 1)]),
    "delegate any of these steps: bug fixes and tab-indented files",
  );
  assert.equal(
    recommend([
      outcome("bug fix", true, 1),
      outcome("symbols", true, 1),
      outcome("symbols", false, 3),
      outcome("my own kind", false, 3),
    ]),
    "delegate bug fixes; keep edits inside large files (symbols) and my own kind for yourself",
  );
  assert.equal(
    recommend([outcome("bug fix", true, 3), outcome("bug fix", false, 3)]),
    "delegate with care: it passed 1 of 2 tasks and no kind of step every time; keep bug fixes " +
      "for yourself; expect retries",
  );
  assert.equal(
    recommend([outcome("bug fix", false, 3)]),
    "do not delegate to this model: it passed no task",
  );
});

Deno.test("refused replies: the record's history when it has one, else the log", () => {
  const log = "--- attempt 1: reply not applied: no edits\n--- attempt 2 reply\n" +
    "--- attempt 2: reply not applied: SEARCH did not match\n";
  assert.equal(countRefused(undefined, log), 2);
  const history = [
    { decision: "refused (no-match): SEARCH did not match" },
    { decision: "applied" },
    { decision: "question" },
  ];
  assert.equal(countRefused({ history }, log), 1);
});

Deno.test("attempts over a ladder's rungs", () => {
  assert.equal(totalAttempts({ attempts: 2 }), 2);
  const tried = [{ model: "a", attempts: 2, status: "failed" }, {
    model: "b",
    attempts: 1,
    status: "passed",
  }];
  assert.equal(totalAttempts({ attempts: 1, tried }), 3);
  assert.equal(totalAttempts({}), undefined);
});
