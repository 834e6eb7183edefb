/**
 * Adding a tool touches its own files, one line of the registry (`tools/mod.ts`) and the
 * regenerated `tools/manifest.json`, and nothing else: in a copy of this project, a new tool
 * module fails the structure check until it is registered; registered and with the manifest
 * regenerated, the structure check and every test that looks at the whole set of tools pass
 * unchanged (they compare against the registry and the manifest, never a list or a count).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "../../lib/deps.ts";

const HERE = fileURLToPath(new URL("../../", import.meta.url));
/** What a copy of the project needs to type-check and run the tests below. */
const COPIED = ["main.ts", "deno.json", "deno.lock", "lib", "tools", "scripts", "tests"];
/** The test files that look at every tool, and (`--filter`) their tests that do. */
const WHOLE_SET_TESTS = [
  "tests/tools/manifest_test.ts",
  "tests/cli/lazy_test.ts",
  "tests/mcp/server_e2e_test.ts",
  "tests/mcp/arguments_test.ts",
  "tests/mcp/schema_subset_test.ts",
  "tests/tools/status_test.ts",
];
const WHOLE_SET_FILTER =
  "/manifest|registry|server lists|read-only|server's tools|every tool|every input|are off/";

const TOOL =
  `/** echo_note: keep a note in notes.txt and say it back (added by tests/tools/registry_test.ts). */
import { z } from "zod";
import description from "./echo_note.md" with { type: "text" };
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";
import { writeChecked } from "../lib/fs_atomic.ts";
import { resolveForWrite } from "../lib/paths.ts";

export default defineTool({
  name: "echo_note",
  title: "Echo a note",
  description: prose(description),
  input: z.object({ note: z.string().max(200).describe("The note to say back") }),
  output: z.looseObject({ status: z.string(), note: z.string().optional() }),
  needs: ["read", "write"],
  annotations: ANNOTATIONS.OVERWRITES,
  async run({ note }, ctx) {
    await writeChecked(ctx.root, await resolveForWrite(ctx.root, "notes.txt"), note + "\\n");
    return { status: "ok", note };
  },
});
`;

const DESCRIPTION = `Write a note to notes.txt at the project root and say it back. A tool that
exists to show what adding a tool takes.
`;

async function _deno(cwd: string, ...args: string[]): Promise<{ ok: boolean; text: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    // Under `deno task`, INIT_CWD names where the task started; here the copy is the project.
    env: { NO_COLOR: "1", INIT_CWD: cwd },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { ok: out.success, text: decode(out.stdout) + decode(out.stderr) };
}

Deno.test("a new tool is its own files, one registry line and the regenerated manifest", async () => {
  const copy = await Deno.makeTempDir({ prefix: "localexec-registry-" });
  try {
    for (const name of COPIED) {
      const cp = await new Deno.Command("cp", { args: ["-R", join(HERE, name), copy] }).output();
      assert.ok(cp.success, `cp ${name}`);
    }
    await Deno.writeTextFile(join(copy, "tools/echo_note.ts"), TOOL);
    await Deno.writeTextFile(join(copy, "tools/echo_note.md"), DESCRIPTION);

    // Unregistered: the structure check (part of `deno task check`) names it and fails.
    const before = await _deno(
      copy,
      "run",
      "--no-prompt",
      "--allow-read",
      "scripts/check_structure.ts",
    );
    assert.equal(before.ok, false, before.text);
    assert.match(before.text, /tools\/echo_note\.ts is not registered/);

    // One line in the registry, then `deno task manifest`.
    const registry = join(copy, "tools/mod.ts");
    const lines = (await Deno.readTextFile(registry)).split("\n");
    const last = lines.findLastIndex((l) => /^\s+\w+: \(\) => import\("\.\/\w+\.ts"\),$/.test(l));
    lines.splice(last + 1, 0, '  echo_note: () => import("./echo_note.ts"),');
    await Deno.writeTextFile(registry, lines.join("\n"));
    const manifest = await _deno(
      copy,
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "scripts/manifest.ts",
    );
    assert.ok(manifest.ok, manifest.text);
    assert.match(await Deno.readTextFile(join(copy, "tools/manifest.json")), /"name": "echo_note"/);

    const after = await _deno(
      copy,
      "run",
      "--no-prompt",
      "--allow-read",
      "scripts/check_structure.ts",
    );
    assert.ok(after.ok, after.text);
    const tests = await _deno(
      copy,
      "test",
      "--no-prompt",
      "--no-check",
      "-A",
      "--filter",
      WHOLE_SET_FILTER,
      ...WHOLE_SET_TESTS,
    );
    assert.ok(tests.ok, tests.text.slice(-3000));
    const passed = /ok \| (\d+) passed \| 0 failed/.exec(tests.text);
    assert.ok(passed && Number(passed[1]) >= 12, tests.text.slice(-3000));

    // The new tool is listed and answers, as every other tool does.
    const call = await _deno(
      copy,
      "run",
      "--no-prompt",
      "-A",
      "main.ts",
      "call",
      "echo_note",
      '{"note":"hi"}',
    );
    assert.ok(call.ok, call.text);
    assert.match(call.text, /"status":"ok","note":"hi"/);
    assert.equal(await Deno.readTextFile(join(copy, "notes.txt")), "hi\n");
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
});
