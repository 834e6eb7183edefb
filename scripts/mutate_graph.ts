/**
 * Which test files reach a module, for `deno task mutate --changed`: the import graph of the
 * repository's TypeScript (static imports and re-exports, literal dynamic imports and
 * `new URL("./x.ts", import.meta.url)` — how workers and the server's subprocess are started;
 * `import type` is left out, it is gone at run time), plus one edge the text cannot show: the
 * server (`lib/mcp/server.ts`) loads every `tools/*.ts` through the manifest.
 */
import { dirname, join, normalize, relative } from "node:path";

/** Module specifiers a file's text loads at run time (relative ones only). */
export function importsOf(source: string): string[] {
  const out: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s+(?!type\b)[^;]*?\sfrom\s*["'](\.[^"']+)["']/gm,
    /^\s*import\s*["'](\.[^"']+)["']/gm,
    /\bimport\(\s*["'](\.[^"']+)["']/g,
    /\bnew URL\(\s*["'](\.[^"']+\.ts)["'],\s*import\.meta\.url/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) out.push(m[1]);
  return out;
}

async function tsFiles(repo: string, dir: string, out: string[]): Promise<void> {
  for await (const e of Deno.readDir(join(repo, dir))) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory && !["fixtures", "replies", "node_modules"].includes(e.name)) {
      await tsFiles(repo, rel, out);
    } else if (e.isFile && e.name.endsWith(".ts")) out.push(rel);
  }
}

/** Every module's run-time imports, repository-relative (`lib/x.ts` → [`lib/y.ts`, …]). */
export async function importGraph(repo: string): Promise<Map<string, string[]>> {
  const files = ["main.ts"];
  for (const dir of ["lib", "tools", "tests"]) await tsFiles(repo, dir, files);
  const graph = new Map<string, string[]>();
  const tools = files.filter((f) => /^tools\/[^/]+\.ts$/.test(f));
  for (const file of files) {
    const text = await Deno.readTextFile(join(repo, file));
    const deps = importsOf(text).map((s) => normalize(join(dirname(file), s)))
      .filter((d) => !relative(".", d).startsWith(".."));
    if (file === "lib/mcp/server.ts") deps.push(...tools);
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/**
 * The test files (`tests/**\/*_test.ts`) that reach each module: the module's namesake first
 * (`requests_test.ts` for `lib/tasks/requests.ts`, though it may import it through a `mod.ts`),
 * then nearest first (a test's distance to a module is the fewest imports between them), and at
 * one distance the narrowest first (the test that reaches the fewest modules: a unit test before
 * an end-to-end one).
 */
export function testsReaching(graph: Map<string, string[]>): Map<string, string[]> {
  const reach = new Map<string, [string, number][]>();
  const size = new Map<string, number>();
  for (const test of [...graph.keys()].filter((f) => /^tests\/.*_test\.ts$/.test(f)).sort()) {
    const dist = new Map([[test, 0]]);
    const queue = [test];
    while (queue.length) {
      const at = queue.shift()!;
      for (const dep of graph.get(at) ?? []) {
        if (dist.has(dep)) continue;
        dist.set(dep, dist.get(at)! + 1);
        queue.push(dep);
      }
    }
    size.set(test, dist.size);
    for (const [mod, d] of dist) {
      if (mod !== test) reach.set(mod, [...(reach.get(mod) ?? []), [test, d]]);
    }
  }
  const out = new Map<string, string[]>();
  for (const [mod, list] of reach) {
    const own = (t: string) =>
      t.endsWith(`/${mod.replace(/^.*\//, "").replace(/\.ts$/, "")}_test.ts`) ? 0 : 1;
    const order = (a: [string, number], b: [string, number]) =>
      own(a[0]) - own(b[0]) || a[1] - b[1] || size.get(a[0])! - size.get(b[0])! ||
      a[0].localeCompare(b[0]);
    out.set(mod, list.sort(order).map(([t]) => t));
  }
  return out;
}
