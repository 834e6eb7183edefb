/**
 * Malformed JSON-RPC: every line that carries an id gets an answer (a JSON-RPC error where the
 * line is not a valid request), and the server keeps serving.
 */
import assert from "node:assert/strict";
import { INIT, rawMessages } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";
import { figures } from "./suite.ts";

/** Malformed lines and the id each must be answered with (null: the id could not be used). */
const CASES: [string, number | string | null][] = [
  ['{"jsonrpc":"2.0","id":7}', 7],
  ['{"jsonrpc":"2.0","id":8,"method":null}', 8],
  ['{"jsonrpc":"2.0","id":9,"method":123}', 9],
  ['{"jsonrpc":"2.0","id":"s10","method":["ping"]}', "s10"],
  ['[{"jsonrpc":"2.0","id":12,"method":"ping"}]', 12],
  ['[{"jsonrpc":"2.0","id":13,"method":"ping"},{"jsonrpc":"2.0","id":14}]', 14],
  ["[]", null],
  ['{"jsonrpc":"1.0","id":15,"method":"ping"}', 15],
  ['{"id":16,"method":"ping"}', 16],
  ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', null],
  ['{"jsonrpc":"2.0","id":17,"method":"ping","params":5}', 17],
  ['{"jsonrpc":"2.0","id":18,"method":"tools/call","params":null}', 18],
  ['{"jsonrpc":"2.0","id":19,"method":"ping"', 19],
  ['{"jsonrpc":"2.0","id":20,"method":"no/such"}', 20],
];

Deno.test("faults every malformed JSON-RPC line with an id is answered", async () => {
  const root = await tempProject();
  const last = '{"jsonrpc":"2.0","id":99,"method":"ping"}';
  const messages = await rawMessages(root, [INIT, ...CASES.map(([line]) => line), last]);
  const unanswered = CASES.filter(([, id]) =>
    !messages.some((m) => m.id === id && (m.error || m.result))
  );
  figures("malformed JSON-RPC lines", {
    lines: CASES.length,
    answered: CASES.length - unanswered.length,
    unanswered: unanswered.map(([line]) => line),
  });
  assert.deepEqual(unanswered, []);
  const ids13 = messages.filter((m) => m.id === 13);
  assert.equal(ids13.length, 1, "each request of a batch is answered once");
  assert.ok(messages.some((m) => m.id === 99 && m.result), "the server still serves");
  await Deno.remove(root, { recursive: true });
});
