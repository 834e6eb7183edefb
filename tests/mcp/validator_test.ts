/**
 * The server's JSON Schema validator is the SDK's own (Ajv), made on first use instead of at every
 * start: it validates as the SDK's does.
 */
import assert from "node:assert/strict";
import { LazyValidator } from "../../lib/mcp/server.ts";

Deno.test("the server's validator, made on first use, validates as the SDK's Ajv does", () => {
  const check = new LazyValidator().getValidator<{ n: number }>({
    type: "object",
    properties: { n: { type: "integer", minimum: 1 } },
    required: ["n"],
  });
  assert.deepEqual(check({ n: 2 }), { valid: true, data: { n: 2 }, errorMessage: undefined });
  const bad = check({ n: 0 });
  assert.equal(bad.valid, false);
  assert.match(String(bad.errorMessage), /must be >= 1/);
});
