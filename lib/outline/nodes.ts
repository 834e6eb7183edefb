/**
 * The syntax nodes the walk and the rules read: the part of web-tree-sitter's `Node` they use,
 * made by calling the runtime's own WASM functions the way `Node` does, but cheaper to make.
 *
 * Why: a walk makes a node for every child and field it looks at (30,000 for a 10,000-line file
 * with an item every two lines), and web-tree-sitter's `Node` is costly to construct (class fields
 * defined one by one, the address kept as an array element, a position object), which with the
 * garbage it leaves was a third of the walk. These nodes are plain objects of one shape, and pass
 * and read the runtime's transfer buffer directly, with the same values at the same offsets as
 * `Node`'s own marshalling (web-tree-sitter 0.27's `marshalNode` / `unmarshalNode`), so every
 * answer is the one `Node` gives. Where the runtime does not have those functions (another
 * web-tree-sitter), {@linkcode rootOf} hands out web-tree-sitter's own nodes instead.
 */
import type { Tree } from "web-tree-sitter";

/** A point in the text: 0-based row and column (UTF-16 code units, as web-tree-sitter counts). */
export interface Point {
  row: number;
  column: number;
}

/** What outline reads of a node; web-tree-sitter's `Node` has all of it too. */
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: Point;
  readonly endPosition: Point;
  readonly hasError: boolean;
  readonly namedChildren: (SyntaxNode | null)[];
  readonly firstChild: SyntaxNode | null;
  namedChild(index: number): SyntaxNode | null;
  childForFieldName(name: string): SyntaxNode | null;
  childrenForFieldName(name: string): (SyntaxNode | null)[];
}

/** The runtime's WASM functions and memory that nodes use (the object given to `Parser.init`). */
interface Runtime {
  HEAP32: Int32Array;
  _ts_init(): number;
  _free(address: number): void;
  _ts_tree_root_node_wasm(tree: number): void;
  _ts_node_symbol_wasm(tree: number): number;
  _ts_node_end_index_wasm(tree: number): number;
  _ts_node_end_point_wasm(tree: number): void;
  _ts_node_has_error_wasm(tree: number): number;
  _ts_node_child_wasm(tree: number, index: number): void;
  _ts_node_named_child_wasm(tree: number, index: number): void;
  _ts_node_named_children_wasm(tree: number): void;
  _ts_node_child_by_field_id_wasm(tree: number, field: number): void;
  _ts_node_children_by_field_id_wasm(tree: number, field: number): void;
}

const NEEDED: readonly (keyof Runtime)[] = [
  "_ts_init",
  "_free",
  "_ts_tree_root_node_wasm",
  "_ts_node_symbol_wasm",
  "_ts_node_end_index_wasm",
  "_ts_node_end_point_wasm",
  "_ts_node_has_error_wasm",
  "_ts_node_child_wasm",
  "_ts_node_named_child_wasm",
  "_ts_node_named_children_wasm",
  "_ts_node_child_by_field_id_wasm",
  "_ts_node_children_by_field_id_wasm",
];

/** Bytes of one node in the transfer buffer: id, start index, row, column, context. */
const NODE_BYTES = 20;

let _runtime: Runtime | undefined;
/** The transfer buffer's address, as an index into `HEAP32`. */
let _buffer = 0;

/**
 * Lets nodes use the runtime started with `module` (the options object given to `Parser.init`,
 * which the runtime fills with its functions). Without what nodes need, {@linkcode rootOf} gives
 * web-tree-sitter's own nodes.
 */
export function useRuntime(module: object): void {
  const runtime = module as Partial<Runtime>;
  const complete = runtime.HEAP32 instanceof Int32Array &&
    NEEDED.every((name) => typeof runtime[name] === "function");
  _runtime = complete ? runtime as Runtime : undefined;
  // `ts_init` returns the runtime's one static transfer buffer (and writes two version numbers
  // in it, which web-tree-sitter read once at start-up).
  _buffer = _runtime ? _runtime._ts_init() >> 2 : 0;
}

/** What the nodes of one tree share: its address, its language's names, its text. */
class TreeContext {
  constructor(
    readonly address: number,
    readonly types: readonly string[],
    readonly fields: ReadonlyMap<string, number>,
    readonly source: string,
  ) {}
}

/** Field ids by name, per language's list of field names (first one wins, as `indexOf`). */
const _fieldIds = new WeakMap<readonly (string | null)[], Map<string, number>>();

function _fields(names: readonly (string | null)[]): Map<string, number> {
  let ids = _fieldIds.get(names);
  if (!ids) {
    ids = new Map();
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (name !== null && !ids.has(name)) ids.set(name, i);
    }
    _fieldIds.set(names, ids);
  }
  return ids;
}

/** Writes `node` to the transfer buffer, as web-tree-sitter's `marshalNode` does. */
function _marshal(runtime: Runtime, node: FastNode): number {
  const heap = runtime.HEAP32;
  heap[_buffer] = node.id;
  heap[_buffer + 1] = node.startIndex;
  heap[_buffer + 2] = node.row;
  heap[_buffer + 3] = node.column;
  heap[_buffer + 4] = node.context;
  return node.tree.address;
}

/** The node at `at` (an index into `HEAP32`), or null, as web-tree-sitter's `unmarshalNode`. */
function _unmarshal(runtime: Runtime, tree: TreeContext, at: number): FastNode | null {
  const heap = runtime.HEAP32; // read after the call: the memory may have grown meanwhile
  const id = heap[at];
  if (id === 0) return null;
  return new FastNode(tree, id, heap[at + 1], heap[at + 2], heap[at + 3], heap[at + 4]);
}

/** The nodes a call left as a count and an array in the transfer buffer (the array is freed). */
function _unmarshalList(runtime: Runtime, tree: TreeContext): (FastNode | null)[] {
  const count = runtime.HEAP32[_buffer];
  const address = runtime.HEAP32[_buffer + 1];
  const out: (FastNode | null)[] = new Array(count);
  if (count > 0) {
    for (let i = 0, at = address >> 2; i < count; i++, at += NODE_BYTES >> 2) {
      out[i] = _unmarshal(runtime, tree, at);
    }
    runtime._free(address);
  }
  return out;
}

/**
 * One node; see the module comment. Its fields are assigned in the constructor, not declared as
 * class fields, which V8 would define one by one on every node.
 */
class FastNode implements SyntaxNode {
  declare readonly tree: TreeContext;
  declare readonly id: number;
  declare readonly startIndex: number;
  declare readonly row: number;
  declare readonly column: number;
  declare readonly context: number;
  declare kids: (FastNode | null)[] | undefined;
  declare kind: string | undefined;

  constructor(
    tree: TreeContext,
    id: number,
    startIndex: number,
    row: number,
    column: number,
    context: number,
  ) {
    this.tree = tree;
    this.id = id;
    this.startIndex = startIndex;
    this.row = row;
    this.column = column;
    this.context = context;
    this.kids = undefined;
    this.kind = undefined;
  }

  get startPosition(): Point {
    return { row: this.row, column: this.column };
  }

  /** The node's type, asked of the runtime once (the walk and the rules ask it several times). */
  get type(): string {
    if (this.kind === undefined) {
      const runtime = _runtime!;
      this.kind = this.tree.types[runtime._ts_node_symbol_wasm(_marshal(runtime, this))] || "ERROR";
    }
    return this.kind;
  }

  get endIndex(): number {
    const runtime = _runtime!;
    return runtime._ts_node_end_index_wasm(_marshal(runtime, this));
  }

  get endPosition(): Point {
    const runtime = _runtime!;
    runtime._ts_node_end_point_wasm(_marshal(runtime, this));
    const heap = runtime.HEAP32;
    return { row: heap[_buffer] >>> 0, column: heap[_buffer + 1] >>> 0 };
  }

  get hasError(): boolean {
    const runtime = _runtime!;
    return runtime._ts_node_has_error_wasm(_marshal(runtime, this)) === 1;
  }

  get text(): string {
    return this.tree.source.slice(this.startIndex, this.endIndex);
  }

  get firstChild(): FastNode | null {
    const runtime = _runtime!;
    runtime._ts_node_child_wasm(_marshal(runtime, this), 0);
    return _unmarshal(runtime, this.tree, _buffer);
  }

  namedChild(index: number): FastNode | null {
    const runtime = _runtime!;
    runtime._ts_node_named_child_wasm(_marshal(runtime, this), index);
    return _unmarshal(runtime, this.tree, _buffer);
  }

  get namedChildren(): (FastNode | null)[] {
    if (!this.kids) {
      const runtime = _runtime!;
      runtime._ts_node_named_children_wasm(_marshal(runtime, this));
      this.kids = _unmarshalList(runtime, this.tree);
    }
    return this.kids;
  }

  childForFieldName(name: string): FastNode | null {
    const field = this.tree.fields.get(name);
    if (field === undefined) return null;
    const runtime = _runtime!;
    runtime._ts_node_child_by_field_id_wasm(_marshal(runtime, this), field);
    return _unmarshal(runtime, this.tree, _buffer);
  }

  childrenForFieldName(name: string): (FastNode | null)[] {
    const field = this.tree.fields.get(name);
    if (field === undefined || field === 0) return [];
    const runtime = _runtime!;
    runtime._ts_node_children_by_field_id_wasm(_marshal(runtime, this), field);
    return _unmarshalList(runtime, this.tree);
  }
}

/**
 * The root node of `tree`, parsed from `source`: a light node while the runtime is the one
 * {@linkcode useRuntime} was given, else web-tree-sitter's own.
 */
export function rootOf(tree: Tree, source: string): SyntaxNode {
  const runtime = _runtime;
  const address = (tree as unknown as Record<number, unknown>)[0];
  const language = tree.language as unknown as { types: string[]; fields: (string | null)[] };
  if (!runtime || typeof address !== "number" || !Array.isArray(language.types)) {
    return tree.rootNode;
  }
  const context = new TreeContext(address, language.types, _fields(language.fields), source);
  runtime._ts_tree_root_node_wasm(address);
  return _unmarshal(runtime, context, _buffer) ?? tree.rootNode;
}
