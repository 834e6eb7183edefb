/**
 * scripts/smoke.ts, the release binaries' smoke test, passes against the `deno run` form of every
 * preset with exactly the flags a binary gets (and once with read permission on the root only), and
 * fails when a check fails.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const SMOKE = fileURLToPath(new URL("../../scripts/smoke.ts", import.meta.url));

async function _smoke(...targets: string[]): Promise<{ code: number; text: string }> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "-A", SMOKE, ...targets],
    env: { NO_COLOR: "1" },
    stdout: "null",
  }).output();
  return { code, text: new TextDecoder().decode(stderr) };
}

Deno.test("smoke.ts passes against the deno run form of every preset", async () => {
  const { code, text } = await _smoke("deno:read", "deno:edit", "deno:full");
  assert.equal(code, 0, text);
  assert.match(text, /all checks passed/);
  for (const preset of ["read", "edit", "full"]) {
    assert.match(text, new RegExp(`ok {3}deno:${preset}: tools/list = the ${preset} preset's`));
    assert.match(text, new RegExp(`ok {3}deno:${preset} \\(read on the root only\\): find`));
  }
  assert.match(text, /ok {3}deno:full: outline a\.sh/);
});

Deno.test("smoke.ts fails on an executable that is not localexec", async () => {
  const { code, text } = await _smoke("/bin/true");
  assert.equal(code, 1);
  assert.match(text, /FAIL true: --version/);
});
