/**
 * Tests written for the survivors of the second `deno task mutate --changed d9b33cd` run (merged
 * main; docs/MUTATION.md) in lib/providers and lib/model: each fails with its mutant planted and passes on the
 * code.
 */
import assert from "node:assert/strict";
import { ModelError, type ModelHost, ModelPool } from "../../lib/model/mod.ts";
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

/** A host that answers from `chat`, and reports and describes nothing. */
function _host(url: string, chat: ModelHost["chat"]): ModelHost {
  return {
    url,
    chat,
    facts: () => Promise.reject(new Error("not used")),
    report: () => Promise.reject(new Error("not used")),
  };
}

// model/pool.ts:140: `… || !err.hostDown || req.signal?.aborted) throw err;` → without the cancel
Deno.test("model pool does not move a cancelled chat to another host, even when its host dropped", async () => {
  const ctl = new AbortController();
  const moved: string[] = [];
  const a = _host("http://a.invalid", () => {
    ctl.abort(); // the caller cancels, and the host drops as it goes
    return Promise.reject(new ModelError("unreachable", "host a went away"));
  });
  const b = _host("http://b.invalid", () => {
    moved.push("b");
    return Promise.resolve({ content: "from b" } as Awaited<ReturnType<ModelHost["chat"]>>);
  });
  const p = new ModelPool([a, b]);
  const notices: string[] = [];
  await assert.rejects(
    p.chat({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      contextLength: 8192,
      maxTokens: 64,
      temperature: 0,
      signal: ctl.signal,
    }, { notice: (m) => notices.push(m) }),
    /host a went away/,
  );
  assert.deepEqual([moved, notices], [[], []]);
});
