/** list_files: one folder's entries with permissions, size and modification time. */
import { z } from "zod";
import description from "./list_files.md" with { type: "text" };
import { join } from "../lib/deps.ts";
import { resolveForRead } from "../lib/paths.ts";
import { quote, ToolError } from "../lib/errors.ts";
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";

const MAX_ENTRIES = 200;

/** `drwxr-xr-x` style permission string for a `Deno.FileInfo`. */
export function permissionString(info: Deno.FileInfo): string {
  const type = info.isSymlink
    ? "l"
    : info.isDirectory
    ? "d"
    : info.isFifo
    ? "p"
    : info.isSocket
    ? "s"
    : info.isCharDevice
    ? "c"
    : info.isBlockDevice
    ? "b"
    : "-";
  const mode = info.mode ?? 0;
  let bits = "";
  for (const shift of [6, 3, 0]) {
    const m = (mode >> shift) & 7;
    bits += (m & 4 ? "r" : "-") + (m & 2 ? "w" : "-") + (m & 1 ? "x" : "-");
  }
  return type + bits;
}

/**
 * One listing line for the entry at `path`, or undefined when it vanished meanwhile. Looked at
 * synchronously (at most {@linkcode MAX_ENTRIES} entries, microseconds each): an awaited file
 * operation is a trip to a runtime thread and back, and beside a busy find on a loaded machine each
 * trip waited for a core, so a listing of 20 files took 0.3-2 s (BENCHMARKS.md, issue 36).
 */
function _line(path: string, name: string, isDir: boolean): string | undefined {
  let st: Deno.FileInfo;
  try {
    st = Deno.lstatSync(path);
  } catch {
    return undefined;
  }
  let shown = isDir ? `${name}/` : name;
  if (st.isSymlink) shown = `${shown} -> ${_link(path)}`;
  return `${permissionString(st)} ${String(st.size).padStart(9)}  ${_time(st.mtime)}  ${shown}`;
}

function _link(path: string): string {
  try {
    return Deno.readLinkSync(path);
  } catch {
    return "?";
  }
}

function _time(d: Date | null): string {
  return d ? d.toISOString().slice(0, 16).replace("T", " ") : "-";
}

export default defineTool({
  name: "list_files",
  title: "List files",
  description: prose(description),
  input: z.object({
    directory: z.string().max(4096).default(".").describe(
      "Folder to list, relative to the project root",
    ),
  }),
  output: z.looseObject({
    status: z.string().describe("ok or error"),
    directory: z.string().optional().describe("The folder, relative to the project"),
    entries: z.array(z.string()).optional().describe(
      "One line per entry: permissions, size, modification time, name (folders first, with /)",
    ),
    total: z.number().optional().describe("Entries in the folder"),
    note: z.string().optional().describe("How many entries were shown, when not all"),
  }),
  needs: ["read"],
  annotations: ANNOTATIONS.READS,
  async run({ directory }, ctx) {
    const dir = await resolveForRead(ctx.root, directory);
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(dir.abs);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) {
        throw new ToolError(`folder ${quote(dir.rel)} does not exist`);
      }
      throw err;
    }
    if (!info.isDirectory) {
      throw new ToolError(`${quote(dir.rel)} is a file, not a folder; use read_file`);
    }
    // Sort on what readDir already knows; only the entries shown are looked at closely.
    const entries: { name: string; dir: boolean }[] = [];
    for await (const entry of Deno.readDir(dir.abs)) {
      if (ctx.signal.aborted) throw new ToolError("cancelled");
      const linkedDir = entry.isSymlink &&
        await Deno.stat(join(dir.abs, entry.name)).then((s) => s.isDirectory, () => false);
      entries.push({ name: entry.name, dir: entry.isDirectory || linkedDir });
    }
    entries.sort((a, b) =>
      a.dir === b.dir ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.dir ? -1 : 1
    );
    const lines: string[] = [];
    for (const entry of entries.slice(0, MAX_ENTRIES)) {
      const line = _line(join(dir.abs, entry.name), entry.name, entry.dir);
      if (line) lines.push(line);
    }
    return {
      status: "ok",
      directory: dir.rel,
      entries: lines,
      total: entries.length,
      ...(entries.length > lines.length
        ? {
          note: `showing ${lines.length} of ${entries.length} entries; list a subfolder or use ` +
            "find with a glob",
        }
        : {}),
    };
  },
});
