/**
 * Workspaces (docs/ARCHITECTURE.md, "Parallel tasks"): a task that starts while another runs edits
 * and checks a copy of the project in the user's cache folder (`workspaceBase`), so it never sees another
 * running task's unfinished edits and they never see its own. The copy is the tree as it is now
 * (`cp -a`, reflinked where the file system can), with the files of a task running in the tree put
 * back as they were before it (from its backups), dependency folders (`node_modules`, `.venv`,
 * `venv`) linked rather than copied, and `.git` and `.localexec` left out. Build output such as
 * `target/` and caches are copied, so a check in the workspace never writes into the user's tree.
 *
 * What other tasks land comes in through `landed.ts` (`syncLanded`), which writes with
 * {@linkcode writeWork}.
 */
import { dirname, join } from "../deps.ts";
import { runProcess } from "../process/mod.ts";
import { readManifest, readOriginal } from "./backup.ts";
import type { Claim } from "./claims.ts";
import { STORE_NAME } from "./dir.ts";
import { workspaceBase } from "./ws_dir.ts";

export { workspaceBase };

/** Top-level folders linked into a workspace, not copied: dependencies checks read. */
export const LINKED: readonly string[] = ["node_modules", ".venv", "venv"];
/** Top-level entries a workspace leaves out. */
const SKIPPED: readonly string[] = [".git", STORE_NAME];

/** Where the workspace of task `id` goes (a fresh name each time). */
export function workspacePath(root: string, id: string): string {
  const hex = crypto.randomUUID().replaceAll("-", "").slice(0, 8);
  return join(workspaceBase(root), `${id}.${hex}`);
}

/**
 * Makes the workspace `ws` for a task of `root` while the tasks `running` run: a copy of the tree
 * with each tree-mode task's files as they were before it began. `signal` stops the copy.
 */
export async function makeWorkspace(
  root: string,
  ws: string,
  running: readonly Claim[],
  signal?: AbortSignal,
): Promise<void> {
  await Deno.mkdir(ws, { recursive: true });
  const copied: string[] = [];
  for (const e of [...Deno.readDirSync(root)]) {
    if (SKIPPED.includes(e.name)) continue;
    if (LINKED.includes(e.name) && (e.isDirectory || e.isSymlink)) {
      await Deno.symlink(join(root, e.name), join(ws, e.name));
    } else copied.push(e.name);
  }
  if (copied.length) {
    const linux = Deno.build.os === "linux";
    const argv = linux
      ? ["cp", "-a", "--reflink=auto", "-t", ws, "--", ...copied]
      : ["cp", "-pPR", ...copied, ws];
    // cp's messages in English, whatever the user's locale: `vanishedOnly` reads them.
    const env = { LC_ALL: "C" };
    const r = await runProcess(argv, { cwd: root, timeoutS: 3600, signal, env });
    if (r.code !== 0 && (r.signal || r.cancelled || r.timedOut || !vanishedOnly(r.output))) {
      throw new Error(`copying the project for a workspace failed: ${r.output}`);
    }
  }
  // The manifest is read after the copy: a task with no backups then had edited nothing.
  for (const c of running) {
    if (c.mode !== "tree") continue;
    const manifest = await readManifest(root, c.task_id).catch(() => undefined);
    if (!manifest) continue;
    const edits = new Map<string, Uint8Array | null>();
    for (const entry of manifest.files) {
      edits.set(entry.path, await readOriginal(root, c.task_id, entry));
    }
    await writeWork(ws, edits);
  }
}

/**
 * Whether every complaint in cp's output `output` is about a file that vanished while it copied
 * (an editor's or a build's temporary file, another task's atomic write renamed away): such a
 * file was there when cp read its folder and gone when it came to copy it, so the copy is the
 * tree as it was a moment later, which is what a workspace wants. Anything else (no space, no
 * permission) is a failure.
 */
export function vanishedOnly(output: string): boolean {
  const lines = output.split("\n").filter((l) => l.trim());
  return lines.length > 0 &&
    lines.every((l) => /^(\S*\/)?cp: .*: No such file or directory$/.test(l));
}

/** Writes `edits` into the workspace `ws` (null removes the file); plain writes, no records. */
export async function writeWork(
  ws: string,
  edits: ReadonlyMap<string, string | Uint8Array | null>,
): Promise<void> {
  for (const [rel, content] of edits) {
    const abs = join(ws, rel);
    if (content === null) {
      await Deno.remove(abs).catch(() => {});
      continue;
    }
    await Deno.mkdir(dirname(abs), { recursive: true });
    // Never write through a link into the user's tree: replace whatever is there.
    const info = await Deno.lstat(abs).catch(() => undefined);
    if (info && !info.isFile) await Deno.remove(abs, { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(abs, content);
    else await Deno.writeFile(abs, content);
  }
}

/** Removes the workspace `ws`; never throws. */
export async function removeWorkspace(ws: string): Promise<void> {
  await Deno.remove(ws, { recursive: true }).catch(() => {});
}
