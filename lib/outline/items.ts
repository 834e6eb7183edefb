/**
 * The language-neutral half of outline: what an item is, and the walk that turns a syntax tree into
 * items with the help of one language's {@linkcode Rules}.
 *
 * The walk only visits the top level and the bodies of containers (classes, modules, namespaces,
 * impl blocks); it never enters function bodies, which keeps a 10,000-line file cheap.
 */
import type { SyntaxNode } from "./nodes.ts";

export type { SyntaxNode };
import { tidySignature } from "./signature.ts";

/** What an item is. Languages use the subset that exists for them. */
export type Kind =
  | "class"
  | "function"
  | "method"
  | "constant"
  | "interface"
  | "type"
  | "enum"
  | "struct"
  | "trait"
  | "module";

/** One outline entry. Lines are 1-based and inclusive. */
export interface OutlineItem {
  start: number;
  end: number;
  kind: Kind;
  /** Qualified with the containers' names: `Class.method`, `Outer.Inner.method`. */
  name: string;
  signature: string;
  /** 0 for top level, 1 inside a class, and so on. */
  depth: number;
}

/** What a container's children are: functions inside a `class` are methods. */
export type Container = "top" | "class" | "module";

/** Where the walk is. */
export interface Scope {
  /** The qualified name of the enclosing item, or "" at top level. */
  prefix: string;
  container: Container;
  depth: number;
}

/** One definition a language rule found. */
export interface Definition {
  kind: Kind;
  /** The name, unqualified (the walk adds the scope's prefix). */
  name: string;
  /** The definition's own node. */
  node: SyntaxNode;
  /** A wider node for the line range (decorators, `export`, `template<>`), if any. */
  outer?: SyntaxNode;
  /** Where the signature starts, when not at `node` (e.g. at `export`). */
  sigStart?: number;
  /** The body: the signature ends where it starts. Without one, the signature is the first line. */
  body?: SyntaxNode | null;
  /** Nodes to outline beneath this item. */
  children?: SyntaxNode[];
  /** What the children see as their container; default "class". */
  childContainer?: Container;
}

/** A rule's answer: definitions, nodes to walk in the same scope (or a new one), or nothing. */
export type Described =
  | Definition
  | Definition[]
  | { descend: SyntaxNode[]; prefix?: string; container?: Container }
  | null;

/** One language's rules: what a node at container level defines. */
export interface Rules {
  describe(node: SyntaxNode, scope: Scope): Described;
}

/** 1-based last line of `node`, not counting a trailing newline it swallowed. */
function lastLine(node: SyntaxNode): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

/** The text of a node's `name` field, or undefined. */
export function fieldText(node: SyntaxNode, field: string): string | undefined {
  return node.childForFieldName(field)?.text;
}

/** The named children of `node`, or none when it is missing. */
export function bodyChildren(node: SyntaxNode | null | undefined): SyntaxNode[] {
  return node ? (node.namedChildren.filter((c) => c !== null) as SyntaxNode[]) : [];
}

function _signature(source: string, def: Definition): string {
  const start = def.sigStart ?? def.node.startIndex;
  const bodyStart = def.body?.startIndex;
  if (bodyStart !== undefined && bodyStart > start) {
    return tidySignature(source.slice(start, Math.min(bodyStart, start + 600)), true);
  }
  let end = source.indexOf("\n", start);
  if (end < 0 || end > def.node.endIndex) end = def.node.endIndex;
  const s = tidySignature(source.slice(start, Math.min(end, start + 600)), false);
  const last = s.charCodeAt(s.length - 1);
  return last === 123 || last === 59 ? s.replace(/\s*[{;]$/, "") : s; // { ;
}

/** Walks `nodes` with `rules`, appending items to `out` in source order. */
export function walk(
  nodes: SyntaxNode[],
  scope: Scope,
  rules: Rules,
  source: string,
  out: OutlineItem[],
): void {
  for (const node of nodes) {
    if (node.type === "ERROR") {
      walk(bodyChildren(node), scope, rules, source, out);
      continue;
    }
    const found = rules.describe(node, scope);
    if (!found) continue;
    if ("descend" in found) {
      const inner: Scope = found.prefix === undefined ? scope : {
        prefix: scope.prefix ? `${scope.prefix}.${found.prefix}` : found.prefix,
        container: found.container ?? "class",
        depth: scope.depth,
      };
      walk(found.descend, inner, rules, source, out);
      continue;
    }
    for (const def of Array.isArray(found) ? found : [found]) {
      const name = scope.prefix ? `${scope.prefix}.${def.name}` : def.name;
      const range = def.outer ?? def.node;
      const end = lastLine(range);
      out.push({
        start: range.startPosition.row + 1,
        end: range === def.node ? end : Math.max(end, lastLine(def.node)),
        kind: def.kind,
        name,
        signature: _signature(source, def),
        depth: scope.depth,
      });
      if (def.children?.length) {
        const inner: Scope = {
          prefix: name,
          container: def.childContainer ?? "class",
          depth: scope.depth + 1,
        };
        walk(def.children, inner, rules, source, out);
      }
    }
  }
}

/**
 * Merges neighbours with the same name and kind (overloads, getter/setter pairs) into one item.
 * The items are the walk's own, not copied: a merged item's end is changed in place.
 */
export function mergeNeighbours(items: OutlineItem[]): OutlineItem[] {
  const out: OutlineItem[] = [];
  for (const item of items) {
    const prev = out[out.length - 1];
    if (prev && prev.name === item.name && prev.kind === item.kind && item.start <= prev.end + 2) {
      prev.end = Math.max(prev.end, item.end);
    } else {
      out.push(item);
    }
  }
  return out;
}
