/**
 * Where a project's workspaces go (`workspace.ts`): a module of its own, with no imports from the
 * store, so the claims can find a dead run's workspace without an import cycle.
 */
import { basename, join } from "../deps.ts";
import { storeDir } from "./dir.ts";

/** The user's cache folder (`$XDG_CACHE_HOME`, `~/.cache`, `~/Library/Caches`), if it may be used. */
function _cacheDir(): string | undefined {
  try {
    const env = (name: string) =>
      Deno.permissions.querySync({ name: "env", variable: name }).state === "granted"
        ? Deno.env.get(name)
        : undefined;
    const home = env("HOME");
    const dir = env("XDG_CACHE_HOME") ||
      (home ? join(home, Deno.build.os === "darwin" ? "Library/Caches" : ".cache") : undefined);
    if (!dir) return undefined;
    const write = Deno.permissions.querySync({ name: "write", path: dir }).state === "granted";
    return write ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** A short stable name for `root`: its folder name and a hash of its path. */
function _rootName(root: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(root)) {
    h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return `${basename(root).replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 40)}-${h.toString(16)}`;
}

/**
 * The folder that holds the workspaces of `root`: outside the tree, in the user's cache folder
 * (`localexec/ws/<name>-<hash>/`), because a project's own tools may walk hidden folders (`deno
 * test` runs every `*_test.ts` under `.localexec/`); the store's `ws/` when no cache folder may be
 * written.
 */
export function workspaceBase(root: string): string {
  const cache = _cacheDir();
  return cache ? join(cache, "localexec", "ws", _rootName(root)) : join(storeDir(root), "ws");
}
