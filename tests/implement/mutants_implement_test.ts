/**
 * Tests written for the survivors of `deno task mutate --changed d9b33cd` in lib/implement (the
 * machine-made mutants; docs/MUTATION.md, "Mutants made by machine"): each fails with its mutant
 * planted and passes on the code.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { snapshot } from "../../lib/implement/files.ts";
import { WorkspacePlace } from "../../lib/implement/place.ts";

// place.ts: `if (!this.#wrote || !this.#base) return [];` in changes() → `if (false) …`
Deno.test("place (workspace) that never wrote has no changes, whatever its copy holds", async () => {
  const root = await Deno.makeTempDir({ prefix: "mutants_place_" });
  const work = await Deno.makeTempDir({ prefix: "mutants_place_ws_" });
  try {
    await Deno.writeTextFile(join(root, "a.py"), "A = 2  # the user's edit\n");
    await Deno.writeTextFile(join(work, "a.py"), "A = 1\n"); // a copy made before it
    const files = await snapshot(root, ["a.py"]);
    const place = new WorkspacePlace(
      { root, id: "W1", files: ["a.py"], start: { files, dirs: [] }, run: 1 },
      work,
      Promise.resolve(),
    );
    await place.read();
    // landing an older copy's "change" would put the user's edit back to A = 1
    assert.deepEqual(await place.changes(), []);
    assert.equal(await place.unchanged(), true);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});
