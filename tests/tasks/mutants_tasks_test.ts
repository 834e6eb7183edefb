/**
 * Tests written for the survivors of `deno task mutate --changed d9b33cd` in lib/tasks (the
 * machine-made mutants; docs/MUTATION.md, "Mutants made by machine"): each fails with its mutant
 * planted and passes on the code.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { mergeText } from "../../lib/tasks/merge/mod.ts";
import { provisionalRecord, readRecord } from "../../lib/tasks/store.ts";

const FUNCS = ["a", "b", "c"].map((f, i) => `function ${f}() {\n  return ${i + 1};\n}\n`)
  .join("\n");

/** How many conflicts `git merge-file` counts (its exit code). */
async function _gitConflicts(base: string, ours: string, theirs: string): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "mutants_merge_" });
  try {
    for (const [name, text] of [["base", base], ["ours", ours], ["theirs", theirs]]) {
      await Deno.writeTextFile(join(dir, name), text);
    }
    const out = await new Deno.Command("git", {
      args: ["merge-file", "-p", "ours", "base", "theirs"],
      cwd: dir,
      env: { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: dir },
      stdout: "null",
      stderr: "null",
    }).output();
    return out.code;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// conflicts.ts: `if (s.mode !== 0) return;` → `if (false) return;`
Deno.test("merge counts no conflict for a change only one side made, as git does", async () => {
  const ours = FUNCS.replace("return 1;", "return 10;").replace("return 3;", "return 30;");
  const theirs = FUNCS.replace("return 1;", "return 11;");
  const out = await mergeText(FUNCS, ours, theirs);
  assert.deepEqual(out, { clean: false, conflicts: 1, reason: "both sides changed line 2" });
  assert.equal(await _gitConflicts(FUNCS, ours, theirs), 1);
});

// store.ts: `await ensureStore(root);` removed from provisionalRecord
Deno.test("a provisional record is written in a project that has no task store yet", async () => {
  const root = await Deno.makeTempDir({ prefix: "mutants_store_" });
  try {
    assert.equal(await provisionalRecord(root, { id: "P1", spec: "s", files: ["a.py"] }), true);
    assert.deepEqual(
      [(await readRecord(root, "P1"))?.status, (await readRecord(root, "P1"))?.provisional],
      ["running", true],
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

// regions.ts: `_sameChange(x, y, ours, theirs)` → `_sameChange(y, x, ours, theirs)`
Deno.test("merge knows the same change both sides made at different offsets", async () => {
  // theirs' first line shifts its copy of the change both made (f → Y); the insertions after
  // line 4 differ: a conflict, as git says
  const base = "b\nf\ne\na\na\nb\nd\nf\nc\nc\n";
  const ours = "b\nf\ne\na\n}\na\nb\nd\nY\nc\n";
  const theirs = "Q\nb\nf\ne\na\n\na\nb\nd\nY\nc\n";
  assert.deepEqual(await mergeText(base, ours, theirs), {
    clean: false,
    conflicts: 1,
    reason: "both sides inserted lines after line 4",
  });
  assert.equal(await _gitConflicts(base, ours, theirs), 1);
});
