/**
 * A task has a record from the moment the engine accepts it (lib/implement/run.ts, a provisional
 * record held by a pending file): one that ends before it begins, its model unreachable, ends that
 * record as `error`, not as a run that died. The engine called directly, no server.
 */
import { PROVIDERS } from "../../lib/providers/mod.ts";
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { loadConfig } from "../../lib/config.ts";
import { implementTask } from "../../lib/implement/mod.ts";
import { readTask } from "../../lib/tasks/mod.ts";
import { closedUrl } from "../helpers/fake_ollama.ts";
import { tempProject } from "../helpers/project.ts";

Deno.test("implementTask ends the record of a task that never began (model unreachable) as error", async () => {
  const root = await tempProject({
    "a.py": "A = 0\n",
    ".localexec.json": JSON.stringify({ model: "qwen2.5-coder:7b", ollama_host: closedUrl() }),
  });
  try {
    let recorded = 0;
    const verdict = await implementTask(
      { task_id: "N1", spec: "set A to 1", files_to_edit: ["a.py"] },
      {
        root,
        signal: new AbortController().signal,
        progress: () => {},
        config: () => loadConfig(join(root, ".localexec.json"), PROVIDERS),
        recorded: () => recorded++,
      },
    );
    assert.equal(verdict.status, "error", JSON.stringify(verdict));
    assert.ok(recorded >= 1, "the caller was told the task has a record");
    const r = await readTask(root, "N1");
    assert.deepEqual([r?.status, r?.runs, r?.error], ["error", 0, verdict.error]);
    assert.equal(Deno.readTextFileSync(join(root, "a.py")), "A = 0\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
