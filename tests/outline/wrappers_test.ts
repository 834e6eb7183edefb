import assert from "node:assert/strict";
import { outlineSource } from "../../lib/outline/mod.ts";

const WRAPPED = `;(function () {
  var VERSION = "1.0";
  function helper(a) { return a; }
  var runInContext = (function runInContext(context) {
    function baseEach(xs) { return xs; }
    return baseEach;
  });
}.call(this));
(function (root, factory) {
  if (typeof define === "function" && define.amd) define(["exports"], factory);
  else factory(root.lib = {});
})(this, function (exports) {
  function umdInner() {}
  exports.run = function run(x) { return x; };
});
define(["dep"], function (dep) {
  function amdOne() {}
  return { amdOne };
});
!function () { function bang() {} }();
module.exports = {
  alpha: function () {},
  beta() {},
  gamma: () => 1,
  notFn: 3,
};
Foo.prototype.bar = function (x) {};
var mod = (function () { function inner() {} return { inner }; })();
`;

Deno.test("outline looks through IIFE, UMD, AMD, module-pattern and CommonJS wrappers", async () => {
  const { items } = await outlineSource("javascript", WRAPPED);
  assert.deepEqual(items.map((i) => `${i.kind} ${i.name}`), [
    "function helper",
    "function runInContext",
    "function runInContext.baseEach",
    "function umdInner",
    "function run",
    "function amdOne",
    "function bang",
    "function alpha",
    "function beta",
    "function gamma",
    "method Foo.bar",
    "module mod",
    "function mod.inner",
  ]);
});

Deno.test("outline does not enter a call that is no wrapper", async () => {
  const source = `describe("x", function () {\n  function notListed() {}\n});\nfoo(() => 1);\n`;
  const { items } = await outlineSource("javascript", source);
  assert.deepEqual(items, []);
});
