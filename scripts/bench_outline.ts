/**
 * Benchmark: `outline` in a warm server (one localexec process, called over stdio as a client
 * does) and one-shot (`localexec call outline`), next to `ctags -x` as a whole process and a bare
 * web-tree-sitter parse of the same text in this process, interleaved run by run; prints medians
 * and ratios.
 *
 *   deno task bench outline [--lines 10000]   # generated Python, Rust, TypeScript files
 *   deno task bench outline --languages go,java,rb,sh,c,cpp,js,tsx   # generated files of those
 *   deno task bench outline FILE… [--runs 9]  # any files outline reads
 *   deno task bench outline FILE… --fresh [--compare /tmp/base/main.ts]  # fresh outlines only
 *
 * Four localexec figures per file: fresh (a copy under a new name each run, which the server has
 * never seen: read, hashed, parsed whole and walked; one server takes every file's copies in turn,
 * as a session moves between languages, and the first copy of each file is not timed, so the
 * worker is up and the grammars loaded), warm (the same file again: the kept outline
 * answers after the file's bytes are read and hashed), warm after an edit (a comment appended each
 * run, so the worker re-parses what changed), and one-shot (Deno's start-up included). The floor
 * for fresh is the bare parse: `parser.parse(text)` with the same grammar here, after a few
 * untimed parses so V8 has compiled the grammar's hot functions with its optimizing tier (as the
 * server's worker does while idle), timed right before and right after each fresh outline. Last, a
 * 4 MB one-line file of nested arrays is outlined while `list_files` is called every 200 ms: how
 * long those calls take meanwhile, and the server's memory before and after. `--fresh` times the
 * fresh outlines only (no warm, edited, one-shot, ctags or 4 MB runs: quicker to repeat on a
 * loaded machine); `--compare MAIN` has a server of another checkout outline the same fresh copies,
 * interleaved, each between two bare parses. Every outline asks `max_items` 5000 (all items: the
 * whole answer is timed; a 1,913-item `.d.ts` is a 415 KB message) unless `--max-items N` says
 * otherwise (60: the tool's default). Not a test.
 */
import { basename, dirname, resolve } from "../lib/deps.ts";
import { languageOf, loadCoreWasm, loadGrammarWasm } from "../lib/outline/languages.ts";
import { sample, SAMPLE_EXTENSIONS } from "./outline_samples.ts";
import { parseArgs } from "../lib/deps.ts";
import {
  cpuMs,
  FULL,
  has,
  machine,
  MAIN,
  median,
  ratio,
  Server,
  timed,
  timeShell,
} from "./mcp_driver.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "7" },
    lines: { type: "string", default: "10000" },
    languages: { type: "string", default: "py,rs,ts" },
    fresh: { type: "boolean", default: false },
    compare: { type: "string" },
    "max-items": { type: "string", default: "5000" },
  },
  allowPositionals: true,
});

/** The `max_items` every outline asks: all items by default (the whole answer, timed). */
const MAX_ITEMS = Number(args.values["max-items"]);

/** A deterministic file of about `lines` lines in the language of `ext`. */
export function generated(ext: ".py" | ".rs" | ".ts", lines: number): string {
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) {
    if (ext === ".py") {
      out.push(
        `LIMIT_${i} = ${i}`,
        `class Widget${i}(Shape):`,
        `    """A widget of size ${i}."""`,
        `    def __init__(self, size: int) -> None:`,
        `        self.size = size`,
        `    @property`,
        `    def area(self) -> int:`,
        `        return self.size * ${i} if self.size else [x for x in range(${i})][0]`,
        `def make_${i}(size: int) -> Widget${i}:`,
        `    return Widget${i}(size)`,
        ``,
      );
    } else if (ext === ".rs") {
      out.push(
        `pub const LIMIT_${i}: u32 = ${i};`,
        `#[derive(Debug, Clone)]`,
        `pub struct Widget${i} {`,
        `    size: u32,`,
        `}`,
        `impl Shape for Widget${i} {`,
        `    fn area(&self) -> u32 {`,
        `        match self.size { 0 => ${i}, n => n * ${i} }`,
        `    }`,
        `}`,
        `pub fn make_${i}(size: u32) -> Widget${i} {`,
        `    Widget${i} { size }`,
        `}`,
        ``,
      );
    } else {
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
  }
  return out.join("\n");
}

let _runtime: Promise<typeof import("web-tree-sitter")> | undefined;

/**
 * A bare web-tree-sitter parser for the language of `name` in this process (the grammar outline
 * uses, from `lib/outline/languages.ts`), or undefined where outline reads no such file. The
 * runtime is started once, as outline's worker does.
 */
async function _bareParser(name: string): Promise<((text: string) => void) | undefined> {
  const id = languageOf(name);
  if (!id) return undefined;
  _runtime ??= (async () => {
    const mod = await import("web-tree-sitter");
    await mod.Parser.init({ wasmBinary: await loadCoreWasm() });
    return mod;
  })();
  const { Language, Parser } = await _runtime;
  const parser = new Parser();
  parser.setLanguage(await Language.load(await loadGrammarWasm(id)));
  return (text) => parser.parse(text)?.delete();
}

/** How long the fresh server is left idle after its first file of each language (warm-up). */
const WARM_WAIT_MS = 5000;

/** How many untimed bare parses warm V8's optimizing tier before the timed ones. */
const BARE_WARM_PARSES = 8;

const COMMENT: Record<string, string> = {
  ".py": "#",
  ".pyi": "#",
  ".rb": "#",
  ".sh": "#",
  ".bash": "#",
};

function _q(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One file's servers, bare parser and figures. */
interface Subject {
  file: string;
  root: string;
  name: string;
  text: string;
  mark: string;
  copyRoot: string;
  server: Server;
  editor: Server;
  bare?: (text: string) => void;
  items: number;
  figures:
    & Record<
      "warm" | "edited" | "fresh" | "freshCpu" | "parse" | "parseCpu" | "other" | "otherCpu",
      number[]
    >
    & {
      once: number[];
      ctags: number[];
    };
  tags: number;
}

async function _subject(file: string, temp: string): Promise<Subject> {
  const name = basename(file);
  const ext = name.slice(name.lastIndexOf("."));
  const text = await Deno.readTextFile(file);
  const copyRoot = await Deno.makeTempDir({ dir: temp });
  await Deno.writeTextFile(`${copyRoot}/${name}`, text);
  const subject: Subject = {
    file,
    root: dirname(file),
    name,
    text,
    mark: COMMENT[ext] ?? "//",
    copyRoot,
    server: await new Server(dirname(file)).start(),
    editor: await new Server(copyRoot).start(),
    bare: await _bareParser(name),
    items: 0,
    figures: {
      warm: [],
      edited: [],
      fresh: [],
      freshCpu: [],
      parse: [],
      parseCpu: [],
      other: [],
      otherCpu: [],
      once: [],
      ctags: [],
    },
    tags: 0,
  };
  const first = await subject.server.call("outline", { path: name, max_items: MAX_ITEMS });
  subject.items = first.total as number;
  await subject.editor.call("outline", { path: name, max_items: MAX_ITEMS });
  for (let i = 0; i < BARE_WARM_PARSES; i++) subject.bare?.(`${text}\n${subject.mark} warm ${i}\n`);
  return subject;
}

async function main(): Promise<void> {
  const runs = Number(args.values.runs);
  const files = args.positionals.map((f) => resolve(f));
  const temp = await Deno.makeTempDir({ prefix: "localexec-bench-outline-" });
  if (!files.length) {
    const lines = Number(args.values.lines);
    for (const ext of args.values.languages.split(",").map((e) => `.${e.trim()}`)) {
      const text = ext === ".py" || ext === ".rs" || ext === ".ts"
        ? generated(ext, lines)
        : SAMPLE_EXTENSIONS.includes(ext)
        ? sample(ext, lines)
        : undefined;
      if (text === undefined) throw new Error(`no generated ${ext} files; give files instead`);
      files.push(`${temp}/generated${ext}`);
      await Deno.writeTextFile(files[files.length - 1], text);
    }
  }
  const haveCtags = await has("ctags");
  console.log(`machine: ${machine()}; runs: ${runs}, interleaved; medians`);
  console.log(haveCtags ? "" : "ctags is not installed: the reference columns stay empty\n");
  const subjects: Subject[] = [];
  for (const file of files) subjects.push(await _subject(file, temp));
  // One server outlines every file's fresh copies in turn, as a session does across languages.
  const freshRoot = await Deno.makeTempDir({ dir: temp });
  const fresher = await new Server(freshRoot).start();
  for (const s of subjects) {
    await Deno.writeTextFile(`${freshRoot}/first_${s.name}`, s.text);
    await fresher.call("outline", { path: `first_${s.name}`, max_items: MAX_ITEMS });
    await sleep(WARM_WAIT_MS); // the worker warms this grammar while idle, as between a session's calls
  }
  const other = args.values.compare
    ? await new Server(freshRoot, FULL, resolve(args.values.compare)).start()
    : undefined;
  for (const s of subjects) {
    await other?.call("outline", { path: `first_${s.name}`, max_items: MAX_ITEMS });
    if (other) await sleep(WARM_WAIT_MS);
  }
  for (let r = 0; r < runs; r++) {
    for (const s of subjects) await _round(s, r, freshRoot, fresher, other);
  }
  await other?.close();
  await fresher.close();
  console.log(
    "file                     | lines | items | fresh ms (CPU) | bare parse ms (CPU) | " +
      "fresh ÷ parse (CPU) | warm ms | edited ms | one-shot ms | ctags -x ms (tags) | " +
      "fresh ÷ ctags | warm ÷ ctags | edited ÷ ctags",
  );
  console.log("-".repeat(190));
  for (const s of subjects) {
    await s.server.close();
    await s.editor.close();
    const m = (xs: number[]) => xs.length ? median(xs) : NaN;
    const fg = s.figures;
    const [w, e, f, p, o, c, fc, pc] = [
      fg.warm,
      fg.edited,
      fg.fresh,
      fg.parse,
      fg.once,
      fg.ctags,
      fg.freshCpu,
      fg.parseCpu,
    ].map(m);
    const cell = (ms: number, width: number, digits = 1) =>
      (Number.isFinite(ms) ? ms.toFixed(digits) : "-").padStart(width);
    console.log(
      `${s.name.slice(0, 24).padEnd(24)} |${String(s.text.split("\n").length).padStart(6)} |${
        String(s.items).padStart(6)
      } |${`${cell(f, 0)} (${cell(fc, 0)})`.padStart(15)} |${
        `${cell(p, 0)} (${cell(pc, 0)})`.padStart(20)
      } |${`${ratio(f, p)} (${ratio(fc, pc)})`.padStart(20)} |${cell(w, 8)} |${cell(e, 10)} |${
        cell(o, 12, 0)
      } |${`${c.toFixed(1)} (${s.tags})`.padStart(19)} |${ratio(f, c).padStart(14)} |${
        ratio(w, c).padStart(13)
      } |${ratio(e, c).padStart(15)}`,
    );
  }
  if (args.values.compare) _compared(subjects);
  if (!args.values.fresh) await _huge(temp);
  await Deno.remove(temp, { recursive: true });
}

/** The `--compare` server's fresh outlines over the same bare parses, next to this checkout's. */
function _compared(subjects: Subject[]): void {
  console.log(`\nfresh ÷ bare parse, wall (CPU): this checkout | ${args.values.compare}`);
  for (const { name, figures: f } of subjects) {
    const [p, pc] = [median(f.parse), median(f.parseCpu)];
    console.log(
      `${name.slice(0, 24).padEnd(24)} | ${ratio(median(f.fresh), p)} (${
        ratio(median(f.freshCpu), pc)
      }) | ${ratio(median(f.other), p)} (${ratio(median(f.otherCpu), pc)})`,
    );
  }
}

/**
 * One run of one file: a fresh copy outlined by `fresher` (and by `other`, the `--compare` server),
 * each between two bare parses, so that a change of load weighs on both alike; then, unless
 * `--fresh`, the warm, edited, one-shot and ctags figures.
 */
async function _round(
  s: Subject,
  r: number,
  freshRoot: string,
  fresher: Server,
  other: Server | undefined,
): Promise<void> {
  const f = s.figures;
  const freshName = `run${r}_${s.name}`;
  const freshText = `${s.text}\n${s.mark} run ${r}\n`;
  await Deno.writeTextFile(`${freshRoot}/${freshName}`, freshText);
  const bare = () => {
    if (!s.bare) return;
    const before = cpuMs(Deno.pid);
    const started = performance.now();
    s.bare(freshText);
    f.parse.push(performance.now() - started);
    f.parseCpu.push(cpuMs(Deno.pid) - before);
  };
  const fresh = async (server: Server, wall: number[], cpu: number[]) => {
    const before = cpuMs(server.pid);
    wall.push(
      (await timed(() => server.call("outline", { path: freshName, max_items: MAX_ITEMS })))[0],
    );
    cpu.push(cpuMs(server.pid) - before);
    bare();
  };
  bare();
  await fresh(fresher, f.fresh, f.freshCpu);
  if (other) await fresh(other, f.other, f.otherCpu);
  if (args.values.fresh) return;
  f.warm.push(
    (await timed(() => s.server.call("outline", { path: s.name, max_items: MAX_ITEMS })))[0],
  );
  await Deno.writeTextFile(`${s.copyRoot}/${s.name}`, `${s.text}\n${s.mark} edit ${r}\n`);
  f.edited.push(
    (await timed(() => s.editor.call("outline", { path: s.name, max_items: MAX_ITEMS })))[0],
  );
  f.once.push(
    (await timeShell(
      `${_q(Deno.execPath())} run --no-prompt ${FULL.join(" ")} ${_q(MAIN)} call outline ` +
        `${_q(JSON.stringify({ path: s.name }))} --root ${_q(s.root)}`,
      s.root,
    ))[0],
  );
  if (await has("ctags")) {
    const [ms, n] = await timeShell(`ctags -x ${_q(s.name)}`, s.root);
    f.ctags.push(ms);
    s.tags = n;
  }
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
