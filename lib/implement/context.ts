/**
 * The delegation engine's own context (docs/ARCHITECTURE.md, "Delegation"): everything a run of
 * implement_task takes from whoever calls it. The engine does not know it is called over MCP:
 * `tools/implement_task.ts` adapts the MCP layer's context to this one, and another caller (a
 * command, a task runner running several tasks at once) builds its own. Nothing in the engine
 * keeps state between runs outside the objects one run creates.
 */
import type { Config } from "../config.ts";
import type { HostSlots } from "../model/mod.ts";
import type { LandingRounds } from "./rounds.ts";

/** What one run of the engine gets from its caller. */
export interface EngineContext {
  /** The project root, as a real path (symlinks resolved). */
  readonly root: string;
  /** Aborted when the caller cancels the run (or shuts down). */
  readonly signal: AbortSignal;
  /**
   * Reports progress to the caller; may be a no-op. `at` says which attempt (counted over the
   * whole task) and model the message is about, when it is about one.
   */
  progress(message: string, at?: { attempt: number; model: string }): void;
  /** The project's configuration, validated; throws a ToolError naming the problem. */
  config(): Promise<Config>;
  /**
   * The model hosts' slots (`parallel`), shared by every run of one caller so that a host serves
   * no more chats at once than it may. Optional: without it a run counts only its own chats.
   */
  readonly slots?: HostSlots;
  /**
   * The landing rounds (`rounds.ts`) shared by every run of one caller, so tasks landing close
   * together check again once, together. Optional: without it each task checks again alone.
   */
  readonly rounds?: LandingRounds;
  /**
   * Called once the task has a record (before anything slow: a model to check, another task's
   * files to wait for), or when the run ends without one. Optional.
   */
  recorded?(): void;
  /**
   * Diagnostics that belong to no task's log (a record that could not be updated after an error);
   * a server may send them to stderr. Optional.
   */
  log?(message: string): void;
}

/**
 * What the engine needs from the host: it reads and writes project files, runs the checks and
 * talks to model servers. A caller offers the engine only where all four are granted.
 */
export const ENGINE_NEEDS = ["read", "write", "run", "net"] as const;
