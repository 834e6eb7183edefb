/**
 * The benchmarks still run: find on a small generated tree, outline on a generated file, both in a
 * real server, one run each. Figures are printed, never asserted.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const BENCH = fileURLToPath(new URL("../scripts/bench.ts", import.meta.url));

async function bench(...args: string[]): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "-A", BENCH, ...args],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, text + new TextDecoder().decode(out.stderr));
  return text;
}

Deno.test("deno task bench find and outline run and print ratios", async () => {
  const find = await bench("find", "--files", "150", "--runs", "1");
  assert.match(find, /warm full scan, no match/);
  assert.match(find, /server memory \(MB\): idle \d+/);
  const outline = await bench("outline", "--runs", "1", "--lines", "2000");
  assert.match(outline, /generated\.ts\s+\|\s+\d+ \|\s+\d+ \|/);
  assert.match(outline, /generated\.py\s+\|.*\(\d+(\.\d+)?\) \|.*× \(.*×\)/); // fresh and bare parse
});
