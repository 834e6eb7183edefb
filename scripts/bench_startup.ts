/**
 * Start-up benchmark: spawn → `tools/list` answered, and the server's resident memory then; with
 * `--reference`, the same for another MCP server started by that shell command, interleaved run by
 * run, and the ratio (localexec ÷ reference). Not a test: it prints figures.
 *
 *   deno task bench startup
 *   deno task bench startup --reference "node ./node_modules/@modelcontextprotocol/server-filesystem/dist/index.js /tmp"
 */
import { parseArgs } from "../lib/deps.ts";
import { FULL, machine, MAIN, median, ratio } from "./mcp_driver.ts";

const args = parseArgs({
  args: Deno.args,
  options: { reference: { type: "string" }, runs: { type: "string", default: "10" } },
});

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
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Spawns `argv`, says hello, waits for the tools/list answer. */
async function _once(argv: string[]): Promise<{ ms: number; rssMb: number; tools: number }> {
  const started = performance.now();
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
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
    if (done) throw new Error(`${argv[0]} closed stdout before answering tools/list`);
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
  try {
    child.kill();
  } catch {
    // already gone
  }
  await child.status;
  return { ms, rssMb, tools };
}

/** Runs the benchmark and prints one line per figure. */
export async function benchStartup(): Promise<void> {
  const runs = Number(args.values.runs);
  const root = await Deno.makeTempDir({ prefix: "localexec-bench-" });
  const ours = [Deno.execPath(), "run", "--no-prompt", ...FULL, MAIN, "--root", root];
  const reference = args.values.reference
    ? ["sh", "-c", `exec ${args.values.reference}`]
    : undefined;
  try {
    await _once(ours); // warm the module cache
    if (reference) await _once(reference);
    const a = [];
    const b = [];
    for (let i = 0; i < runs; i++) {
      a.push(await _once(ours));
      if (reference) b.push(await _once(reference));
    }
    console.log(`machine: ${machine()}; runs: ${runs}${reference ? ", interleaved" : ""}; medians`);
    const ms = median(a.map((r) => r.ms));
    console.log(
      `localexec: spawn → tools/list (${a[0].tools} tools) ${ms.toFixed(0)} ms, resident ` +
        `memory then ${median(a.map((r) => r.rssMb)).toFixed(0)} MB`,
    );
    if (reference) {
      const ref = median(b.map((r) => r.ms));
      console.log(
        `reference: spawn → tools/list (${b[0].tools} tools) ${ref.toFixed(0)} ms, resident ` +
          `memory then ${median(b.map((r) => r.rssMb)).toFixed(0)} MB`,
      );
      console.log(`ratio localexec ÷ reference: ${ratio(ms, ref)}`);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) await benchStartup();
