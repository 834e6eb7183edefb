/**
 * Soak: a long run of mixed tool calls against one real server (a subprocess on stdio, driven by
 * the SDK's client as an MCP client does), sampling the server's resident memory (VmRSS) and open
 * descriptors (/proc/PID/fd) as it goes. Prints the samples, what the descriptors are at the end,
 * and whether memory and descriptors stayed flat after warm-up. Not a test (the short form that
 * asserts descriptors is tests/scripts/soak_test.ts).
 *
 *   deno task bench soak                 # 1,000 calls on a generated project
 *   deno task bench soak --calls 300 --every 50
 *
 * Linux only (/proc). The project is generated (Python, TypeScript and Rust files of a few hundred
 * to 10,000 lines, in a git repository), so the run needs nothing else.
 */
import { parseArgs } from "../lib/deps.ts";
import { machine } from "./mcp_driver.ts";
import { mixedCall, type Soak, startSoak } from "./soak.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    calls: { type: "string", default: "1000" },
    every: { type: "string", default: "100" },
    warmup: { type: "string", default: "200" },
  },
});

/** A row of figures. */
function _row(soak: Soak, calls: number): string {
  const s = soak.sample();
  return `${String(calls).padStart(6)} | ${s.rssMb.toFixed(0).padStart(7)} | ${
    String(s.fds).padStart(4)
  }`;
}

async function main(): Promise<void> {
  const calls = Number(args.values.calls);
  const every = Number(args.values.every);
  const warmup = Math.min(Number(args.values.warmup), calls);
  console.log(`machine: ${machine()}; ${calls} mixed calls, a sample every ${every}`);
  const soak = await startSoak();
  try {
    const idle = soak.sample();
    console.log(" calls | RSS MB | fds");
    console.log(`  idle | ${idle.rssMb.toFixed(0).padStart(7)} | ${String(idle.fds).padStart(4)}`);
    const rss: number[] = [];
    const fds: number[] = [];
    const failures = new Map<string, number>();
    const examples = new Map<string, string>();
    for (let i = 1; i <= calls; i++) {
      const failed = await mixedCall(soak, i);
      if (failed) {
        failures.set(failed.name, (failures.get(failed.name) ?? 0) + 1);
        if (!examples.has(failed.name)) examples.set(failed.name, failed.text.slice(0, 300));
      }
      if (i % every === 0 || i === calls) {
        await new Promise((r) => setTimeout(r, 50)); // children reaped, pipes closed
        const s = soak.sample();
        if (i >= warmup) {
          rss.push(s.rssMb);
          fds.push(s.fds);
        }
        console.log(_row(soak, i));
      }
    }
    console.log(`\ndescriptors at the end: ${soak.descriptors()}`);
    for (const [name, n] of failures) {
      console.log(`${n} ${name} calls failed, e.g. ${examples.get(name)}`);
    }
    const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
    console.log(
      `after warm-up (${warmup} calls): RSS ${Math.min(...rss).toFixed(0)}-${
        Math.max(...rss).toFixed(0)
      } MB (spread ${spread(rss).toFixed(0)} MB; idle ${idle.rssMb.toFixed(0)}), descriptors ${
        Math.min(...fds)
      }-${Math.max(...fds)} (idle ${idle.fds})`,
    );
  } finally {
    await soak.close();
  }
}

if (import.meta.main) await main();
