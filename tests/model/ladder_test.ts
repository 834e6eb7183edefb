/**
 * The model ladder of `.localexec.json`: rungs inherit the top-level settings they do not set,
 * a config without `ladder` is its one model, and every problem names the rung and the key.
 */
import { PROVIDERS } from "../../lib/providers/mod.ts";
import assert from "node:assert/strict";
import { parseConfig } from "../../lib/config.ts";
import { LadderError, readLadder, startRung } from "../../lib/model/mod.ts";

function rungs(data: Record<string, unknown>) {
  return readLadder(parseConfig(data, "cfg", PROVIDERS), PROVIDERS);
}

function problem(data: Record<string, unknown>): string {
  try {
    rungs(data);
  } catch (err) {
    assert.ok(err instanceof LadderError, String(err));
    return err.message;
  }
  throw new Error(`no problem found in ${JSON.stringify(data)}`);
}

Deno.test("ladder: without one, the top-level model is the one rung, as before", () => {
  assert.deepEqual(rungs({ model: "m", ollama_host: "gpu:11434", num_ctx: 8192 }), [{
    model: "m",
    provider: "ollama",
    hosts: ["http://gpu:11434"],
    num_ctx: 8192,
    max_attempts: 3,
  }]);
  assert.deepEqual(rungs({}), []);
  assert.deepEqual(parseConfig({ model: "m" }, "cfg", PROVIDERS).warnings, []);
});

Deno.test("ladder: rungs inherit every top-level setting they do not set", () => {
  const list = rungs({
    ollama_host: ["a:11434", "b:11434"],
    max_attempts: 2,
    temperature: 0.3,
    num_ctx: 16384,
    ladder: [
      { model: "small" },
      { model: "mid", ollama_host: "gpu:11434", max_attempts: 4, num_ctx: 32768 },
      {
        model: "big",
        provider: "openai",
        base_url: "http://gpu:8080",
        api_key_env: "GPU_KEY",
        context_length: 65536,
        temperature: 0,
      },
    ],
  });
  assert.deepEqual(list, [
    {
      model: "small",
      provider: "ollama",
      hosts: ["http://a:11434", "http://b:11434"],
      num_ctx: 16384,
      max_attempts: 2,
      temperature: 0.3,
    },
    {
      model: "mid",
      provider: "ollama",
      hosts: ["http://gpu:11434"],
      num_ctx: 32768,
      max_attempts: 4,
      temperature: 0.3,
    },
    {
      model: "big",
      provider: "openai",
      hosts: ["http://gpu:8080/v1"],
      api_key_env: "GPU_KEY",
      context_length: 65536,
      max_attempts: 2,
      temperature: 0,
    },
  ]);
  // An OpenAI-compatible top level lends its servers and key to a rung of the same provider.
  const openai = rungs({
    provider: "openai",
    base_url: "http://h:8080/v1",
    api_key_env: "K",
    context_length: 8192,
    ladder: [{ model: "a" }, { model: "b", provider: "ollama" }],
  });
  assert.deepEqual(openai[0].hosts, ["http://h:8080/v1"]);
  assert.equal(openai[0].api_key_env, "K");
  assert.equal(openai[0].context_length, 8192);
  assert.equal(openai[1].provider, "ollama");
  assert.deepEqual(openai[1].hosts, ["http://127.0.0.1:11434"]);
  assert.equal(openai[1].api_key_env, undefined);
  assert.equal(openai[1].context_length, undefined);
});

Deno.test("ladder: bad input is refused naming the rung and the key", () => {
  assert.equal(
    problem({ ladder: [] }),
    "ladder: the list must not be empty (leave it out for one model)",
  );
  assert.match(problem({ ladder: { model: "m" } }), /^ladder: expected a list of rungs/);
  assert.equal(
    problem({ ladder: [{ model: "a" }, {}] }),
    "ladder.1.model: missing: every rung names its model",
  );
  assert.equal(
    problem({ ladder: ["a"] }),
    'ladder.0: expected an object such as {"model": "..."}, got string',
  );
  assert.match(
    problem({ ladder: [{ model: "a", base_url: "http://h:8080" }] }),
    /^ladder\.0\.base_url: only used with provider "openai"/,
  );
  assert.match(
    problem({ ladder: [{ model: "a", provider: "openai", base_url: "h:1", num_ctx: 4096 }] }),
    /^ladder\.0\.num_ctx: only used with provider "ollama"/,
  );
  assert.match(
    problem({ ladder: [{ model: "a", provider: "openai" }] }),
    /^ladder\.0\.base_url: required with provider "openai"/,
  );
  assert.match(
    problem({ ladder: [{ model: "a", max_attempts: 0 }] }),
    /^ladder\.0\.max_attempts: must be between 1 and 10/,
  );
  assert.match(
    problem({ ladder: [{ model: "a", temperature: "hot" }] }),
    /^ladder\.0\.temperature: expected a number/,
  );
  assert.match(
    problem({ ladder: [{ model: "a", modle: "b" }] }),
    /^ladder\.0\.modle: unknown key \(did you mean "model"\?\)/,
  );
  assert.equal(
    problem({ ladder: [{ model: "a" }, { model: "a" }] }),
    'ladder.1.model: "a" is already rung 0',
  );
});

Deno.test("ladder: a task starts at the rung of its model, or is told the rungs", () => {
  const list = rungs({ ladder: [{ model: "a" }, { model: "b" }] });
  assert.equal(startRung(list, undefined), 0);
  assert.equal(startRung(list, "b"), 1);
  assert.throws(
    () => startRung(list, "c"),
    /model "c" is not on the ladder; its rungs are "a", "b"/,
  );
  assert.throws(
    () => startRung(rungs({ model: "m" }), "c"),
    /model "c" is not on the ladder; the one model is "m"/,
  );
});

Deno.test("ladder: parallel from the rung, else the top level, per host or for every host", () => {
  const top = rungs({ model: "m", ollama_host: ["a:11434", "b:11434"], parallel: 2 });
  assert.deepEqual(top[0].capacity, [2, 2]);
  assert.equal(rungs({ model: "m" })[0].capacity, undefined, "1 each: nothing kept");
  const list = rungs({
    ollama_host: ["a:11434", "b:11434"],
    parallel: { "b": 3 },
    ladder: [
      { model: "small" },
      { model: "big", parallel: { "http://a:11434": 4 } },
      { model: "api", provider: "openai", base_url: "gpu:8000", parallel: 2 },
    ],
  });
  assert.deepEqual(list.map((r) => r.capacity), [[1, 3], [4, 3], [2]]);
});

Deno.test("ladder: a bad parallel names the rung, the key and the host", () => {
  assert.match(
    problem({ model: "m", ollama_host: "a:11434", parallel: { "elsewhere:11434": 2 } }),
    /^parallel\.elsewhere:11434: not one of the model hosts \(http:\/\/a:11434\)/,
  );
  assert.match(
    problem({ ladder: [{ model: "m", ollama_host: "a", parallel: { b: 2 } }] }),
    /^ladder\.0\.parallel\.b: not one of this rung's hosts \(http:\/\/a:11434\)/,
  );
  assert.match(
    problem({ ladder: [{ model: "m", parallel: 0 }] }),
    /^ladder\.0\.parallel: expected a whole number of chats at once from 1 to 64, got 0/,
  );
});

Deno.test("ladder: at most 16 rungs; more is refused naming ladder and the limit", () => {
  const ladder = (n: number) => Array.from({ length: n }, (_, i) => ({ model: `m${i}` }));
  assert.equal(rungs({ ladder: ladder(16) }).length, 16);
  assert.equal(problem({ ladder: ladder(17) }), "ladder: at most 16 rungs, got 17");
  assert.equal(problem({ ladder: ladder(10_000) }), "ladder: at most 16 rungs, got 10000");
  // Refused before any rung is read (a bad rung is not what it reports).
  assert.equal(problem({ ladder: [...ladder(16), {}] }), "ladder: at most 16 rungs, got 17");
});

Deno.test("ladder: a timeout on a rung is refused: the timeouts are the top level's", () => {
  assert.equal(
    problem({ ladder: [{ model: "a" }, { model: "b", first_token_timeout_s: 900 }] }),
    "ladder.1.first_token_timeout_s: set it at the top level: the timeouts apply to every rung",
  );
  assert.match(
    problem({ ladder: [{ model: "a", request_timeout_s: 900 }] }),
    /^ladder\.0\.request_timeout_s: set it at the top level/,
  );
});

Deno.test("ladder: a rung's own parallel wins over the top level's for the same host", () => {
  const list = rungs({
    ollama_host: ["a:11434", "b:11434"],
    parallel: { "b:11434": 3 },
    ladder: [{ model: "small" }, { model: "big", parallel: { "http://b:11434": 5 } }],
  });
  assert.deepEqual(list.map((r) => r.capacity), [[1, 3], [1, 5]]);
  const every = rungs({ model: "m", parallel: 2, ladder: [{ model: "m", parallel: 4 }] });
  assert.deepEqual(every[0].capacity, [4]);
});

Deno.test("ladder: asking for the first rung's model by name starts there", () => {
  const list = rungs({ ladder: [{ model: "a" }, { model: "b" }] });
  assert.equal(startRung(list, "a"), 0);
  assert.equal(startRung(rungs({ model: "m" }), "m"), 0);
});
