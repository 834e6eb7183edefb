/**
 * Structure check, run by `deno task check`: the rules of docs/ARCHITECTURE.md that a reader
 * should not have to police by hand.
 *
 * - No import cycle among the project's modules, type-only imports and dynamic imports included.
 * - Only the MCP layer (`lib/mcp/`) imports the boundary (`lib/mcp/boundary.ts`).
 * - Outside a subsystem, code imports the subsystem's `mod.ts`, never a file inside it.
 * - At most 12 modules directly in `lib/`.
 * - No comment cites a document outside the repository (the product spec by section number).
 *
 * Run: `deno run --allow-read scripts/check_structure.ts` (exits 1 and lists every violation).
 */
import { dirname, join, normalize, relative } from "../lib/deps.ts";

const ROOT = normalize(join(dirname(new URL(import.meta.url).pathname), ".."));
const SCANNED = ["main.ts", "lib", "tools", "scripts", "tests"];
const SUBSYSTEMS = [
  "cli",
  "edit",
  "find",
  "glob",
  "implement",
  "mcp",
  "model",
  "ollama",
  "openai",
  "outline",
  "tasks",
];
const MAX_TOP_LEVEL = 12;
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

/** Every rule broken, as one line each. */
export function violations(files: string[], read: (f: string) => string): string[] {
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
  const top = files.filter((f) => /^lib\/[^/]+\.ts$/.test(f));
  if (top.length > MAX_TOP_LEVEL) {
    problems.push(`${top.length} modules directly in lib/ (at most ${MAX_TOP_LEVEL}): ${top}`);
  }
  return problems;
}

if (import.meta.main) {
  const files = _files();
  const problems = violations(files, (f) => Deno.readTextFileSync(join(ROOT, f)));
  for (const p of problems) console.error(`structure: ${p}`);
  console.error(`structure: ${files.length} modules, ${problems.length} problem(s)`);
  if (problems.length) Deno.exit(1);
}
