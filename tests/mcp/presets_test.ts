/**
 * The permission presets say the same wherever they are baked or documented: the full preset is
 * `-A` (its commands need `--allow-run` without a list, which already allows anything), read and
 * edit stay scoped and run nothing; `deno task start`, the README table and the launcher agree.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { EVERY_TOOL_FLAGS, grants, PRESETS, scopedFlags } from "../../lib/mcp/mod.ts";
import { loadTools } from "../../tools/mod.ts";

const TOOLS = await loadTools();

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("the full preset is -A; read and edit grant no run, net or env", () => {
  assert.deepEqual([...PRESETS.full], ["-A"]);
  assert.deepEqual([...PRESETS.edit], ["--allow-read", "--allow-write"]);
  assert.deepEqual([...PRESETS.read], ["--allow-read"]);
  for (const need of ["run", "net", "env"]) {
    assert.equal(grants(PRESETS.edit, need), false, need);
    assert.equal(grants(PRESETS.read, need), false, need);
  }
  assert.equal(grants(PRESETS.read, "write"), false);
});

Deno.test("-A and the explicit flags it stands for grant every tool's needs, scoped or not", () => {
  const scoped = scopedFlags("full", "/project");
  assert.ok(scoped.includes("--allow-read=/project") && !scoped.includes("-A"));
  for (const tool of TOOLS) {
    for (const need of tool.needs) {
      assert.ok(grants(PRESETS.full, need), `${tool.name} needs ${need}`);
      assert.ok(grants(EVERY_TOOL_FLAGS, need), `${tool.name} needs ${need}`);
      assert.ok(grants(scoped, need), `${tool.name} needs ${need}`);
    }
  }
  assert.deepEqual(scopedFlags("read", "/p"), ["--allow-read=/p"]);
});

Deno.test("deno task start runs main.ts with the full preset's flags", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  assert.equal(config.tasks.start, `deno run --no-prompt ${PRESETS.full.join(" ")} main.ts`);
});

Deno.test("the README's preset table gives each preset's flags", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  for (const [name, flags] of Object.entries(PRESETS)) {
    const row = readme.split("\n").find((l) => new RegExp(`^\\| ${name} +\\|`).test(l));
    assert.ok(row, `no row for ${name}`);
    assert.equal(row.split("|")[2].trim(), `\`${flags.join(" ")}\``);
  }
});
