/**
 * Which tools this process can honour, from the permissions Deno holds for the root.
 *
 * Deno's permission system is the outer wall: a tool whose needs are not granted is not listed,
 * and `status` says why. `--read-only` and `--tools` narrow the set further.
 */
import type { Need, ToolAvailability, ToolEntry } from "./tool.ts";

export type { ToolAvailability };

/** What a tool asks of Deno, per need, for a given root. */
export interface NeedQuery {
  root: string;
  /** `host:port` of every model host (Ollama or `base_url`), for tools that need the network. */
  modelHosts: string[];
}

/** Options that narrow the set below what Deno grants. */
export interface NarrowOptions {
  readOnly?: boolean;
  /** When given, only these tool names may be on. */
  only?: string[];
}

const FLAG: Record<Need, string> = {
  read: "--allow-read",
  write: "--allow-write",
  run: "--allow-run",
  net: "--allow-net",
};

function _descriptors(need: Need, tool: ToolEntry, q: NeedQuery): Deno.PermissionDescriptor[] {
  switch (need) {
    case "read":
      return [{ name: "read", path: q.root }];
    case "write":
      return [{ name: "write", path: q.root }];
    case "run":
      // Every command starts under `sh` (it merges stderr into stdout in order); run_python's
      // `sh` then starts python3.
      return tool.name === "run_python"
        ? [{ name: "run", command: "sh" }, { name: "run", command: "python3" }]
        : [{ name: "run", command: "sh" }];
    case "net":
      return q.modelHosts.map((host) => ({ name: "net", host }));
  }
}

/** The first need of `tool` that Deno does not grant for `q`, or undefined when all are. */
function missingNeed(tool: ToolEntry, q: NeedQuery): Need | undefined {
  for (const need of tool.needs) {
    for (const d of _descriptors(need, tool, q)) {
      if (Deno.permissions.querySync(d).state !== "granted") return need;
    }
  }
  return undefined;
}

function _why(need: Need, tool: ToolEntry, q: NeedQuery): string {
  if (need !== "run") return `needs ${need} permission (${FLAG[need]})`;
  const commands = _descriptors(need, tool, q).map((d) =>
    (d as Deno.RunPermissionDescriptor).command
  );
  return `needs run permission for ${commands.join(" and ")} (${FLAG.run}, or ${FLAG.run}=${
    commands.join(",")
  })`;
}

/**
 * Splits `tools` into those this process can offer and those it cannot, with reasons. It reads
 * each entry's name, needs and read-only flag: no tool module is loaded.
 */
export function availableTools(
  tools: readonly ToolEntry[],
  q: NeedQuery,
  narrow: NarrowOptions = {},
): ToolAvailability {
  const on: ToolEntry[] = [];
  const off: ToolAvailability["off"] = [];
  for (const entry of tools) {
    const missing = missingNeed(entry, q);
    if (missing) {
      off.push({ name: entry.name, why: _why(missing, entry, q), entry });
    } else if (narrow.only && !narrow.only.includes(entry.name)) {
      off.push({ name: entry.name, why: "not in --tools", entry });
    } else if (narrow.readOnly && !entry.readOnly) {
      off.push({ name: entry.name, why: "--read-only", entry });
    } else {
      on.push(entry);
    }
  }
  return { on, off };
}
