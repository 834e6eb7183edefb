/**
 * Lazily started tree-sitter: the runtime loads on the first outline, each grammar on the first
 * file of its language, and one parser per language is kept and reused.
 *
 * This is the one process-wide cache in `lib/outline/`: grammars are immutable and costly to load
 * (a few milliseconds each, plus the runtime's ~30 ms start), so every server call shares them.
 * The runtime's WASM memory is made here, so {@linkcode heapBytes} can say how far it has grown:
 * it never shrinks, and outline's worker is replaced when a huge file has grown it.
 */
import type { Language, Parser, Tree } from "web-tree-sitter";
import { type LanguageId, loadCoreWasm, loadGrammarWasm } from "./languages.ts";
import { useRuntime } from "./nodes.ts";

type Runtime = typeof import("web-tree-sitter");

let _runtime: Promise<Runtime> | undefined;
let _memory: WebAssembly.Memory | undefined;
const _parsers = new Map<LanguageId, Promise<Parser>>();

function _startRuntime(): Promise<Runtime> {
  _runtime ??= (async () => {
    const [mod, core] = await Promise.all([import("web-tree-sitter"), loadCoreWasm()]);
    // As the runtime would make it (32 MB to start, 2 GB at most), but held here to be measured.
    const memory = new WebAssembly.Memory({ initial: 512, maximum: 32768 });
    // The runtime fills this object with its functions; outline's nodes call them (nodes.ts).
    const module = { wasmBinary: core, wasmMemory: memory };
    await mod.Parser.init(module);
    useRuntime(module);
    _memory = memory;
    return mod;
  })();
  // A failed start is not cached: the next call tries again.
  _runtime.catch(() => (_runtime = undefined));
  return _runtime;
}

async function _newParser(id: LanguageId): Promise<Parser> {
  const mod = await _startRuntime();
  const language: Language = await mod.Language.load(await loadGrammarWasm(id));
  const parser = new mod.Parser();
  parser.setLanguage(language);
  return parser;
}

/** The size of tree-sitter's WASM memory in bytes (0 before the runtime starts). */
export function heapBytes(): number {
  return _memory?.buffer.byteLength ?? 0;
}

/** The shared parser for `id`, loading the runtime and the grammar on first use. */
export function parserFor(id: LanguageId): Promise<Parser> {
  let parser = _parsers.get(id);
  if (!parser) {
    parser = _newParser(id);
    _parsers.set(id, parser);
    parser.catch(() => _parsers.delete(id));
  }
  return parser;
}

/**
 * Parses `source` as `id` and hands the tree to `use`; the tree's WASM memory is freed afterwards.
 */
export async function withTree<T>(
  id: LanguageId,
  source: string,
  use: (tree: Tree) => T,
): Promise<T> {
  const parser = await parserFor(id);
  const tree = parser.parse(source);
  if (!tree) throw new Error(`the ${id} parser returned no tree`);
  try {
    return use(tree);
  } finally {
    tree.delete();
  }
}
