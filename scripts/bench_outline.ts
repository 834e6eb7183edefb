/**
 * Benchmark: `outline` of a 10,000+ line TypeScript file, warm (grammar loaded) and as the first
 * call in a fresh process, next to `ctags` when it is installed.
 *
 *   deno run -A scripts/bench_outline.ts                   # generates a 12,000-line file in /tmp
 *   deno run -A scripts/bench_outline.ts --file big.ts     # any file outline reads
 *   deno run -A scripts/bench_outline.ts --runs 9
 *
 * Prints medians and the ratios measured in this run; nothing here is a test.
 */
import { parseArgs } from "../lib/deps.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    file: { type: "string" },
    lines: { type: "string", default: "12000" },
    runs: { type: "string", default: "7" },
    child: { type: "boolean", default: false },
  },
});

/** A deterministic TypeScript file of about `lines` lines with every kind outline lists. */
function _typescript(lines: number): string {
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `export const LIMIT_${i} = ${i};`,
      `export interface Shape${i} {`,
      `  area(): number;`,
      `  name: string;`,
      `}`,
      `export type Id${i} = string | number;`,
      `export enum Color${i} { Red, Green, Blue }`,
      `export class Widget${i} implements Shape${i} {`,
      `  static readonly KIND = "widget${i}";`,
      `  name = "w${i}";`,
      `  constructor(private size: number, private label: string) {}`,
      `  area(): number {`,
      `    const scaled = this.size * ${i};`,
      `    if (scaled > 100) {`,
      `      return scaled / 2;`,
      `    }`,
      `    return scaled;`,
      `  }`,
      `  describe(prefix: string): string {`,
      "    return `${prefix}: ${this.label} (${this.area()})`;",
      `  }`,
      `  onClick = (event: Event): void => {`,
      `    console.log(event.type, this.name);`,
      `  };`,
      `}`,
      `export function make${i}(size: number): Widget${i} {`,
      `  const widget = new Widget${i}(size, "made");`,
      `  for (let k = 0; k < size; k++) widget.name += k;`,
      `  return widget;`,
      `}`,
      ``,
    );
  }
  return out.join("\n");
}

function _median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Child mode: one outline in a fresh process; prints milliseconds since the process started. */
async function _child(file: string): Promise<void> {
  const { outlineSource, readSource } = await import("../lib/outline/mod.ts");
  const source = await readSource(file, file);
  const { items } = await outlineSource(source.language, source.text);
  console.log(JSON.stringify({ ms: performance.now(), items: items.length }));
}

async function _fresh(file: string): Promise<{ inProcess: number; wall: number; items: number }> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "-A",
      new URL(import.meta.url).pathname,
      "--child",
      "--file",
      file,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const wall = performance.now() - started;
  const { ms, items } = JSON.parse(new TextDecoder().decode(out.stdout));
  return { inProcess: ms, wall, items };
}

async function _ctags(file: string): Promise<[number, number] | undefined> {
  try {
    const started = performance.now();
    const out = await new Deno.Command("ctags", {
      args: ["-f", "-", "--fields=+ne", file],
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!out.success) return undefined;
    const tags = new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).length;
    return [performance.now() - started, tags];
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  if (args.values.child) return await _child(args.values.file!);
  const runs = Number(args.values.runs);
  let file = args.values.file;
  if (!file) {
    file = await Deno.makeTempFile({ prefix: "localexec-bench-outline-", suffix: ".ts" });
    await Deno.writeTextFile(file, _typescript(Number(args.values.lines)));
  }
  const lineCount = (await Deno.readTextFile(file)).split("\n").length;
  const { outlineSource, readSource } = await import("../lib/outline/mod.ts");
  const source = await readSource(file, file);

  const loadStarted = performance.now();
  const first = await outlineSource(source.language, source.text);
  const firstInProcess = performance.now() - loadStarted;
  const warm: number[] = [];
  const fresh: { inProcess: number; wall: number }[] = [];
  const ctags: number[] = [];
  let tags = 0;
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    await outlineSource(source.language, await Deno.readTextFile(file));
    warm.push(performance.now() - started);
    fresh.push(await _fresh(file));
    const c = await _ctags(file);
    if (c) {
      ctags.push(c[0]);
      tags = c[1];
    }
  }
  const w = _median(warm);
  console.log(
    `file: ${file} (${lineCount} lines, ${source.language}, ${first.items.length} items)`,
  );
  console.log(`runs: ${runs} (medians)\n`);
  console.log(`outline, grammar loaded (read + parse + walk): ${w.toFixed(0)} ms`);
  console.log(
    `outline, first call in this process (loads runtime + grammar): ${
      firstInProcess.toFixed(0)
    } ms`,
  );
  console.log(
    `outline, fresh process, from process start to result: ${
      _median(fresh.map((f) => f.inProcess)).toFixed(0)
    } ms (whole \`deno run\` wall time ${_median(fresh.map((f) => f.wall)).toFixed(0)} ms)`,
  );
  if (ctags.length) {
    const c = _median(ctags);
    console.log(
      `ctags (whole process, ${tags} tags): ${c.toFixed(0)} ms; outline warm / ctags = ${
        (w / c).toFixed(2)
      }x`,
    );
  } else {
    console.log("ctags: not installed");
  }
  if (!args.values.file) await Deno.remove(file);
}

if (import.meta.main) await main();
