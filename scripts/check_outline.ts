/**
 * outline on files it has never seen, over the real server on stdio:
 * `deno run -A scripts/check_outline.ts [--per N]`.
 *
 * Copies a sample of real files of every language outline reads (the 59k-file bench tree, the
 * system's C headers and shell scripts, the repository's own fixtures for Java and Ruby) under
 * fresh names into a temp project, plus edge files (empty, syntax error, BOM, CRLF, 4 MB,
 * unknown extension), and outlines each once. Every answer must be `ok`, every item's lines in
 * the file (1-based, start ≤ end), its name on the lines it spans; and the functions and classes
 * that `ctags -x` lists must be there (by name, with a start within two lines of ctags' line or a
 * range holding it). Prints each miss and the figures.
 */
import { Server } from "./mcp_driver.ts";

const per = Number(Deno.args[Deno.args.indexOf("--per") + 1]) || 12;
const TREE = "/work/bench/tree59k";
const FIXTURES = new URL("../tests/fixtures/outline/", import.meta.url).pathname;

/** ctags' language and the kinds compared, per extension (functions and classes only). */
const CTAGS: Record<string, { lang: string; kinds: Set<string> }> = {
  ".py": { lang: "Python", kinds: new Set(["class", "function", "member"]) },
  ".pyi": { lang: "Python", kinds: new Set(["class", "function", "member"]) },
  ".h": { lang: "C", kinds: new Set(["function", "struct"]) },
  ".hpp": { lang: "C++", kinds: new Set(["function", "class", "struct"]) },
  ".ts": { lang: "TypeScript", kinds: new Set(["class", "function", "method", "interface"]) },
  ".js": { lang: "JavaScript", kinds: new Set(["class", "function", "method"]) },
  ".rs": { lang: "Rust", kinds: new Set(["function", "struct", "enum", "trait", "method"]) },
  ".go": { lang: "Go", kinds: new Set(["func", "struct", "interface", "method"]) },
  ".c": { lang: "C", kinds: new Set(["function", "struct"]) },
  ".cc": { lang: "C++", kinds: new Set(["function", "class", "struct"]) },
  ".cpp": { lang: "C++", kinds: new Set(["function", "class", "struct"]) },
  ".java": { lang: "Java", kinds: new Set(["class", "method", "interface", "enum"]) },
  ".rb": { lang: "Ruby", kinds: new Set(["class", "method", "module", "singletonMethod"]) },
  ".sh": { lang: "Sh", kinds: new Set(["function"]) },
};

const figures = {
  files: 0,
  items: 0,
  lines: 0,
  bytes: 0,
  ctagsCompared: 0,
  ctagsMissing: 0,
  topMissing: 0,
  endsDiffer: 0,
};
let misses = 0;

function miss(where: string, what: string): void {
  misses++;
  console.log(`MISS ${where}: ${what}`);
}

async function sh(cmd: string): Promise<string> {
  const out = await new Deno.Command("sh", { args: ["-c", cmd], stdout: "piped", stderr: "null" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

/** `n` files for `find`'s arguments, spread over the listing (the largest first), at most 2 MB. */
async function sample(where: string, expr: string, n: number): Promise<string[]> {
  const rows =
    (await sh(`find ${where} ${expr} -type f -size -2048k -printf '%s %p\\n' 2>/dev/null`))
      .split("\n").filter(Boolean).map((
        r,
      ) => [Number(r.split(" ")[0]), r.slice(r.indexOf(" ") + 1)])
      .sort((a, b) => (b[0] as number) - (a[0] as number)) as [number, string][];
  if (rows.length <= n) return rows.map((r) => r[1]);
  const step = rows.length / n;
  return Array.from({ length: n }, (_, k) => rows[Math.floor(k * step)][1]);
}

/** Edge files: name → content. */
function edges(): Record<string, string | Uint8Array> {
  const py = "class A:\n    def m(self):\n        return 1\n\ndef f(x):\n    return x\n";
  const big = Array.from({ length: 60_000 }, (_, k) => `def fn_${k}(a, b):\n    return a + b\n`)
    .join("") + "class Last:\n    pass\n";
  return {
    "edge_empty.py": "",
    "edge_empty.ts": "",
    "edge_broken.py":
      "def ok():\n    pass\n\ndef bad(:\n    pass\n\nclass After:\n    def m(self): pass\n",
    "edge_broken.ts": "function ok() {}\nfunction bad( {\n}\nclass After { m() {} }\n",
    "edge_bom.py": `\uFEFF${py}`,
    "edge_bom.ts": "\uFEFFexport function f() {}\nexport class C { m() {} }\n",
    "edge_crlf.py": py.replaceAll("\n", "\r\n"),
    "edge_crlf.rs": "fn a() {}\r\n\r\nstruct S;\r\nimpl S {\r\n    fn m(&self) {}\r\n}\r\n",
    "edge_nonl.go": "package p\n\nfunc F() {}",
    "edge_big.py": big,
    "edge_unknown.xyz": "def f(): pass\n",
    "edge_noext": "def f(): pass\n",
    "edge_upper.PY": py,
    "edge_unicode.py": "def grüße():\n    pass\n\nclass Ñandú:\n    def 日本(self): pass\n",
    "edge_latin1.py": Uint8Array.from([
      ...new TextEncoder().encode("def f():\n    s = '"),
      0xe9,
      39,
      10,
    ]),
  };
}

interface Item {
  start: number;
  end: number;
  kind: string;
  name: string;
}

function parseItem(line: string): Item | undefined {
  const m = /^(\d+)-(\d+)\|([^|]*)\|([^|]*)\|/.exec(line);
  return m ? { start: +m[1], end: +m[2], kind: m[3], name: m[4] } : undefined;
}

/** ctags' functions and classes: name, line, scope (empty at the top level) and end line. */
async function ctags(path: string, ext: string): Promise<[string, number, string, number][]> {
  const spec = CTAGS[ext];
  if (!spec) return [];
  const out = await sh(
    `ctags -x --sort=no --fields=+e --language-force=${spec.lang} ` +
      `--_xformat='%N\t%K\t%n\t%s\t%e' '${path}'`,
  );
  return out.split("\n").filter(Boolean).map((r) => r.split("\t"))
    .filter((f) => spec.kinds.has(f[1])).map((f) => [f[0], Number(f[2]), f[3], Number(f[4])]);
}

async function main(): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "outline_check_" }));
  const picks: [string, string][] = []; // [source path, name in the project]
  const add = (paths: string[]) => {
    for (const p of paths) {
      const ext = p.slice(p.lastIndexOf("."));
      picks.push([p, `f${picks.length}_${p.split("/").pop()!.replace(/[^\w.-]/g, "_")}`]);
      void ext;
    }
  };
  add(await sample(`${TREE}/mypy ${TREE}/deno`, "-name '*.py' -o -name '*.pyi'", per));
  add(await sample(`${TREE}/deno ${TREE}/prettier`, "-name '*.ts' ! -name '*.d.ts'", per));
  add(await sample(`${TREE}/deno`, "-name '*.d.ts'", 4));
  add(await sample(`${TREE}/mypy/mypy/typeshed/stdlib`, "-name '*.pyi'", 4));
  add(await sample(`${TREE}/babel ${TREE}/prettier`, "-name '*.js' -o -name '*.mjs'", per));
  add(await sample(`${TREE}/node_modules`, "-name '*.cjs' -o -name '*.mts' -o -name '*.cts'", 4));
  add(await sample(`${TREE}`, "-name '*.tsx' -o -name '*.jsx'", 6));
  add(await sample(`${TREE}/deno`, "-name '*.rs'", per));
  add(await sample(`/usr/share/doc /usr/lib/go* ${TREE}`, "-name '*.go'", per));
  add(await sample(`${TREE}`, "-name '*.c'", per));
  add(await sample(`/usr/include`, "-name '*.h'", 4));
  add(
    await sample(`${TREE} /usr/include/c++`, "-name '*.cc' -o -name '*.cpp' -o -name '*.hpp'", per),
  );
  add(await sample(`${TREE} /usr/share /usr/bin`, "-name '*.sh' -o -name '*.bash'", per));
  add(await sample(FIXTURES, "-name '*.txt'", 20));
  for (const [src, name] of picks) {
    // Fixtures are stored as `name.ext.txt`: outlined under their own extension.
    const dest = src.startsWith(FIXTURES) ? name.replace(/\.txt$/, "") : name;
    await Deno.copyFile(src, `${root}/${dest}`);
  }
  for (const [name, content] of Object.entries(edges())) {
    if (typeof content === "string") await Deno.writeTextFile(`${root}/${name}`, content);
    else await Deno.writeFile(`${root}/${name}`, content);
  }
  const server = await new Server(root).start();
  try {
    for (const entry of [...Deno.readDirSync(root)].sort((a, b) => a.name < b.name ? -1 : 1)) {
      const name = entry.name;
      const bytes = Deno.readFileSync(`${root}/${name}`);
      const text = new TextDecoder().decode(bytes);
      const lines = text.split("\n");
      const count = text.endsWith("\n") ? lines.length - 1 : lines.length;
      figures.files++;
      figures.bytes += bytes.length;
      figures.lines += count;
      const started = performance.now();
      const out = await server.call("outline", { path: name, max_items: 5000 }) as {
        status: string;
        items?: string[];
        total?: number;
        note?: string;
        error?: string;
        language?: string;
      };
      const ms = performance.now() - started;
      const ext = name.slice(name.lastIndexOf(".")).toLowerCase();
      const known =
        /\.(py|pyi|ts|mts|cts|tsx|js|mjs|cjs|jsx|go|rs|java|c|h|cc|cpp|hpp|rb|sh|bash)$/i
          .test(name);
      if (!known) {
        console.log(`  ${name}: ${out.status} ${out.error ?? ""}`);
        if (out.status !== "error") miss(name, "an unknown extension was outlined");
        continue;
      }
      if (out.status !== "ok") {
        // Text that is not UTF-8 is refused with a clear error (as read_file does).
        if (name.startsWith("edge_latin1") && /UTF-8/.test(out.error ?? "")) continue;
        miss(name, `status ${out.status}: ${out.error}`);
        continue;
      }
      const items = (out.items ?? []).map(parseItem);
      figures.items += items.length;
      if (out.total !== items.length && !(out.total! > 5000 && items.length === 5000)) {
        miss(name, `total ${out.total}, ${items.length} items`);
      }
      for (const [k, item] of items.entries()) {
        if (!item) {
          miss(name, `unreadable item ${out.items![k]}`);
          continue;
        }
        if (!(item.start >= 1 && item.start <= item.end && item.end <= Math.max(count, 1))) {
          miss(name, `lines out of range (${count} lines): ${out.items![k]}`);
          continue;
        }
        const own = item.name.split(/\.|::/).pop()!.replace(/^#/, "");
        const span = lines.slice(item.start - 1, item.end).join("\n");
        if (own && !span.includes(own)) miss(name, `name not on its lines: ${out.items![k]}`);
      }
      // Compared up to the last item shown (a list cut at max_items says so in its note).
      const shownTo = (out.total ?? 0) > items.length ? (items.at(-1)?.start ?? 0) : Infinity;
      const tags = ext in CTAGS ? await ctags(`${root}/${name}`, ext) : [];
      const missing: string[] = [];
      const ends: string[] = [];
      for (const [tag, line, scope, end] of tags) {
        if (line > shownTo) continue;
        figures.ctagsCompared++;
        const named = items.filter((item) => item?.name.split(/\.|::/).pop() === tag);
        const found = named.find((item) => Math.abs(item!.start - line) <= 2) ??
          named.find((item) => item!.start <= line && line <= item!.end);
        if (!found) {
          figures.ctagsMissing++;
          if (!scope) missing.push(`${tag}@${line}`);
        } else if (end && Math.abs(found.end - end) > 1) {
          ends.push(`${tag}@${line}: ${found.end} vs ${end}`);
        }
      }
      figures.topMissing += missing.length;
      figures.endsDiffer += ends.length;
      if (missing.length) {
        console.log(`  top-level in ctags only, ${name}: ${missing.slice(0, 8)}`);
      }
      if (ends.length) console.log(`  end line differs, ${name}: ${ends.slice(0, 4)}`);
      console.log(
        `  ${name}: ${out.language} ${items.length} items, ${count} lines, ${ms.toFixed(0)} ms` +
          `${out.note ? ` (${out.note})` : ""}`,
      );
    }
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
  console.log(
    `\nfiles ${figures.files} (${figures.lines} lines, ${(figures.bytes / 1e6).toFixed(1)} MB), ` +
      `items ${figures.items}, misses ${misses}, ctags functions/classes compared ` +
      `${figures.ctagsCompared}, not in the outline ${figures.ctagsMissing} (top level ` +
      `${figures.topMissing}), end lines 2+ apart ${figures.endsDiffer}`,
  );
  if (misses) Deno.exitCode = 1;
}

await main();
