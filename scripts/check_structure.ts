/**
 * Structure check, run by `deno task check`: the rules of docs/ARCHITECTURE.md that a reader
 * should not have to police by hand.
 *
 * - No import cycle among the project's modules, type-only imports and dynamic imports included.
 * - Imports point down the layers: primitives (`lib/*.ts`) <- subsystems (`lib/<name>/`) <- the
 *   engine (`lib/implement/`) <- the MCP layer (`lib/mcp/`) <- tools (`tools/`) <- `main.ts`;
 *   `scripts/` and `tests/` may import any of them (docs/ARCHITECTURE.md, "Layers").
 * - Only the MCP layer (`lib/mcp/`) imports the boundary (`lib/mcp/boundary.ts`).
 * - Outside a subsystem, code imports the subsystem's `mod.ts`, never a file inside it.
 * - At most 12 modules directly in `lib/`.
 * - Every tool module `tools/<name>.ts` is registered in `tools/mod.ts` under its own name (and
 *   defines that name), and `tools/manifest.json` lists the registry's tools in its order.
 * - No comment cites a document outside the repository (the product spec by section number).
 * - No function in `lib/` or `tools/` over 100 lines (`function_length.ts`).
 * - find's generated worker (`lib/find/worker.gen.js`) was made from its inputs as they are now.
 *
 * Run: `deno run --allow-read scripts/check_structure.ts` (exits 1 and lists every violation).
 */
import { dirname, join, normalize, relative } from "../lib/deps.ts";
import { longFunctions } from "./function_length.ts";

const ROOT = normalize(join(dirname(new URL(import.meta.url).pathname), ".."));
const SCANNED = ["main.ts", "lib", "tools", "scripts", "tests"];
const SUBSYSTEMS = [
  "cli",
  "edit",
  "eval",
  "find",
  "glob",
  "implement",
  "mcp",
  "model",
  "ollama",
  "openai",
  "outline",
  "process",
  "providers",
  "tasks",
];
const MAX_TOP_LEVEL = 12;

/** The layers, lowest first: a module may import its own layer and the ones below it. */
const LAYERS = ["primitives", "subsystems", "engine", "mcp", "tools", "entry"] as const;
type Layer = typeof LAYERS[number];

/**
 * Known wrong arrows (`file -> imported`), allowed until the change that removes them lands; none
 * today. An exception whose file no longer makes that import is reported, so the list cannot
 * outlive its arrows.
 */
export const LAYER_EXCEPTIONS: readonly string[] = [];

/** The registry of tools, and the manifest generated from it. */
const REGISTRY = "tools/mod.ts";
const MANIFEST = "tools/manifest.json";
/** One registry line: `name: () => import("./file.ts"),`. */
const REGISTRY_LINE = /^\s*([A-Za-z0-9_]+): \(\) => import\("\.\/([^"/]+)\.ts"\),?\s*$/gm;
/** A citation of the product spec by section, which is not in this repository. */
const OUTSIDE_CITATION = new RegExp("SPEC " + "\u00a7");

/** Every `.ts` file under the scanned folders, relative to the root, with `/` separators. */
function _files(): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    const info = Deno.statSync(join(ROOT, rel));
    if (info.isFile) {
      if (rel.endsWith(".ts")) out.push(rel);
      return;
    }
    for (const e of Deno.readDirSync(join(ROOT, rel))) {
      if (rel === "tests" && (e.name === "fixtures" || e.name === "replies")) continue;
      visit(`${rel}/${e.name}`);
    }
  };
  for (const s of SCANNED) visit(s);
  return out.sort();
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s*["']([^"']+)["']/g;

/** The local modules `file` imports, relative to the root. */
export function importsOf(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec?.startsWith(".") || !spec.endsWith(".ts")) continue;
    out.push(relative(ROOT, normalize(join(ROOT, dirname(file), spec))));
  }
  return out;
}

/** The strongly connected components with more than one module (or a self-import): cycles. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return found;
}

function _subsystem(path: string): string | undefined {
  const parts = path.split("/");
  return parts[0] === "lib" && parts.length >= 3 && SUBSYSTEMS.includes(parts[1])
    ? parts[1]
    : undefined;
}

/** Folders of host primitives, below every subsystem (`process/`: one job split in files; `glob/`). */
const PRIMITIVE_FOLDERS = ["lib/process/", "lib/glob/"];

/**
 * Folders on the tools' level: `eval/` runs implement_task through the MCP layer in process, and
 * `status` (a tool) reads what it recorded.
 */
const TOOL_LEVEL_FOLDERS = ["lib/eval/"];

/** The layer of a module; undefined for `scripts/` and `tests/`, which may import anything. */
export function layerOf(path: string): Layer | undefined {
  if (path === "main.ts") return "entry";
  if (path.startsWith("tools/")) return "tools";
  if (path.startsWith("lib/mcp/")) return "mcp";
  if (TOOL_LEVEL_FOLDERS.some((f) => path.startsWith(f))) return "tools";
  if (path.startsWith("lib/implement/")) return "engine";
  if (PRIMITIVE_FOLDERS.some((f) => path.startsWith(f))) return "primitives";
  if (/^lib\/[^/]+\//.test(path)) return "subsystems";
  if (/^lib\/[^/]+\.ts$/.test(path)) return "primitives";
  return undefined;
}

/** The arrows that point up the layers, except the listed exceptions, and stale exceptions. */
function _layerProblems(
  graph: Map<string, string[]>,
  exceptions: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const [file, deps] of graph) {
    const from = layerOf(file);
    if (!from) continue;
    for (const dep of new Set(deps)) {
      const to = layerOf(dep);
      if (!to || LAYERS.indexOf(to) <= LAYERS.indexOf(from)) continue;
      if (exceptions.includes(`${file} -> ${dep}`)) continue;
      problems.push(
        `${file} imports ${dep}: the ${from} layer must not import the ${to} layer ` +
          `(docs/ARCHITECTURE.md, "Layers")`,
      );
    }
  }
  for (const arrow of exceptions) {
    const [file, dep] = arrow.split(" -> ");
    if (graph.has(file) && !graph.get(file)!.includes(dep)) {
      problems.push(`layer exception "${arrow}" no longer happens: remove it from the list`);
    }
  }
  return problems;
}

/** Tool modules the registry does not list, registry lines that break the naming, a stale manifest. */
function _registryProblems(files: string[], read: (f: string) => string): string[] {
  if (!files.includes(REGISTRY)) return [];
  const problems: string[] = [];
  const registered: string[] = [];
  for (const [, name, file] of read(REGISTRY).matchAll(REGISTRY_LINE)) {
    if (name !== file) {
      problems.push(`${REGISTRY} registers "${name}" from ./${file}.ts: a tool's file is its name`);
    } else if (!files.includes(`tools/${name}.ts`)) {
      problems.push(`${REGISTRY} registers "${name}" but tools/${name}.ts does not exist`);
    }
    registered.push(name);
  }
  for (const file of files) {
    const m = /^tools\/([^/]+)\.ts$/.exec(file);
    if (!m || file === REGISTRY) continue;
    if (!registered.includes(m[1])) {
      problems.push(
        `${file} is not registered: add \`${m[1]}: () => import("./${m[1]}.ts"),\` to ` +
          `${REGISTRY}, then run \`deno task manifest\``,
      );
    } else if (!read(file).includes(`name: "${m[1]}"`)) {
      problems.push(`${file} does not define its tool as name: "${m[1]}"`);
    }
  }
  let manifest: string | undefined;
  try {
    manifest = read(MANIFEST);
  } catch {
    manifest = undefined;
  }
  if (manifest !== undefined) {
    let listed: string[] = [];
    try {
      const tools = JSON.parse(manifest).tools as { listing: { name: string } }[];
      listed = tools.map((t) => t.listing.name);
    } catch {
      listed = [];
    }
    if (listed.join() !== registered.join()) {
      problems.push(
        `${MANIFEST} does not list the registry's tools in order: run \`deno task manifest\``,
      );
    }
  }
  return problems;
}

/**
 * Every rule broken, as one line each. `read` may throw for `tools/manifest.json` (not checked
 * then); `exceptions` are the wrong layer arrows still allowed.
 */
export function violations(
  files: string[],
  read: (f: string) => string,
  exceptions: readonly string[] = LAYER_EXCEPTIONS,
): string[] {
  const problems: string[] = [];
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = read(file);
    const deps = importsOf(file, text);
    graph.set(file, deps);
    const inTests = file.startsWith("tests/");
    for (const dep of deps) {
      if (dep === "lib/mcp/boundary.ts" && !file.startsWith("lib/mcp/") && !inTests) {
        problems.push(`${file} imports the boundary; only lib/mcp/ may (use lib/errors.ts)`);
      }
      const sub = _subsystem(dep);
      const own = _subsystem(file);
      if (
        sub && sub !== own && !dep.endsWith("/mod.ts") && file.startsWith("lib/") ||
        sub && !dep.endsWith("/mod.ts") && file.startsWith("tools/")
      ) {
        problems.push(`${file} imports ${dep}; import lib/${sub}/mod.ts instead`);
      }
    }
    if (OUTSIDE_CITATION.test(text)) {
      problems.push(`${file} cites the spec by section: point at docs/ARCHITECTURE.md instead`);
    }
  }
  for (const c of cycles(graph)) problems.push(`import cycle: ${c.join(" -> ")}`);
  problems.push(..._layerProblems(graph, exceptions));
  problems.push(..._registryProblems(files, read));
  const top = files.filter((f) => /^lib\/[^/]+\.ts$/.test(f));
  if (top.length > MAX_TOP_LEVEL) {
    problems.push(`${top.length} modules directly in lib/ (at most ${MAX_TOP_LEVEL}): ${top}`);
  }
  return problems;
}

/** find's search worker's entry module (`scripts/worker_bundle.ts` bundles it), relative to the root. */
export const WORKER_ENTRY = "lib/find/worker_main.ts";
/** The generated worker, relative to the root. */
export const WORKER_GEN = "lib/find/worker.gen.js";

const HASH_LINE = /^\/\/ inputs sha256 ([0-9a-f]{64})$/m;

/** The entry and every local module it imports, sorted. */
export function workerInputs(read: (f: string) => string): string[] {
  const seen = new Set<string>([WORKER_ENTRY]);
  const todo = [WORKER_ENTRY];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    for (const dep of importsOf(file, read(file))) {
      if (!seen.has(dep)) seen.add(dep), todo.push(dep);
    }
  }
  return [...seen].sort();
}

/** The SHA-256 (hex) of the inputs' names and text. */
export async function inputsHash(read: (f: string) => string): Promise<string> {
  const text = workerInputs(read).map((f) => `${f}\n${read(f)}\n`).join("");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A problem line when the generated worker is missing or was made from other inputs. */
export async function staleWorker(read: (f: string) => string): Promise<string | undefined> {
  let recorded: string | undefined;
  try {
    recorded = read(WORKER_GEN).match(HASH_LINE)?.[1];
  } catch {
    return `${WORKER_GEN} is missing: run \`deno task manifest\``;
  }
  if (recorded === (await inputsHash(read))) return undefined;
  return `${WORKER_GEN} is stale (its inputs changed since it was made): run \`deno task manifest\``;
}

/**
 * Imports of modules that do not exist. `deno check` does not report a dynamic `import("…")` of a
 * missing file (it fails only when that line runs), so a module moved without its lazy importers
 * passes the type check.
 */
export function missingImports(
  files: string[],
  read: (f: string) => string,
  exists: (f: string) => boolean,
): string[] {
  const problems: string[] = [];
  for (const file of files) {
    for (const dep of new Set(importsOf(file, read(file)))) {
      if (!exists(dep)) problems.push(`${file} imports ${dep}, which does not exist`);
    }
  }
  return problems;
}

if (import.meta.main) {
  const files = _files();
  const read = (f: string) => Deno.readTextFileSync(join(ROOT, f));
  const exists = (f: string) => {
    try {
      return Deno.statSync(join(ROOT, f)).isFile;
    } catch {
      return false;
    }
  };
  // What ships (tests and scripts quote imports in strings, as data).
  const shipped = files.filter((f) => /^(lib|tools)\//.test(f) || f === "main.ts");
  const problems = [
    ...violations(files, read),
    ...missingImports(shipped, read, exists),
    ...await longFunctions(files, read),
  ];
  const stale = await staleWorker(read);
  if (stale) problems.push(stale);
  for (const p of problems) console.error(`structure: ${p}`);
  console.error(`structure: ${files.length} modules, ${problems.length} problem(s)`);
  if (problems.length) Deno.exit(1);
}
