/**
 * Link-swap races against a real server over stdio: another process swaps a folder (or a file)
 * inside the root with a link to the same name outside, as fast as it can, while the server writes
 * and reads through that name. Nothing may be read from or written outside, and no temporary file
 * may be left anywhere.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { callMcp, connect, FULL } from "../helpers/mcp.ts";
import { CAN_RUN, figures, size, startFlipper } from "./suite.ts";

const SECRET = "SECRET outside the root\n";

async function _lab() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-race-" }));
  const root = join(base, "root");
  const outside = join(base, "outside");
  await Deno.mkdir(root);
  await Deno.mkdir(outside);
  return { base, root, outside };
}

function _names(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name);
  } catch {
    return [];
  }
}

/**
 * Each race runs under `--allow-all` (where the kernel's `/proc/self/fd` record proves a handle)
 * and under the full preset (where Deno refuses `/proc/self`, as under every preset short of
 * `--allow-all`, and the `lstat` fallback must prove it).
 */
const MODES: [string, string[]][] = [["proc", ["--allow-all"]], ["fallback", FULL]];

for (const [mode, permissions] of MODES) {
  Deno.test({
    name: `faults write_file never writes outside while a folder is swapped for a link (${mode})`,
    ignore: !CAN_RUN,
    async fn() {
      const { base, root, outside } = await _lab();
      await Deno.mkdir(join(root, "rdir"));
      await Deno.symlink(outside, join(root, ".swap"));
      const conn = await connect(root, { permissions });
      const flipper = await startFlipper(join(root, "rdir"), join(root, ".swap"));
      const n = size(30, 200);
      let escapes = 0, emptied = 0, strayOutside = 0, ok = 0;
      try {
        for (let i = 0; i < n; i++) {
          const r = await callMcp(conn.client, "write_file", {
            file_path: "rdir/f.txt",
            content: `iteration ${i}\n`,
          });
          if (r.status === "ok") ok++;
          for (const name of _names(outside)) {
            const text = await Deno.readTextFile(join(outside, name));
            if (text !== "") escapes++; // content of ours outside
            else if (name === "f.txt") emptied++; // a rename moved it out; emptied at once
            else strayOutside++;
            await Deno.remove(join(outside, name));
          }
        }
      } finally {
        await flipper.stop();
        await conn.close();
      }
      const folder = Deno.lstatSync(join(root, "rdir")).isDirectory ? "rdir" : ".swap";
      const strayInside = _names(join(root, folder)).filter((n) => n.endsWith(".localexec-tmp"));
      figures(`write race (folder swapped for a link out, ${mode})`, {
        iterations: n,
        swap: flipper.how,
        escapes,
        written_inside: ok,
        refused: n - ok,
        emptied_names_outside: emptied,
        temp_files_outside: strayOutside,
        temp_files_inside: strayInside.length,
      });
      await Deno.remove(base, { recursive: true });
      assert.equal(escapes, 0);
      assert.equal(strayOutside, 0);
      assert.equal(strayInside.length, 0);
    },
  });

  Deno.test({
    name:
      `faults read_file never returns outside content while a file or folder is swapped (${mode})`,
    ignore: !CAN_RUN,
    async fn() {
      const { base, root, outside } = await _lab();
      await Deno.writeTextFile(join(outside, "secret.txt"), SECRET);
      await Deno.writeTextFile(join(root, "race.txt"), "inside\n");
      await Deno.symlink(join(outside, "secret.txt"), join(root, ".fswap"));
      await Deno.mkdir(join(root, "rdir"));
      await Deno.writeTextFile(join(root, "rdir", "secret.txt"), "inside\n");
      await Deno.symlink(outside, join(root, ".dswap"));
      const conn = await connect(root, { permissions });
      const n = size(30, 200);
      try {
        for (
          const [what, name, swap, path] of [
            ["file", "race.txt", ".fswap", "race.txt"],
            ["folder", "rdir", ".dswap", "rdir/secret.txt"],
          ]
        ) {
          const flipper = await startFlipper(join(root, name), join(root, swap));
          let leaks = 0, ok = 0;
          try {
            for (let i = 0; i < n; i++) {
              const r = await callMcp(conn.client, "read_file", { filename: path });
              if (r.status === "ok") ok++;
              if (JSON.stringify(r).includes("SECRET")) leaks++;
            }
          } finally {
            await flipper.stop();
          }
          figures(`read race (${what} swapped for a link out, ${mode})`, {
            iterations: n,
            swap: flipper.how,
            escapes: leaks,
            read_inside: ok,
            refused: n - ok,
          });
          assert.equal(leaks, 0);
        }
      } finally {
        await conn.close();
        await Deno.remove(base, { recursive: true });
      }
    },
  });
}
