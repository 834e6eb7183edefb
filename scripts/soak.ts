/**
 * What the soak (`deno task bench soak`) and its short form in the tests share: a generated
 * project in a git repository, a real server on stdio with the SDK's client, one mixed tool call
 * at a time, and the server's memory and descriptors read from /proc (Linux).
 */
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { FULL, MAIN } from "./mcp_driver.ts";

/** The server's resident memory and open descriptors. */
export interface Sample {
  rssMb: number;
  fds: number;
}

/** A running soak: the project, the client and the server's pid. */
export interface Soak {
  root: string;
  client: Client;
  pid: number;
  sample(): Sample;
  /** The open descriptors grouped by what they are (`pipe: 4, socket: 1, …`). */
  descriptors(): string;
  close(): Promise<void>;
}

function _python(n: number, lines: number): string {
  const out = [`"""Module ${n}."""`, "import os", ""];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `LIMIT_${i} = ${i}`,
      `class Widget${i}:`,
      `    def __init__(self, size):`,
      `        self.size = size  # Promise ${i}`,
      `    def area(self):`,
      `        return self.size * ${i}`,
      `def make_${i}(size):`,
      `    return Widget${i}(size)`,
      "",
    );
  }
  return out.join("\n");
}

function _typescript(n: number, lines: number): string {
  const out = [`// module ${n}`];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `export const LIMIT_${i} = ${i};`,
      `export class Widget${i} {`,
      `  constructor(private size: number) {}`,
      `  area(): Promise<number> {`,
      `    return Promise.resolve(this.size * ${i});`,
      `  }`,
      `}`,
      "",
    );
  }
  return out.join("\n");
}

function _rust(n: number, lines: number): string {
  const out = [`//! crate ${n}`];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `pub struct Widget${i} { size: u32 }`,
      `impl Widget${i} {`,
      `    pub fn area(&self) -> u32 { self.size * ${i} }`,
      `}`,
      `pub fn make_${i}(size: u32) -> Widget${i} { Widget${i} { size } }`,
      "",
    );
  }
  return out.join("\n");
}

/** The generated project's source files (relative paths). */
export const SOURCES: string[] = [];
for (let d = 0; d < 6; d++) {
  for (let f = 0; f < 20; f++) {
    SOURCES.push(`pkg${d}/m${f}.${["py", "ts", "rs"][f % 3]}`);
  }
}

/**
 * Writes the project: 120 source files (one in ten `bigLines` lines, 10,000 by default, the others
 * 300) in git.
 */
export async function makeProject(root: string, bigLines = 10_000): Promise<void> {
  for (const [i, rel] of SOURCES.entries()) {
    const lines = i % 10 === 0 ? bigLines : 300;
    await Deno.mkdir(`${root}/${rel.slice(0, rel.indexOf("/"))}`, { recursive: true });
    const make = rel.endsWith(".py") ? _python : rel.endsWith(".ts") ? _typescript : _rust;
    await Deno.writeTextFile(`${root}/${rel}`, make(i, lines));
  }
  await Deno.mkdir(`${root}/scratch`, { recursive: true });
  const git = (...args: string[]) =>
    new Deno.Command("git", { args, cwd: root, stdout: "null", stderr: "null" }).output();
  await git("init", "-q");
  await git("add", "-A");
  await git("-c", "user.email=s@x", "-c", "user.name=soak", "commit", "-qm", "soak");
}

/** Generates a project in a temp folder and starts a server on it with a client. */
export async function startSoak(bigLines?: number): Promise<Soak> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-soak-" }));
  await makeProject(root, bigLines);
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "--no-prompt", ...FULL, MAIN, "--root", root],
    env: { ...Deno.env.toObject(), NO_COLOR: "1" },
    stderr: "ignore",
  });
  const client = new Client({ name: "localexec-soak", version: "0" });
  await client.connect(transport);
  const pid = transport.pid!;
  return {
    root,
    client,
    pid,
    sample() {
      const status = Deno.readTextFileSync(`/proc/${pid}/status`);
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return { rssMb: rssKb / 1024, fds: [...Deno.readDirSync(`/proc/${pid}/fd`)].length };
    },
    descriptors() {
      const kinds = new Map<string, number>();
      for (const e of Deno.readDirSync(`/proc/${pid}/fd`)) {
        let target: string;
        try {
          target = Deno.readLinkSync(`/proc/${pid}/fd/${e.name}`);
        } catch {
          continue; // closed meanwhile
        }
        const kind = target.replace(/:\[\d+\]$/, "").replace(/^\/.*/, "file");
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      return [...kinds].sort().map(([k, n]) => `${k}: ${n}`).join(", ");
    },
    async close() {
      await client.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

const PATTERNS = [
  "Promise",
  "Widget17",
  "def make_",
  "size \\* 9\\b",
  "LIMIT_1[0-9]",
  "nomatch_zz",
];

/**
 * Call number `i` of the mixed run, one of thirteen kinds in turn (reads, lists, finds, outlines of
 * kept and of changed files, writes, patches, shell, status, list_tasks). Returns the tool's name
 * and its answer when it answered with an error, else undefined.
 */
export async function mixedCall(
  soak: Soak,
  i: number,
): Promise<{ name: string; text: string } | undefined> {
  const source = SOURCES[(i * 7) % SOURCES.length];
  const scratch = `scratch/s${Math.floor(i / 13) % 5}.py`;
  const calls: [string, Record<string, unknown>][] = [
    ["read_file", { filename: source, start_line: 1, end_line: 80 }],
    ["list_files", { directory: source.slice(0, source.indexOf("/")) }],
    ["find", { pattern: PATTERNS[i % PATTERNS.length], max_results: 30 }],
    ["outline", { path: source }],
    ["write_file", { file_path: scratch, content: _python(i, 40 + (i % 13)) }],
    ["outline", { path: scratch }],
    ["read_file", { filename: scratch, line_numbers: true }],
    ["patch_file", { file_path: scratch, from_line: 2, to_line: 2, content: `import sys  # ${i}` }],
    ["shell", { command: `echo ${i} && git status --short | head -3` }],
    ["status", {}],
    ["list_tasks", { limit: 5 }],
    ["find", { pattern: "widget", ignore_case: true, glob: "*.py", max_results: 30 }],
    ["outline", { path: SOURCES[(i * 3) % SOURCES.length] }],
  ];
  const [name, args] = calls[i % calls.length];
  const result = await soak.client.callTool({ name, arguments: args });
  const text = (result.content as { text?: string }[])[0]?.text ?? "";
  // status answers "error" while no model server answers: not the soak's concern.
  return name !== "status" && /^\{"status":"error"/.test(text) ? { name, text } : undefined;
}
