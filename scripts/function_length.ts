/**
 * The function-length rule of `deno task structure` (docs/ARCHITECTURE.md, "Rules"): no function
 * in `lib/` or `tools/` runs over {@linkcode MAX_FUNCTION_LINES} lines. Functions are found by
 * the TypeScript grammar outline uses (tree-sitter, embedded: the check needs only
 * `--allow-read`): declarations, methods, arrow functions and function expressions, each counted
 * from its first line (`function`, the method's name, the arrow's parameters; not its JSDoc) to
 * its closing brace. A nested function counts on its own and inside its parent.
 */
import { Language, type Node, Parser } from "web-tree-sitter";
import core from "web-tree-sitter/web-tree-sitter.wasm" with { type: "bytes" };
import grammar from "tree-sitter-typescript/tree-sitter-typescript.wasm" with { type: "bytes" };

/** The most lines a function may take. */
export const MAX_FUNCTION_LINES = 100;

/**
 * Long functions allowed for now, `file name` as the rule reports them (none: issue 35 split the
 * last ones). An entry whose function is no longer long is reported, so the list cannot outlive
 * its functions.
 */
export const LONG_FUNCTION_EXCEPTIONS: readonly string[] = [];

const FUNCTIONS = new Set([
  "function_declaration",
  "generator_function_declaration",
  "method_definition",
  "arrow_function",
  "function_expression",
  "generator_function",
]);

const CLASSES = new Set(["class_declaration", "abstract_class_declaration", "class"]);

/** Where the rule applies. */
function _ruled(file: string): boolean {
  return /^(lib|tools)\//.test(file) && file.endsWith(".ts");
}

let _parser: Promise<Parser> | undefined;

function _parserReady(): Promise<Parser> {
  _parser ??= (async () => {
    await Parser.init({ wasmBinary: core });
    const parser = new Parser();
    parser.setLanguage(await Language.load(grammar));
    return parser;
  })();
  return _parser;
}

/** A function's name as a reader looks for it: `Class.method`, the variable or key it is bound to. */
function _name(node: Node): string {
  const own = node.childForFieldName("name")?.text;
  if (node.type === "method_definition") {
    let up = node.parent;
    while (up && !CLASSES.has(up.type)) up = up.parent;
    const cls = up?.childForFieldName("name")?.text;
    return cls ? `${cls}.${own}` : own ?? "<method>";
  }
  if (own) return own;
  const parent = node.parent;
  const bound = parent?.type === "variable_declarator" || parent?.type === "pair" ||
      parent?.type === "public_field_definition"
    ? parent.childForFieldName(parent.type === "pair" ? "key" : "name")?.text
    : undefined;
  return bound ?? `<anonymous at line ${node.startPosition.row + 1}>`;
}

/** Every function of `text` longer than `max` lines: name and line count, in source order. */
export async function longIn(
  text: string,
  max = MAX_FUNCTION_LINES,
): Promise<{ name: string; line: number; lines: number }[]> {
  const tree = (await _parserReady()).parse(text);
  if (!tree) throw new Error("the TypeScript parser returned no tree");
  const out: { name: string; line: number; lines: number }[] = [];
  try {
    const visit = (node: Node) => {
      if (FUNCTIONS.has(node.type)) {
        const lines = node.endPosition.row - node.startPosition.row + 1;
        if (lines > max) out.push({ name: _name(node), line: node.startPosition.row + 1, lines });
      }
      for (const child of node.namedChildren) if (child) visit(child);
    };
    visit(tree.rootNode);
  } finally {
    tree.delete();
  }
  return out;
}

/**
 * One line per function over the limit in `lib/` and `tools/`, except the listed exceptions, and
 * one per exception that no longer names a long function.
 */
export async function longFunctions(
  files: string[],
  read: (f: string) => string,
  exceptions: readonly string[] = LONG_FUNCTION_EXCEPTIONS,
): Promise<string[]> {
  const problems: string[] = [];
  const found = new Set<string>();
  for (const file of files.filter(_ruled)) {
    for (const f of await longIn(read(file))) {
      const key = `${file} ${f.name}`;
      found.add(key);
      if (exceptions.includes(key)) continue;
      problems.push(
        `${file}:${f.line} ${f.name} is ${f.lines} lines (at most ${MAX_FUNCTION_LINES}): ` +
          "split it into named steps",
      );
    }
  }
  for (const key of exceptions) {
    if (!found.has(key)) {
      problems.push(
        `long function exception "${key}" is not over the limit: remove it from the list`,
      );
    }
  }
  return problems;
}
