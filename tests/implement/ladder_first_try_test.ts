/**
 * `status.record`'s `first_try` over records as the ladder writes them: a task counts only when it
 * passed on the first attempt of the first model asked, so one whose earlier rung was skipped (its
 * host could not be used: 0 attempts, listed in `tried`) does not, even with one attempt in all.
 */
import assert from "node:assert/strict";
import { recordRows } from "../../lib/tasks/mod.ts";

const BASE = { status: "passed", files: ["calc.py"], model: "big-coder-32b", secs: 3 };

Deno.test("record: first_try leaves out a task whose earlier rung was skipped", () => {
  const rows = recordRows([
    { ...BASE, attempts: 1 },
    {
      ...BASE,
      attempts: 1,
      tried: [
        { model: "small-coder:1b", attempts: 0, status: "error" },
        { model: "big-coder-32b", attempts: 1, status: "passed" },
      ],
    },
  ]);
  assert.equal(rows.length, 1);
  assert.deepEqual([rows[0].tasks, rows[0].passed, rows[0].first_try], [2, 2, 1]);
});
