import assert from "node:assert/strict";
import test from "node:test";
import { chunk } from "./chunk.mjs";

test("keeps the last, shorter chunk", () => {
  assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
  assert.deepEqual(chunk(["a"], 3), [["a"]]);
});

test("exact multiples and empty input", () => {
  assert.deepEqual(chunk([1, 2, 3, 4], 2), [[1, 2], [3, 4]]);
  assert.deepEqual(chunk([], 3), []);
});

test("bad sizes", () => {
  assert.throws(() => chunk([1], 0), RangeError);
  assert.throws(() => chunk([1], 1.5), RangeError);
});
