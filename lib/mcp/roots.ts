/**
 * MCP roots (docs/ARCHITECTURE.md, "Roots"): when no `--root` was given and the client declares
 * the `roots` capability, the project root is the client's first `file://` root. It is asked with
 * `roots/list` as soon as the client says `initialized`, and asked again on every
 * `notifications/roots/list_changed`. `tools/list` and every tool call wait for the answer
 * ({@linkcode ClientRoots.ready}), at most {@linkcode ROOTS_TIMEOUT_MS}.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { RootsListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { fileURLToPath } from "node:url";
import { errorLine } from "../errors.ts";
import type { LeanServer } from "./lean_server.ts";
import { rebaseState } from "./state.ts";
import type { ServerState } from "./tool.ts";

/** How long the server waits for the client's `roots/list` answer. */
export const ROOTS_TIMEOUT_MS = 10_000;

/** What the server does with a root the client names. */
export interface RootsOptions {
  /** The state for `root`; throws, saying why, when that root must not be served. */
  stateFor(root: string): Promise<ServerState>;
  /** Called once when the client gives no usable root (no capability, no root, an error). */
  noRoot?(): void;
}

/** Follows the client's roots for one server. */
export class ClientRoots {
  #ready: Promise<void> = Promise.resolve();

  constructor(
    private readonly server: LeanServer,
    private readonly state: ServerState,
    private readonly options: RootsOptions,
  ) {
    // Both are set synchronously on arrival, before any later request is handled.
    server.oninitialized = () => this.#queue(true);
    server.setNotificationHandler(RootsListChangedNotificationSchema, () => this.#queue(false));
  }

  /** Resolves when the root the client named (if any) is in place. */
  get ready(): Promise<void> {
    return this.#ready;
  }

  #queue(first: boolean): void {
    this.#ready = this.#ready.then(() => this.#ask(first));
  }

  async #ask(first: boolean): Promise<void> {
    const none = () => {
      if (first) this.options.noRoot?.();
    };
    if (!this.server.getClientCapabilities()?.roots) return none();
    let uri: string | undefined;
    try {
      const { roots } = await this.server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
      uri = roots.find((r) => r.uri.startsWith("file://"))?.uri;
    } catch (err) {
      console.error(`localexec: roots/list failed (${errorLine(err)}); serving ${this.state.root}`);
    }
    if (!uri) return none();
    let path: string;
    try {
      path = fileURLToPath(uri);
      const next = await this.options.stateFor(path);
      if (next.root === this.state.root) return;
      rebaseState(this.state, next);
      console.error(`localexec: serving ${next.root} (the client's first root)`);
    } catch (err) {
      console.error(`localexec: not serving the client's root ${uri}: ${errorLine(err)}`);
      none();
    }
  }
}
