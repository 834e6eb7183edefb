/**
 * State shared by every call that one server (or one `localexec call`) handles.
 *
 * Handlers reach it through `ctx.state`. The only module-level state in `lib/` is caches of
 * immutable, costly resources: loaded grammars (`lib/outline/parser.ts`) and the find worker's
 * source (`lib/find/search.ts`).
 */
import type { ToolAvailability } from "./permissions.ts";

/** Per-server state. Created once in `main.ts` and handed to every tool call. */
export interface ServerState {
  /** The project root as a real path. */
  readonly root: string;
  /** The configuration file (`<root>/.localexec.json` unless `--config` says otherwise). */
  readonly configPath: string;
  /** Which tools are on, and why the others are off. */
  readonly tools: ToolAvailability;
  /**
   * Fingerprints of files this server last showed with line numbers, by real path: what
   * `patch_file` requires before it edits, so line numbers are never stale.
   */
  readonly shown: Map<string, string>;
}

/** Builds a fresh state. */
export function createState(
  root: string,
  configPath: string,
  tools: ToolAvailability,
): ServerState {
  return { root, configPath, tools, shown: new Map() };
}

/**
 * The fingerprint `shown` stores for a file's bytes: size and SHA-256. It depends on the content
 * only, so touching a file without changing it does not invalidate a read.
 */
export async function fingerprint(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  return `${bytes.length}:${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
