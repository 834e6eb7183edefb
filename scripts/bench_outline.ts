/**
 * Benchmark: `outline` in a warm server (one localexec process, called over stdio as a client
 * does) and one-shot (`localexec call outline`), next to `ctags -x` as a whole process, interleaved
 * run by run; prints medians and ratios (localexec ÷ ctags).
 *
 *   deno task bench outline                   # a generated 12,000-line TypeScript file
 *   deno task bench outline FILE… [--runs 9]  # any files outline reads
 *
 * Three localexec figures per file: warm (the same file again: the kept outline answers after
 * the file's bytes are read and hashed), warm after an edit (a comment appended each run, so the
 * worker re-parses what changed), and one-shot (Deno's start-up included). Last, a 4 MB one-line
 * file of nested arrays is outlined while `list_files` is called every 200 ms: how long those calls
 * take meanwhile, and the server's memory before and after. Not a test.
 */
import { basename, dirname, resolve } from "../lib/deps.ts";
import { parseArgs } from "../lib/deps.ts";
import { FULL, has, machine, MAIN, median, ratio, Server, timed, timeShell } from "./mcp_driver.ts";

const args = parseArgs({
  args: Deno.args,
  options: { runs: { type: "string", default: "7" } },
  allowPositionals: true,
});

/** A deterministic TypeScript file of about `lines` lines. */
function _typescript(lines: number): string {
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `export const LIMIT_${i} = ${i};`,
      `export interface Shape${i} {`,
      `  area(): number;`,
      `}`,
      `export class Widget${i} implements Shape${i} {`,
      `  constructor(private size: number) {}`,
      `  area(): number {`,
      `    return this.size * ${i};`,
      `  }`,
      `}`,
      `export function make${i}(size: number): Widget${i} {`,
      `  return new Widget${i}(size);`,
      `}`,
      ``,
    );
  }
  return out.join("\n");
}

const COMMENT: Record<string, string> = { ".py": "#", ".rb": "#", ".sh": "#" };

function _q(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

async function main(): Promise<void> {
  const runs = Number(args.values.runs);
  let files = args.positionals.map((f) => resolve(f));
  const temp = await Deno.makeTempDir({ prefix: "localexec-bench-outline-" });
  if (!files.length) {
    files = [`${temp}/generated.ts`];
    await Deno.writeTextFile(files[0], _typescript(12_000));
  }
  const haveCtags = await has("ctags");
  console.log(`machine: ${machine()}; runs: ${runs}, interleaved; medians`);
  console.log(haveCtags ? "" : "ctags is not installed: the reference columns stay empty\n");
  console.log(
    "file                     | lines | items | warm ms | edited ms | one-shot ms | ctags -x ms " +
      "(tags) | warm ÷ ctags | edited ÷ ctags",
  );
  console.log("-".repeat(130));
  for (const file of files) {
    // The file and an editable copy, each in a project of its own folder.
    const root = dirname(file);
    const name = basename(file);
    const copyRoot = await Deno.makeTempDir({ dir: temp });
    const text = await Deno.readTextFile(file);
    const mark = COMMENT[name.slice(name.lastIndexOf("."))] ?? "//";
    const server = await new Server(root).start();
    const editor = await new Server(copyRoot).start();
    await Deno.writeTextFile(`${copyRoot}/${name}`, text);
    const first = await server.call("outline", { path: name, max_items: 5000 });
    await editor.call("outline", { path: name, max_items: 5000 });
    const warm: number[] = [];
    const edited: number[] = [];
    const once: number[] = [];
    const ctags: number[] = [];
    let tags = 0;
    for (let r = 0; r < runs; r++) {
      warm.push((await timed(() => server.call("outline", { path: name, max_items: 5000 })))[0]);
      await Deno.writeTextFile(`${copyRoot}/${name}`, `${text}\n${mark} edit ${r}\n`);
      edited.push((await timed(() => editor.call("outline", { path: name, max_items: 5000 })))[0]);
      once.push(
        (await timeShell(
          `${_q(Deno.execPath())} run --no-prompt ${FULL.join(" ")} ${_q(MAIN)} call outline ` +
            `${_q(JSON.stringify({ path: name }))} --root ${_q(root)}`,
          root,
        ))[0],
      );
      if (haveCtags) {
        const [ms, n] = await timeShell(`ctags -x ${_q(name)}`, root);
        ctags.push(ms);
        tags = n;
      }
    }
    await server.close();
    await editor.close();
    const [w, e, o, c] = [warm, edited, once, ctags].map((xs) => xs.length ? median(xs) : NaN);
    console.log(
      `${name.slice(0, 24).padEnd(24)} |${String(text.split("\n").length).padStart(6)} |${
        String(first.total).padStart(6)
      } |${w.toFixed(1).padStart(8)} |${e.toFixed(1).padStart(10)} |${o.toFixed(0).padStart(12)} |${
        `${c.toFixed(1)} (${tags})`.padStart(19)
      } |${ratio(w, c).padStart(12)} |${ratio(e, c).padStart(15)}`,
    );
  }
  await _huge(temp);
  await Deno.remove(temp, { recursive: true });
}

/** A 4 MB outline beside other calls: their answer times, and the memory it leaves behind. */
async function _huge(temp: string): Promise<void> {
  const root = await Deno.makeTempDir({ dir: temp });
  const rows = "[1, [2, [3, [4, 5]]], 'x'],".repeat(150_000);
  await Deno.writeTextFile(`${root}/huge.js`, `const data = [${rows}];\nfunction after() {}\n`);
  await Deno.writeTextFile(`${root}/small.py`, "def f():\n    pass\n");
  const server = await new Server(root).start();
  await server.call("outline", { path: "small.py" }); // the worker is up
  const before = server.rssMb();
  let done = false;
  const started = performance.now();
  const outline = server.call("outline", { path: "huge.js" }).finally(() => (done = true));
  const lists: number[] = [];
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (!done) lists.push((await timed(() => server.call("list_files", {})))[0]);
  }
  const out = await outline;
  const ms = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 500)); // the replaced worker's memory goes
  const after = server.rssMb();
  await server.close();
  console.log(
    `\n4 MB one-line file: outline ${ms.toFixed(0)} ms (${out.status}); list_files meanwhile: ` +
      `${lists.length} calls, slowest ${Math.max(0, ...lists).toFixed(0)} ms; server memory ` +
      `${before.toFixed(0)} → ${after.toFixed(0)} MB`,
  );
}

if (import.meta.main) await main();
