/**
 * Tests written for the survivors of `deno task mutate --changed d9b33cd` in lib/edit/reasoning.ts
 * (the machine-made mutants; docs/MUTATION.md, "Mutants made by machine"): each fails with its
 * mutant planted and passes on the code.
 */
import assert from "node:assert/strict";
import { harmonyAnswer } from "../../lib/edit/reasoning.ts";

// reasoning.ts: `dropped: kept !== text` → `dropped: kept === text`
Deno.test("harmonyAnswer says whether it dropped a reasoning channel", () => {
  assert.deepEqual(
    harmonyAnswer("<|channel|>analysis<|message|>thinking<|end|>the answer"),
    { text: "the answer", dropped: true },
  );
  // a lone constrain token is no channel: nothing dropped, the text as it was
  const text = "a <|constrain|> b";
  assert.deepEqual(harmonyAnswer(text), { text, dropped: false });
});
