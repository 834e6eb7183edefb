import assert from "node:assert/strict";
import test from "node:test";
import { groupBy, unique } from "./collections.mjs";

test("groups in first-seen key order, items in input order", () => {
  const groups = groupBy(["apple", "bean", "avocado", "cherry", "berry"], (w) => w[0]);
  assert.deepEqual([...groups.keys()], ["a", "b", "c"]);
  assert.deepEqual(groups.get("a"), ["apple", "avocado"]);
  assert.deepEqual(groups.get("b"), ["bean", "berry"]);
});

test("keyOf gets the index and is called once per item", () => {
  const calls = [];
  const groups = groupBy([10, 20, 30], (n, i) => (calls.push(i), i % 2));
  assert.deepEqual(calls, [0, 1, 2]);
  assert.deepEqual(groups.get(0), [10, 30]);
});

test("empty input and a bad keyOf", () => {
  assert.equal(groupBy([], (x) => x).size, 0);
  assert.throws(() => groupBy([1], "length"), TypeError);
});

test("unique is unchanged", () => {
  assert.deepEqual(unique([1, 1, 2]), [1, 2]);
});
