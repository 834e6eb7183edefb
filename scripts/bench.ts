/**
 * Runs the benchmarks: `deno task bench [NAME…] [ARG…]`, where NAME is one of the
 * `scripts/bench_*.ts` files without prefix and extension (startup, find, outline, replies,
 * implement, workspace). With no name, all of them run, one fresh process each. The arguments after the names
 * go to each benchmark (`deno task bench find --tree DIR`, `deno task bench outline a.py b.rs`).
 * Benchmarks print figures and ratios; none asserts a time.
 */
import { fileURLToPath } from "node:url";

const DIR = fileURLToPath(new URL(".", import.meta.url));
const available: string[] = [];
for await (const e of Deno.readDir(DIR)) {
  const m = /^bench_(.+)\.ts$/.exec(e.name);
  if (m) available.push(m[1]);
}
available.sort();
let names = 0;
while (names < Deno.args.length && available.includes(Deno.args[names])) names++;
if (!names && Deno.args.length && !Deno.args[0].startsWith("-")) {
  console.error(`no benchmark "${Deno.args[0]}"; available: ${available.join(", ")}`);
  Deno.exit(1);
}
const wanted = names ? Deno.args.slice(0, names) : available;
const rest = Deno.args.slice(names);
let failed = 0;
for (const name of wanted) {
  if (!available.includes(name)) {
    console.error(`no benchmark "${name}"; available: ${available.join(", ")}`);
    failed++;
    continue;
  }
  console.log(`== ${name}`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "-A", `${DIR}bench_${name}.ts`, ...rest],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) failed++;
}
Deno.exit(failed ? 1 : 0);
