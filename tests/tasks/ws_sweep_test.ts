/**
 * The cache folder of workspaces (docs/DECISIONS.md, "Cheap workspaces"): private from
 * `<cache>/localexec` down, and swept at start of other projects' copies unused for a day whose
 * owner is gone — never a live one, never anything outside `<cache>/localexec/ws/`. Each test
 * points `$XDG_CACHE_HOME` at a folder of its own.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import {
  makeWorkspace,
  removeStaleTemps,
  workspaceBase,
  workspacePath,
} from "../../lib/tasks/mod.ts";
import { claimsDir } from "../../lib/tasks/claims.ts";
import { metaPath } from "../../lib/tasks/ws_dir.ts";
import { project } from "./ws_lab.ts";

/** Runs `fn` with `$XDG_CACHE_HOME` at a fresh folder; removes it after. */
async function _withCache(fn: (cache: string) => Promise<void>): Promise<void> {
  const cache = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-cache-" }));
  const before = Deno.env.get("XDG_CACHE_HOME");
  Deno.env.set("XDG_CACHE_HOME", cache);
  try {
    await fn(cache);
  } finally {
    if (before === undefined) Deno.env.delete("XDG_CACHE_HOME");
    else Deno.env.set("XDG_CACHE_HOME", before);
    await Deno.remove(cache, { recursive: true });
  }
}

const mode = (path: string) => Deno.statSync(path).mode! & 0o777;

Deno.test("workspace folders are private (0700), existing ones made so", async () => {
  await _withCache(async (cache) => {
    await Deno.mkdir(join(cache, "localexec/ws"), { recursive: true, mode: 0o755 });
    await Deno.chmod(join(cache, "localexec"), 0o755);
    await Deno.chmod(join(cache, "localexec/ws"), 0o755);
    const root = await project({ ".env": "SECRET=1\n", "a.txt": "a\n" });
    try {
      const ws = workspacePath(root, "P1");
      await makeWorkspace(root, { ws, running: [], files: [] });
      for (const dir of ["localexec", "localexec/ws"]) assert.equal(mode(join(cache, dir)), 0o700);
      for (const dir of [workspaceBase(root), ws, metaPath(ws)]) assert.equal(mode(dir), 0o700);
      assert.equal(Deno.readTextFileSync(join(workspaceBase(root), "owner")), `${root}\n`);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
});

/** A project folder in the cache for `root`, with a workspace, last used `ageMs` ago. */
async function _cached(root: string, ageMs: number, owner = true): Promise<string> {
  const ws = workspacePath(root, "OLD");
  await Deno.mkdir(ws, { recursive: true });
  await Deno.writeTextFile(join(ws, "a.txt"), "copy\n");
  if (owner) await Deno.writeTextFile(join(workspaceBase(root), "owner"), `${root}\n`);
  const then = new Date(Date.now() - ageMs);
  for (const e of Deno.readDirSync(workspaceBase(root))) {
    await Deno.utime(join(workspaceBase(root), e.name), then, then);
  }
  await Deno.utime(workspaceBase(root), then, then);
  return workspaceBase(root);
}

const DAY = 24 * 3600_000;

Deno.test("a starting server sweeps other projects' old copies whose owner is gone", async () => {
  await _withCache(async (cache) => {
    const roots: string[] = [];
    const mk = async () => {
      const r = await project({ "a.txt": "a\n", ".localexec/.gitignore": "*\n" });
      roots.push(r);
      return r;
    };
    const outside = await Deno.makeTempDir({ prefix: "localexec-out-" });
    await Deno.writeTextFile(join(outside, "keep.txt"), "keep\n");
    let claim: Deno.FsFile | undefined;
    try {
      const [me, gone, live, recent, ownerless, deleted] = [
        await mk(),
        await mk(),
        await mk(),
        await mk(),
        await mk(),
        await mk(),
      ];
      const dirs = {
        mine: await _cached(me, 2 * DAY),
        gone: await _cached(gone, 2 * DAY),
        live: await _cached(live, 2 * DAY),
        recent: await _cached(recent, 3600_000),
        ownerless: await _cached(ownerless, 2 * DAY, false),
        deleted: await _cached(deleted, 2 * DAY),
      };
      await Deno.remove(deleted, { recursive: true });
      // A live run of `live`: its claim is held (`flock`).
      await Deno.mkdir(claimsDir(live), { recursive: true });
      claim = await Deno.open(join(claimsDir(live), "T1.json"), { write: true, create: true });
      await claim.lock(true);
      const empty = join(cache, "localexec/ws/empty-0");
      await Deno.mkdir(empty);
      await Deno.symlink(outside, join(cache, "localexec/ws/link-0"));
      await removeStaleTemps(me);
      const left = (p: string) => Deno.lstat(p).then(() => true, () => false);
      assert.deepEqual(
        {
          mine: await left(dirs.mine),
          gone: await left(dirs.gone),
          live: await left(dirs.live),
          recent: await left(dirs.recent),
          ownerless: await left(dirs.ownerless),
          deleted: await left(dirs.deleted),
          empty: await left(empty),
        },
        {
          mine: true, // its own server tidies it, by its claims
          gone: false,
          live: true,
          recent: true,
          ownerless: true,
          deleted: false,
          empty: false,
        },
      );
      assert.equal(
        Deno.readTextFileSync(join(outside, "keep.txt")),
        "keep\n",
        "links not followed",
      );
      assert.equal(Deno.readTextFileSync(join(gone, "a.txt")), "a\n", "the project itself stays");
    } finally {
      claim?.close();
      for (const r of roots) await Deno.remove(r, { recursive: true }).catch(() => {});
      await Deno.remove(outside, { recursive: true });
    }
  });
});
