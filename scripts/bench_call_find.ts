/**
 * Benchmark: `localexec call find` with no match in a folder of 30,000 files without git, next to
 * `grep -rl` over the same folder, interleaved run by run (issue 34: a newcomer's first `call find`
 * there took 12–46 s against grep's 0.4–0.8 s). Prints each median and the ratio.
 *
 *   deno task bench call_find                    # generates the tree in a temp folder
 *   deno task bench call_find --tree DIR --runs 9
 *   deno task bench call_find --compare /other/checkout/main.ts   # that main.ts too, interleaved
 *
 * Nothing here is a test: only ratios measured in the same run mean anything.
 */
import { parseArgs } from "../lib/deps.ts";
import { machine, MAIN, median, ratio, timeShell } from "./mcp_driver.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    tree: { type: "string" },
    files: { type: "string", default: "30000" },
    runs: { type: "string", default: "7" },
    pattern: { type: "string", default: "zzqx_nowhere" },
    compare: { type: "string" },
  },
});

/** `n` small Python files in folders of 100, no `.git` anywhere. */
async function _tree(n: number): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "bench_call_find_" });
  const body = Array.from({ length: 20 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`).join(
    "",
  );
  for (let i = 0; i < n; i++) {
    const dir = `${root}/pkg${Math.floor(i / 100)}/sub${Math.floor(i / 100) % 7}`;
    if (i % 100 === 0) await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(`${dir}/file${i % 100}.py`, body);
  }
  await Deno.writeTextFile(`${root}/pyproject.toml`, "[project]\nname = 'bench'\n");
  return root;
}

function _quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

const root = args.tree ?? await _tree(Number(args.files));
const json = _quote(JSON.stringify({ pattern: args.pattern }));
const commands: [string, string][] = [
  ["grep -rl", `grep -rl ${_quote(args.pattern)} .`],
  ["call find", `deno run --no-prompt -A ${_quote(MAIN)} call find ${json} --root .`],
];
if (args.compare) {
  commands.push([
    "call find, --compare",
    `deno run --no-prompt -A ${_quote(args.compare)} call find ${json} --root .`,
  ]);
}
const times = new Map<string, number[]>(commands.map(([label]) => [label, []]));
for (const [, command] of commands) await timeShell(command, root); // (the page cache, deno's cache)
for (let run = 0; run < Number(args.runs); run++) {
  for (const [label, command] of commands) {
    times.get(label)!.push((await timeShell(command, root))[0]);
  }
}
console.log(`${machine()}; ${root}; ${args.runs} runs, interleaved`);
const grep = median(times.get("grep -rl")!);
for (const [label] of commands) {
  const ms = median(times.get(label)!);
  console.log(`${label.padEnd(22)} ${ms.toFixed(0).padStart(6)} ms  ${ratio(ms, grep)} grep -rl`);
}
if (!args.tree) await Deno.remove(root, { recursive: true });
