/**
 * Tests written for the survivors of the second `deno task mutate --changed d9b33cd` run (merged
 * main; docs/MUTATION.md) in lib/openai: each fails with its mutant planted and passes on the code.
 */
import assert from "node:assert/strict";
import { createOpenAIHost } from "../../lib/openai/mod.ts";

// openai/chat.ts:124: `if (!events) throw badResponseError(…, "empty answer");` → `if (false) …`
Deno.test("openai chat calls a stream with no event at all an empty answer", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("", { headers: { "content-type": "text/event-stream" } }),
  );
  try {
    const host = createOpenAIHost(`http://127.0.0.1:${server.addr.port}/v1`);
    await assert.rejects(
      host.chat({
        model: "m",
        messages: [{ role: "user", content: "hi" }],
        contextLength: 8192,
        maxTokens: 64,
        temperature: 0,
      }),
      /empty answer/,
    );
  } finally {
    await server.shutdown();
  }
});
