import assert from "node:assert/strict";
import test from "node:test";
import { LRUCache } from "./lru.mjs";

test("evicts the least recently used entry", () => {
  const cache = new LRUCache(2);
  cache.set("a", 1).set("b", 2);
  assert.equal(cache.get("a"), 1); // "a" is now the most recent
  cache.set("c", 3);
  assert.equal(cache.get("b"), undefined);
  assert.equal(cache.get("a"), 1);
  assert.equal(cache.get("c"), 3);
  assert.equal(cache.size, 2);
});

test("setting an existing key refreshes it without growing", () => {
  const cache = new LRUCache(2);
  cache.set("a", 1);
  cache.set("b", 2);
  cache.set("a", 10);
  cache.set("c", 3);
  assert.equal(cache.size, 2);
  assert.equal(cache.get("a"), 10);
  assert.equal(cache.get("b"), undefined);
});

test("stored undefined and bad capacities", () => {
  const cache = new LRUCache(1);
  cache.set("x", undefined);
  assert.equal(cache.size, 1);
  assert.throws(() => new LRUCache(0), RangeError);
});
