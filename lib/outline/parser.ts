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
/** The runtime's allocator, once started (the object given to `Parser.init` holds it). */
let _heap: { _malloc(bytes: number): number; _free(address: number): void } | undefined;
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
    const filled = module as Partial<NonNullable<typeof _heap>>;
    if (typeof filled._malloc === "function" && typeof filled._free === "function") {
      _heap = filled as NonNullable<typeof _heap>;
    }
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

/**
 * Makes sure tree-sitter's heap holds `bytes` free in one piece, in memory the process has touched:
 * takes that much from its allocator, writes a zero on every page of it, and gives it back.
 *
 * Why: a parse puts its tree in the heap's free memory, and where that has never been used (the
 * trees kept for re-parsing push new ones ever higher) every 4 KB page is a page fault the first
 * time, 13-14 µs each on the 2-core VMs. A fresh outline of a 10,000-line Go file faulted 1,550
 * times (6 MB) during its parse, 52-61 ms against 38-39 ms when the pages were there already. Run
 * by the worker while idle (`worker.ts`); the memory stays the worker's until it ends.
 */
export function warmHeap(bytes: number): void {
  const heap = _heap;
  if (!heap || !_memory) return;
  const at = heap._malloc(bytes);
  if (!at) return;
  try {
    const pages = new Uint8Array(_memory.buffer); // after the call: the memory may have grown
    for (let i = at; i < at + bytes; i += 4096) pages[i] = 0;
  } finally {
    heap._free(at);
  }
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
