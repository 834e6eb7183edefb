/**
 * Tests written for the survivors of the second `deno task mutate --changed d9b33cd` run (merged
 * main; docs/MUTATION.md) in lib/providers: each fails with its mutant planted and passes on the
 * code.
 */
import assert from "node:assert/strict";
import { providerNamed, PROVIDERS } from "../../lib/providers/mod.ts";

// providers/mod.ts:20: `if (found) return found;` → `if (true) return found;`
Deno.test("providerNamed finds a provider of the table and refuses a name it lacks", () => {
  assert.equal(providerNamed("openai").name, "openai");
  assert.throws(
    () => providerNamed("anthropic"),
    (e: unknown) =>
      e instanceof RangeError &&
      /unknown provider "anthropic"; known: ollama, openai/.test(e.message),
  );
  assert.throws(() => providerNamed("ollama", PROVIDERS.slice(1)), RangeError);
});
