/**
 * Start-up benchmark: spawn → `tools/list` answered, median of 10 runs, and the server's resident
 * memory after answering. Not a test: it prints figures (targets: < 300 ms, < 100 MB).
 *
 *   deno task bench startup
 */
import { fileURLToPath } from "node:url";
import { PRESETS } from "../lib/mcp/mod.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const RUNS = 10;

const HELLO = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bench", version: "0" },
    },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
].map((m) => JSON.stringify(m)).join("\n") + "\n";

function _rssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function _once(root: string): Promise<{ ms: number; rssMb: number; tools: number }> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...PRESETS.full, MAIN, "--root", root],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(HELLO));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let tools = 0;
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error("server closed stdout before answering tools/list");
    buffered += value;
    const line = buffered.split("\n").find((l) => l.includes('"id":2'));
    if (line) {
      tools = JSON.parse(line).result.tools.length;
      break;
    }
  }
  const ms = performance.now() - started;
  const rssMb = _rssMb(child.pid);
  await writer.close();
  await reader.cancel();
  await child.status;
  return { ms, rssMb, tools };
}

function _median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Runs the benchmark and prints one line per figure. */
export async function benchStartup(): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "localexec-bench-" });
  try {
    await _once(root); // warm the module cache
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await _once(root));
    const ms = _median(runs.map((r) => r.ms));
    const rss = _median(runs.map((r) => r.rssMb));
    console.log(
      `startup: spawn → tools/list (${runs[0].tools} tools), median of ${RUNS}: ${
        ms.toFixed(0)
      } ms (target < 300)`,
    );
    console.log(
      `startup: resident memory after tools/list, median: ${rss.toFixed(1)} MB (target < 100)`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) await benchStartup();
