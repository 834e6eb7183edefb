/**
 * Tests written for the survivors of `deno task mutate --changed d9b33cd` in lib/cli (the
 * machine-made mutants; docs/MUTATION.md, "Mutants made by machine"): each fails with its mutant
 * planted and passes on the code.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { callExitCode } from "../../lib/cli/call.ts";
import { configFile } from "../../lib/cli/root.ts";

// root.ts: `if (!info.isFile) throw …` → `if (true) throw …`
Deno.test("--config naming a file is taken, naming a folder is refused", async () => {
  const root = await Deno.makeTempDir({ prefix: "mutants_cli_" });
  try {
    const file = join(root, "conf.json");
    await Deno.writeTextFile(file, "{}\n");
    assert.equal(configFile(file, root, ".localexec.json"), file);
    assert.equal(configFile(undefined, root, ".localexec.json"), join(root, ".localexec.json"));
    assert.throws(() => configFile(root, root, ".localexec.json"), /not a file/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

// call.ts: `if (isError) return 2;` → `if (false) return 2;`
Deno.test("call exits 2 for an answer flagged isError, whatever its text", () => {
  assert.equal(callExitCode("MCP error -32602: unknown tool", true), 2);
  assert.equal(callExitCode('{"status":"ok"}', true), 2);
  assert.equal(callExitCode('{"status":"ok"}'), 0);
});
