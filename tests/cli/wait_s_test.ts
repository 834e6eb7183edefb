/** `--wait-s` on the command line, and the default `wait_s` a client's name picks. */
import assert from "node:assert/strict";
import { parseCli } from "../../lib/cli/mod.ts";
import { clientWaitS } from "../../lib/mcp/mod.ts";

Deno.test("cli --wait-s takes seconds and names itself on bad input", () => {
  assert.equal(parseCli(["--wait-s", "1.5"], "/tmp").waitS, 1.5);
  assert.equal(parseCli(["--wait-s=0"], "/tmp").waitS, 0);
  assert.equal(parseCli([], "/tmp").waitS, undefined);
  assert.throws(() => parseCli(["--wait-s", "soon"], "/tmp"), /--wait-s takes seconds/);
  assert.throws(() => parseCli(["--wait-s=-3"], "/tmp"), /--wait-s must be 0 or more seconds/);
  // (main: "--wait-s needs a value": parseArgs took -1 for an option)
  assert.throws(() => parseCli(["--wait-s", "-1"], "/tmp"), /--wait-s must be 0 or more seconds/);
  assert.throws(() => parseCli(["call", "status", "--wait-s", "-1"], "/tmp"), /must be 0 or more/);
});

Deno.test("a Codex client gets a wait_s under its 300 s cap; the others wait for the verdict", () => {
  const codex = clientWaitS("codex-mcp-client");
  assert.ok(codex !== undefined && codex < 300);
  assert.equal(clientWaitS("claude-code"), undefined);
  assert.equal(clientWaitS("opencode"), undefined);
  assert.equal(clientWaitS(undefined), undefined);
});
