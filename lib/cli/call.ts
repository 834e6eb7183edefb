/**
 * What `localexec call` makes of a tool's answer for the command line: its exit code, so
 * `localexec call run_checks && git commit` commits only what passed, and the text it prints.
 */

/** A verdict that the step did not get done: exit 1. */
const NOT_DONE = new Set(["failed", "blocked", "timeout", "conflict"]);

/**
 * The exit code of `call` for an answer: 2 for an error (a tool error, or `status: "error"`),
 * 1 for a verdict that the step was not done (`failed`, `blocked`, `timeout`, `conflict`), 0
 * otherwise (`ok`, `passed`, `running`, …).
 */
export function callExitCode(text: string, isError = false): number {
  if (isError) return 2;
  let status: unknown;
  try {
    status = (JSON.parse(text) as { status?: unknown })?.status;
  } catch {
    return 0; // (every tool answers JSON; nothing to judge otherwise)
  }
  if (status === "error") return 2;
  return typeof status === "string" && NOT_DONE.has(status) ? 1 : 0;
}

/**
 * The answer as `call` prints it: exactly the tool's JSON on one line, except for a person at a
 * terminal (`pretty`), who gets it indented.
 */
export function callText(text: string, pretty: boolean): string {
  if (!pretty) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
