/**
 * The permission presets: the Deno flags localexec is meant to run under, from narrowest to widest.
 * `scripts/compile.ts` bakes one of them into the binary; the README and the tests use the same
 * lists, so there is one source of truth.
 */

/** Preset name → Deno permission flags (before `main.ts`). */
export const PRESETS = {
  /** Look but never touch: list/read/find/outline/list_tasks/show_patch/status. */
  read: ["--allow-read"],
  /** Also write files and revert tasks; runs nothing. */
  edit: ["--allow-read", "--allow-write"],
  /**
   * Everything: shell, run_python, run_checks, implement_task (net for the model hosts, env for
   * OLLAMA_HOST and the variable api_key_env names).
   */
  full: ["--allow-read", "--allow-write", "--allow-run", "--allow-net", "--allow-env"],
} as const;

/** A preset's name. */
export type PresetName = keyof typeof PRESETS;
