/**
 * Helpers for the workspace tests: a project in a real temp folder, what a folder holds (kind,
 * bytes, exec bit, link target), and the end of a test (waiting for a standby still being made).
 */
import assert from "node:assert/strict";
import { join } from "../../lib/deps.ts";
import { LINKED, workspaceBase } from "../../lib/tasks/mod.ts";
import { tryMakerLock } from "../../lib/tasks/ws_dir.ts";

/** A project with `files` (a value starting with `->` makes a link to the rest). */
export async function project(files: Record<string, string>): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-ws-" }));
  await write(root, files);
  return root;
}

/** Writes `files` under `root` (see {@linkcode project}). */
export async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, rel, ".."), { recursive: true });
    if (text.startsWith("->")) await Deno.symlink(text.slice(2), join(root, rel));
    else await Deno.writeTextFile(join(root, rel), text);
  }
}

/**
 * What `dir` holds, path → `d`, `f <x|-> <bytes>` or `l <target>`; `.git`, `.localexec` and the
 * linked folders at the top left out (a workspace has none of them, or links).
 */
export function holds(dir: string, rel = "", out = new Map<string, string>()): Map<string, string> {
  for (const e of Deno.readDirSync(join(dir, rel))) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (!rel && [".git", ".localexec", ...LINKED].includes(e.name)) continue;
    const info = Deno.lstatSync(join(dir, p));
    if (info.isSymlink) out.set(p, `l ${Deno.readLinkSync(join(dir, p))}`);
    else if (info.isDirectory) out.set(p, "d");
    else {
      const x = (info.mode ?? 0) & 0o111 ? "x" : "-";
      out.set(p, `f ${x} ${Deno.readTextFileSync(join(dir, p))}`);
    }
    if (info.isDirectory) holds(dir, p, out);
  }
  return out;
}

/** The copy `ws` holds what the tree `root` holds, and links its dependency folders. */
export function assertInStep(root: string, ws: string): void {
  assert.deepEqual(
    [...holds(ws)].sort(),
    [...holds(root)].sort(),
    `the copy ${ws} is the tree`,
  );
  for (const name of LINKED) {
    const there = (() => {
      try {
        return Deno.lstatSync(join(root, name)).isDirectory;
      } catch {
        return false;
      }
    })();
    if (there) assert.equal(Deno.readLinkSync(join(ws, name)), join(root, name));
    else assert.throws(() => Deno.lstatSync(join(ws, name)), Deno.errors.NotFound);
  }
}

/** A file's bytes, inode and mtime: what a write through a link would change. */
export function fileState(path: string): string {
  const info = Deno.lstatSync(path);
  return `${Deno.readTextFileSync(path)}|${info.ino}|${info.mtime?.getTime()}`;
}

/**
 * Waits until nobody makes or recycles `root`'s standby (a workspace given back is recycled);
 * throws after a minute rather than hang a test.
 */
export async function settled(root: string): Promise<void> {
  for (const until = Date.now() + 60_000;;) {
    if (Date.now() > until) throw new Error("the standby is still being made");
    if (!(await Deno.lstat(workspaceBase(root)).catch(() => undefined))) return;
    const lock = await tryMakerLock(workspaceBase(root));
    if (lock) return lock.close();
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Removes `root` and its workspace folder, once its standby is settled. */
export async function cleanUp(root: string): Promise<void> {
  await settled(root).catch(() => {});
  await Deno.remove(workspaceBase(root), { recursive: true }).catch(() => {});
  await Deno.remove(root, { recursive: true });
}
