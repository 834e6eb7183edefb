/** A REPLACE part fitted to where its SEARCH part matched (lib/edit/fit_indent.ts). */
import assert from "node:assert/strict";
import { applyEdits } from "../../lib/edit/mod.ts";

function apply(file: string, search: string, replace: string): string {
  const out = applyEdits(new Map([["a.py", file]]), [
    { type: "replace", path: "a.py", search, replace },
  ], { allowed: ["a.py"] });
  assert.ok(out.ok, out.ok ? "" : out.error);
  return out.files.get("a.py")!;
}

const CART = "class Cart:\n    def total(self):\n        return 1\n";

Deno.test("a REPLACE written out of the class its exact SEARCH is in is put back in", () => {
  const out = apply(
    CART,
    "    def total(self):\n        return 1\n",
    "def total(self):\n    return 1\n\ndef count(self):\n    return 2\n",
  );
  assert.equal(
    out,
    "class Cart:\n    def total(self):\n        return 1\n\n    def count(self):\n        return 2\n",
  );
});

Deno.test("a REPLACE already at the file's indentation is not shifted with its SEARCH", () => {
  const out = apply(
    CART,
    "def total(self):\n    return 1\n",
    "    def total(self):\n        return 1\n\n    def count(self):\n        return 2\n",
  );
  assert.equal(
    out,
    "class Cart:\n    def total(self):\n        return 1\n\n    def count(self):\n        return 2\n",
  );
});

Deno.test("a shifted SEARCH still shifts a REPLACE written like it; other REPLACEs stay", () => {
  const shifted = apply(
    CART,
    "def total(self):\n    return 1\n",
    "def total(self):\n    return 3\n",
  );
  assert.equal(shifted, "class Cart:\n    def total(self):\n        return 3\n");
  // An exact SEARCH whose REPLACE starts with other lines is written as given.
  const wrapped = apply(
    "if a:\n    x = 1\n",
    "    x = 1\n",
    "    if b:\n        x = 1\n",
  );
  assert.equal(wrapped, "if a:\n    if b:\n        x = 1\n");
});
