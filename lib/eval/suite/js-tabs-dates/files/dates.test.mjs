import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import { daysInMonth, isLeapYear } from "./dates.mjs";

test("leap years", () => {
  assert.equal(isLeapYear(2024), true);
  assert.equal(isLeapYear(1900), false);
  assert.equal(isLeapYear(2000), true);
  assert.equal(isLeapYear(2023), false);
});

test("days in month", () => {
  assert.equal(daysInMonth(2000, 2), 29);
  assert.equal(daysInMonth(2023, 2), 28);
  assert.equal(daysInMonth(2023, 12), 31);
  assert.throws(() => daysInMonth(2023, 13), RangeError);
  assert.throws(() => daysInMonth(2023, 0), RangeError);
});

test("dates.mjs is still indented with tabs", () => {
  const lines = readFileSync(new URL("./dates.mjs", import.meta.url), "utf8").split("\n");
  assert.deepEqual(lines.filter((l) => l.startsWith(" ")), []);
});
