/**
 * The permission presets: the Deno flags localexec is meant to run under, from narrowest to widest.
 * `scripts/compile.ts` bakes one of them into the binary, `scripts/install.ts` writes it into the
 * launcher and `deno task start` uses the full one; the README and the tests use the same lists,
 * so there is one source of truth.
 *
 * The full preset is `-A` (every permission). Its commands (shell, run_python, checks) need
 * `--allow-run` without a list, and that already lets a command do anything the user can: a list of
 * narrower flags beside it would protect nothing. `-A` also gives what only every permission gives:
 * the exact link-swap check through `/proc/self/fd` (`lib/fs_atomic.ts`), and file reads that skip
 * the real-path resolution Deno does for every file opened under an explicit `--allow-read` (about
 * twice as fast full scans in `find`). The read and edit presets run no command, so their scoped
 * flags are a real wall.
 */

/** Preset name → Deno permission flags (before `main.ts`). */
export const PRESETS = {
  /** Look but never touch: list/read/find/outline/list_tasks/show_patch/status. */
  read: ["--allow-read"],
  /** Also write files and revert tasks; runs nothing. */
  edit: ["--allow-read", "--allow-write"],
  /**
   * Everything: shell, run_python, run_checks, implement_task (net for the model hosts, env for
   * OLLAMA_HOST and the variable api_key_env names) — as `-A`, see above.
   */
  full: ["-A"],
} as const;

/** A preset's name. */
export type PresetName = keyof typeof PRESETS;

/**
 * The explicit flags that grant every tool its needs (what `-A` stands for, as far as tools go),
 * for running the full tool set with permissions scoped by hand.
 */
export const EVERY_TOOL_FLAGS = [
  "--allow-read",
  "--allow-write",
  "--allow-run",
  "--allow-net",
  "--allow-env",
] as const;

/**
 * `preset`'s flags with read permission narrowed to `root`: `-A` becomes
 * {@linkcode EVERY_TOOL_FLAGS} so narrowed. The same tools stay on; the link-swap check falls back
 * to its re-check, since Deno reads `/proc/self/fd` only under `-A`.
 */
export function scopedFlags(preset: PresetName, root: string): string[] {
  const flags: readonly string[] = preset === "full" ? EVERY_TOOL_FLAGS : PRESETS[preset];
  return flags.map((f) => (f === "--allow-read" ? `--allow-read=${root}` : f));
}

/** True when `flags` grant the permission `need` (`read`, `write`, `run`, `net`, `env`). */
export function grants(flags: readonly string[], need: string): boolean {
  return flags.some((f) =>
    f === "-A" || f === "--allow-all" || f === `--allow-${need}` || f.startsWith(`--allow-${need}=`)
  );
}
