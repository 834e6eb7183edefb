/**
 * The shape every tool in `tools/` exports, and the context its handler receives.
 *
 * A tool declares its input once as a zod object; the handler's argument type is inferred from it.
 * Handlers return a plain JSON object (or a {@linkcode RichResult} when they carry media) and throw
 * on failure; `lib/mcp/boundary.ts` turns both into the MCP result.
 */
import type { z } from "zod";
import type { ReadMarks } from "./read_marks.ts";
import type { RunningTasks } from "./running.ts";
import type { HostSlots } from "../model/mod.ts";
import type { LandingRounds } from "../implement/mod.ts";

/** A permission a tool needs from Deno before it is offered. */
export type Need = "read" | "write" | "run" | "net";

/** MCP tool annotations; `openWorldHint` is always false for localexec's tools. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

/** The four annotation sets localexec's tools use. */
export const ANNOTATIONS = {
  /** Looks, never changes anything. */
  READS: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  /** Changes files or runs commands; calling twice does more. */
  CHANGES: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  /** Replaces content; calling twice with the same arguments ends the same. */
  OVERWRITES: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  /** Runs the project's checks: not read-only, but changes nothing of the user's. */
  RUNS_CHECKS: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
} as const satisfies Record<string, ToolAnnotations>;

/**
 * A tool as known before its module loads: what the permission check and `tools/list` need
 * (`tools/manifest.json` holds it for every tool), and the module itself on the first call.
 */
export interface ToolEntry {
  readonly name: string;
  readonly needs: readonly Need[];
  /** Its `readOnlyHint`: whether `--read-only` keeps it on. */
  readonly readOnly: boolean;
  /** Its `tools/list` entry, exactly as `describeTool` makes it (the same object every time). */
  describe(): Record<string, unknown>;
  /** The tool itself, its module loaded on first use. */
  load(): Promise<AnyTool>;
}

/** The tools that are on, and for each tool that is off the reason. */
export interface ToolAvailability {
  on: ToolEntry[];
  off: { name: string; why: string; entry: ToolEntry }[];
}

/**
 * Per-server state. Created once in `main.ts` and handed to every tool call; only MCP roots
 * (`roots.ts`) point it at another root, between calls.
 */
export interface ServerState {
  /** The project root as a real path. */
  readonly root: string;
  /** Why serving this root deserves a second look (home folder, no project marker), if it does. */
  readonly rootWarning?: string;
  /** The configuration file (`<root>/.localexec.json` unless `--config` says otherwise). */
  readonly configPath: string;
  /** Which tools are on, and why the others are off. */
  readonly tools: ToolAvailability;
  /** Files this server last showed with line numbers: what `patch_file` requires. */
  readonly shown: ReadMarks;
  /** The process answers this one call and exits (`localexec call`): nothing is worth keeping. */
  readonly once?: boolean;
  /** The tasks this server runs in the background (implement_task with `wait_s`). */
  readonly tasks: RunningTasks;
  /** The chats in progress on each model host, shared by this server's tasks (`parallel`). */
  readonly slots: HostSlots;
  /** The landing rounds of implement_task's tasks: those landing together check again once. */
  readonly rounds: LandingRounds;
  /** The server's `--wait-s`: implement_task's default `wait_s`, before the config's. */
  readonly waitS?: number;
  /** The client's name from `initialize` (`clientInfo.name`), once it has said it. */
  client?: string;
}

/** What a handler gets besides its arguments. */
export interface ToolContext {
  /** The project root, as a real path (symlinks resolved). */
  readonly root: string;
  /** Aborted when the client cancels the call or the server shuts down. */
  readonly signal: AbortSignal;
  /** Reports progress to the client when it asked for it; a no-op otherwise. */
  progress(message: string, progress?: number, total?: number): void;
  /** State shared by every call of this server (read marks, permissions, lock). */
  readonly state: ServerState;
  /**
   * Adds a warning to this call's answer (`warnings`), e.g. an unknown key in the config the tool
   * read; the boundary adds them, once each, to whatever the tool answers, errors included.
   */
  warn?(text: string): void;
}

/** One MCP content block that is not the JSON text itself (images, audio, resources). */
export type ContentBlock =
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | {
    type: "resource";
    resource: { uri: string; mimeType: string; blob: string };
  };

/** A result that carries media blocks after its JSON summary. */
export class RichResult {
  constructor(
    readonly json: Record<string, unknown>,
    readonly blocks: ContentBlock[],
  ) {}
}

/** What a handler may return. */
export type ToolOutput = Record<string, unknown> | RichResult;

/** The definition each `tools/<name>.ts` exports. */
export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** Written for the calling model: when to use it, what it returns, what it costs. */
  description: string;
  input: S;
  /** Describes `structuredContent`; kept loose (extra keys allowed) so it never rejects a result. */
  output: z.ZodObject;
  needs: readonly Need[];
  annotations: ToolAnnotations;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolOutput>;
  /**
   * Extra fields for this tool's error results (invalid arguments or a thrown error), for tools
   * whose reference (docs/reference/) promises fields on every result (implement_task's `attempts` and `why`).
   */
  errorFields?(message: string): Record<string, unknown>;
}

/** Any tool, whatever its input schema. */
// deno-lint-ignore no-explicit-any
export type AnyTool = ToolDef<any>;

/**
 * A tool description as written in its `tools/<name>.md` file: lines wrapped for review are joined
 * with single spaces, and paragraphs (blank lines) are kept.
 */
export function prose(markdown: string): string {
  return markdown.trim().split(/\n\s*\n/).map((p) => p.split("\n").map((l) => l.trim()).join(" "))
    .join("\n\n");
}

/** Identity helper that lets TypeScript infer the handler's argument type from `input`. */
export function defineTool<S extends z.ZodObject>(def: ToolDef<S>): ToolDef<S> {
  return def;
}
