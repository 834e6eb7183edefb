/**
 * glibc's malloc tuned to give back what a burst took (`lib/process/malloc.ts`): set under `-A` on
 * glibc; without native calls nothing changes and nothing fails. What it saves is measured by
 * `deno task bench memory` (BENCHMARKS.md), not here: glibc's keeping or returning of pages
 * depends on which threads allocated what, which a test process does not reproduce.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const MALLOC = fileURLToPath(new URL("../lib/process/malloc.ts", import.meta.url));

Deno.test({
  name: "with native calls on glibc, both thresholds are set",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(
        `${dir}/p.ts`,
        `import { tuneMalloc } from ${JSON.stringify(MALLOC)};\n` +
          `let glibc = true;\ntry { Deno.dlopen("libc.so.6", {}); } catch { glibc = false; }\n` +
          `console.log(JSON.stringify({ glibc, tuned: tuneMalloc() }));\n`,
      );
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", "-A", `${dir}/p.ts`],
        stderr: "piped",
      }).output();
      assert.ok(out.success, new TextDecoder().decode(out.stderr));
      const { glibc, tuned } = JSON.parse(new TextDecoder().decode(out.stdout));
      assert.equal(tuned, glibc, "set wherever glibc is");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("without native calls, tuning is skipped and nothing fails", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/p.ts`,
      `import { tuneMalloc } from ${JSON.stringify(MALLOC)};\nconsole.log(tuneMalloc());\n`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", `--allow-read=${dir}`, `${dir}/p.ts`],
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    assert.equal(new TextDecoder().decode(out.stdout).trim(), "false");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
