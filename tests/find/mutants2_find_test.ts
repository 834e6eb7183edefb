/**
 * Tests written for the survivors of the second `deno task mutate --changed d9b33cd` run (merged
 * main; docs/MUTATION.md) in lib/find: each fails with its mutant planted and passes on the code.
 */
import { releaseIdle } from "../../lib/find/mod.ts";

// find/mod.ts:49: `if (!_engine) return;` → `if (false) return;`
Deno.test("releaseIdle before any find has run does nothing and does not throw", async () => {
  await releaseIdle();
  await releaseIdle();
});
