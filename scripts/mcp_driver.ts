/**
 * What the benchmarks share: a localexec server driven over stdio with plain JSON-RPC lines (as a
 * client would), timing of reference commands as whole processes, medians and the machine's facts.
 */
import { fileURLToPath } from "node:url";
import { PRESETS } from "../lib/mcp/mod.ts";

/** Absolute path of `main.ts`. */
export const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

/** The full preset's permission flags (as `deno task start`). */
export const FULL: string[] = [...PRESETS.full];

/** A localexec server on stdio. */
export class Server {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #pending = new Map<number, (result: unknown) => void>();
  #id = 0;

  /** `flags`: Deno's permission flags, the full preset's by default; `main`: another checkout's. */
  /** `env`: variables the server gets besides this process's own. */
  constructor(
    root: string,
    flags: readonly string[] = FULL,
    main = MAIN,
    env: Record<string, string> = {},
  ) {
    this.#child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", ...flags, main, "--root", root],
      env,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#pump(this.#child.stdout.pipeThrough(new TextDecoderStream()));
  }

  /** Reads answers and hands each to the call waiting for its id (calls may overlap). */
  async #pump(lines: ReadableStream<string>): Promise<void> {
    let buffer = "";
    for await (const chunk of lines) {
      buffer += chunk;
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        this.#pending.get(message.id)?.(message.result);
        this.#pending.delete(message.id);
      }
    }
  }

  async #send(method: string, params: unknown, notify = false): Promise<unknown> {
    const id = notify ? undefined : ++this.#id;
    const answer = id ? new Promise((resolve) => this.#pending.set(id, resolve)) : undefined;
    const line = JSON.stringify({ jsonrpc: "2.0", method, params, ...(id ? { id } : {}) });
    await this.#writer.write(new TextEncoder().encode(`${line}\n`));
    return await answer;
  }

  /** Initializes the session. */
  async start(): Promise<this> {
    await this.#send("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bench", version: "0" },
    });
    await this.#send("notifications/initialized", {}, true);
    return this;
  }

  /** Asks for the tools, as a client does once it has started the server; returns their names. */
  async tools(): Promise<string[]> {
    const result = await this.#send("tools/list", {}) as { tools: { name: string }[] };
    return result.tools.map((tool) => tool.name);
  }

  /** Calls a tool; returns its JSON result. */
  async call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const result = await this.#send("tools/call", { name, arguments: args }) as {
      content: { text: string }[];
    };
    return JSON.parse(result.content[0].text);
  }

  /** The server's process id. */
  get pid(): number {
    return this.#child.pid;
  }

  /** The server's resident memory in MB. */
  rssMb(): number {
    const status = Deno.readTextFileSync(`/proc/${this.#child.pid}/status`);
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  }

  /** Ends the server. */
  async close(): Promise<void> {
    await this.#writer.close();
    await this.#child.status;
  }
}

/** Milliseconds and stdout lines of `sh -c command` in `cwd`, as one whole process. */
export async function timeShell(command: string, cwd: string): Promise<[number, number]> {
  const started = performance.now();
  const out = await new Deno.Command("sh", {
    args: ["-c", command],
    cwd,
    stdout: "piped",
    stderr: "null",
  }).output();
  const ms = performance.now() - started;
  let lines = 0;
  for (const b of out.stdout) if (b === 10) lines++;
  return [ms, lines];
}

/**
 * CPU time in milliseconds that process `pid`'s threads have run so far (Linux's schedstat: what a
 * busy machine's waiting does not inflate); NaN where there is no /proc.
 */
export function cpuMs(pid: number): number {
  try {
    let ns = 0;
    for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(
          Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/schedstat`).split(" ")[0],
        );
      } catch {
        // the thread ended meanwhile
      }
    }
    return ns / 1e6;
  } catch {
    return NaN;
  }
}

/** Milliseconds `run` takes, and its value. */
export async function timed<T>(run: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await run();
  return [performance.now() - started, value];
}

/** The median of `xs`. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** True when `command --version` runs. */
export async function has(command: string): Promise<boolean> {
  try {
    const out = await new Deno.Command(command, {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success;
  } catch {
    return false;
  }
}

/** One line about the machine: cores, load, Deno's version. */
export function machine(): string {
  let load = "?";
  try {
    load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    // not Linux
  }
  return `${navigator.hardwareConcurrency} cores, load ${load}, deno ${Deno.version.deno}`;
}

/** `a / b` as a ratio cell. */
export function ratio(a: number, b: number): string {
  return Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : "-";
}
