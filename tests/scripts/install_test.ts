/**
 * `deno task install` writes a `localexec` command into <root>/bin that runs this checkout with the
 * full preset's flags and the absolute path of Deno, and needs no environment variable to start.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "../../lib/deps.ts";
import { PRESETS } from "../../lib/mcp/mod.ts";
import { launcher } from "../../scripts/install.ts";

const INSTALL = fileURLToPath(new URL("../../scripts/install.ts", import.meta.url));
const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

Deno.test("the launcher runs main.ts with the preset's flags and this Deno, by absolute path", () => {
  const text = launcher("/opt/deno", "full", "/cache/deno dir");
  assert.match(text, /^#!\/bin\/sh\n/);
  assert.match(text, /export DENO_DIR='\/cache\/deno dir'/);
  assert.ok(text.includes(`exec '/opt/deno' run --quiet --no-prompt -A --config `));
  assert.ok(text.includes(`'${MAIN}' "$@"`));
  const read = launcher("/opt/deno", "read");
  assert.ok(read.includes(`run --quiet --no-prompt ${PRESETS.read.join(" ")} --config `));
  assert.doesNotMatch(read, /DENO_DIR|--allow-write| -A /);
  assert.ok(
    launcher("/opt/deno", "edit").includes("--no-prompt --allow-read --allow-write --config"),
  );
});

Deno.test("install writes a working command that starts with an empty environment", async () => {
  const home = await Deno.makeTempDir({ prefix: "localexec-install-" });
  const denoDir = JSON.parse(
    new TextDecoder().decode(
      (await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output()).stdout,
    ),
  ).denoDir as string;
  try {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "-A", INSTALL, "--root", join(home, "inst")],
      env: { HOME: home, DENO_DIR: denoDir, NO_COLOR: "1" },
      stdout: "null",
    }).output();
    const said = new TextDecoder().decode(stderr);
    assert.equal(code, 0, said);
    assert.match(said, /installed .*inst\/bin\/localexec \(localexec \S+, full preset\)/);
    const command = join(home, "inst", "bin", "localexec");
    // As Codex starts a server: only a few variables, no DENO_DIR, no PATH to deno.
    const run = await new Deno.Command(command, {
      args: ["--version"],
      clearEnv: true,
      env: { HOME: home, PATH: "/usr/bin:/bin" },
    }).output();
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    assert.match(new TextDecoder().decode(run.stdout), /^localexec \S+\n$/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
