/**
 * Task bundles (lib/eval/bundle.ts): the bundled suite is stored as one `.txtar` per task, and
 * loading it gives back, byte for byte, what its task folders held (the hashes in
 * suite_hashes.json were taken from those folders before they were packed). Folders and bundles
 * load side by side from `--tasks DIR`; a broken bundle is refused with the reason.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { sha256Hex } from "../../lib/text.ts";
import {
  BUNDLED_SUITE,
  loadTasks,
  readBundle,
  TaskFormatError,
  writeBundle,
  writeTaskFiles,
} from "../../lib/eval/mod.ts";
import { packTask } from "../../scripts/pack_task.ts";
import hashes from "./suite_hashes.json" with { type: "json" };

const ENCODER = new TextEncoder();

function _hash(text: string): Promise<string> {
  return sha256Hex(ENCODER.encode(text));
}

/** Every file under `dir`, relative path → SHA-256 of its bytes. */
async function hashTree(dir: string, prefix: string, out: Record<string, string> = {}) {
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) await hashTree(path, `${prefix}${e.name}/`, out);
    else out[`${prefix}${e.name}`] = await sha256Hex(await Deno.readFile(path));
  }
  return out;
}

Deno.test("the bundled suite's projects and solutions are the old task folders' bytes", async () => {
  const tasks = await loadTasks(BUNDLED_SUITE);
  assert.deepEqual(tasks.map((t) => t.name), Object.keys(hashes).sort());
  const scratch = await Deno.makeTempDir({ prefix: "eval-bundle-" });
  try {
    for (const task of tasks) {
      assert.ok(task.bundle, `${task.name} is a bundle`);
      // the project eval makes, as it makes it
      const project = join(scratch, task.name);
      await Deno.mkdir(project);
      await writeTaskFiles(task, project);
      const got = await hashTree(project, "files/");
      for (const [rel, text] of Object.entries(task.bundle.solution)) {
        got[`solution/${rel}`] = await _hash(text);
      }
      got["task.json"] = await _hash(task.bundle.taskJson);
      assert.deepEqual(got, (hashes as Record<string, Record<string, string>>)[task.name]);
    }
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
});

Deno.test("a 3,000-line file is stored once: its solution is a diff", async () => {
  const text = await Deno.readTextFile(join(BUNDLED_SUITE, "ts-symbols-registry.txtar"));
  assert.equal(text.match(/^-- files\/registry\.ts --$/gm)?.length, 1);
  assert.doesNotMatch(text, /^-- solution\/registry\.ts --$/m);
  assert.ok(text.split("\n").length < 3200, "one copy of the 3,000 lines");
  assert.ok(readBundle(text).solution["registry.ts"].split("\n").length > 3000);
});

Deno.test("--tasks DIR loads task folders and bundles side by side, sorted by name", async () => {
  const dir = await Deno.makeTempDir({ prefix: "eval-bundle-" });
  try {
    const folder = join(dir, "b-folder");
    await Deno.mkdir(join(folder, "files"), { recursive: true });
    await Deno.mkdir(join(folder, "solution"));
    const taskJson = JSON.stringify({
      spec: "Add one to x",
      files_to_edit: ["x.py", "new.py"],
      checks: { t: { command: "true" } },
    }) + "\n";
    await Deno.writeTextFile(join(folder, "task.json"), taskJson);
    await Deno.writeTextFile(join(folder, "files", "x.py"), "a = 1\nx = 1\nb = 2\n");
    await Deno.writeTextFile(join(folder, "solution", "x.py"), "a = 1\nx = 2\nb = 2\n");
    await Deno.writeTextFile(join(folder, "solution", "new.py"), "n = 0\n");
    const bundle = await packTask(folder);
    assert.match(bundle, /^-- solution\/new\.py --$/m, "a new file is whole");
    assert.match(bundle, /^-x = 1\n\+x = 2$/m, "a changed file is a diff");
    await Deno.writeTextFile(join(dir, "a-bundle.txtar"), bundle);
    const tasks = await loadTasks(dir);
    assert.deepEqual(tasks.map((t) => t.name), ["a-bundle", "b-folder"]);
    assert.deepEqual(tasks[0].bundle?.solution, {
      "new.py": "n = 0\n",
      "x.py": "a = 1\nx = 2\nb = 2\n",
    });
    assert.ok(tasks[0].hasSolution && tasks[1].hasSolution && !tasks[1].bundle);
    assert.equal((await loadTasks(join(dir, "a-bundle.txtar")))[0].spec, "Add one to x");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a broken bundle is refused with the reason", async () => {
  const dir = await Deno.makeTempDir({ prefix: "eval-bundle-" });
  const good = {
    taskJson: '{"spec": "s", "files_to_edit": ["x.py"], "checks": {"t": {"command": "true"}}}\n',
    files: { "x.py": "x = 1\n" },
    solution: { "x.py": "x = 2\n" },
  };
  const cases: [string, string, RegExp][] = [
    ["extra", writeBundle(good) + "-- notes.md --\nhi\n", /unknown section "notes\.md"/],
    [
      "stale",
      writeBundle(good).replace("-- files/x.py --\nx = 1", "-- files/x.py --\nx = 3"),
      /does not apply to files\/x\.py/,
    ],
    ["nofiles", writeBundle({ ...good, files: {}, solution: {} }), /no files\/ section/],
    ["nojson", "-- files/x.py --\nx\n", /no task\.json section/],
  ];
  try {
    for (const [name, text, reason] of cases) {
      await Deno.writeTextFile(join(dir, `${name}.txtar`), text);
      await assert.rejects(loadTasks(join(dir, `${name}.txtar`)), (err: Error) => {
        assert.ok(err instanceof TaskFormatError);
        assert.match(err.message, new RegExp(`^task ${name}: `));
        assert.match(err.message, reason);
        return true;
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
