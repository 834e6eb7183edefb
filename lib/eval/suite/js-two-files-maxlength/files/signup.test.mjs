import assert from "node:assert/strict";
import test from "node:test";
import { checkSignup } from "./signup.mjs";
import { maxLength } from "./validate.mjs";

const ok = { email: "a@example.com", password: "correct horse", username: "bob" };

test("a good signup has no errors", () => {
  assert.deepEqual(checkSignup(ok), {});
});

test("username is required and at most 20 characters", () => {
  assert.deepEqual(checkSignup({ ...ok, username: "" }), { username: "is required" });
  assert.deepEqual(checkSignup({ ...ok, username: "x".repeat(21) }), {
    username: "must be at most 20 characters",
  });
  assert.deepEqual(checkSignup({ ...ok, username: "x".repeat(20) }), {});
});

test("password between 8 and 64 characters", () => {
  assert.deepEqual(checkSignup({ ...ok, password: "short" }), {
    password: "must be at least 8 characters",
  });
  assert.deepEqual(checkSignup({ ...ok, password: "p".repeat(65) }), {
    password: "must be at most 64 characters",
  });
});

test("maxLength ignores what is not a string", () => {
  assert.equal(maxLength(2)(12345), null);
  assert.equal(maxLength(2)("ab"), null);
});
