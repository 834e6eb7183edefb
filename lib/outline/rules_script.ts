/**
 * Outline rules for JavaScript, JSX, TypeScript and TSX: classes and their methods, functions
 * (declared or bound to a name: `const f = () => …`), `const` constants, interfaces, type aliases,
 * enums and namespaces. `export` and `declare` wrappers widen the item to include them. A module
 * wrapped in an IIFE, UMD or AMD call is outlined as if it stood at the top (`rules_wrappers.ts`).
 */
import {
  bodyChildren,
  type Definition,
  type Described,
  fieldText,
  type Rules,
  type Scope,
  type SyntaxNode,
} from "./items.ts";
import {
  assignedDefinitions,
  isFunctionValue,
  unwrap,
  wrappedStatements,
} from "./rules_wrappers.ts";

function _name(node: SyntaxNode): string | undefined {
  return fieldText(node, "name") ?? fieldText(node, "property");
}

function _valueFunction(value: SyntaxNode | null): SyntaxNode | null {
  const inner = unwrap(value);
  return isFunctionValue(inner) ? inner : null;
}

/** `require("x")`, which is an import rather than a constant. */
function _isRequire(value: SyntaxNode | null): boolean {
  return value?.type === "call_expression" &&
    value.childForFieldName("function")?.text === "require";
}

/** `const a = 1, f = () => 2;` → one definition per named declarator. */
function _variables(node: SyntaxNode, scope: Scope): Definition[] {
  const isConst = node.firstChild?.type === "const";
  const declarators = bodyChildren(node).filter((c) => c.type === "variable_declarator");
  const out: Definition[] = [];
  for (const decl of declarators) {
    const name = decl.childForFieldName("name");
    if (name?.type !== "identifier") continue;
    const value = decl.childForFieldName("value");
    const fn = _valueFunction(value);
    // The module pattern: `var m = (function () {…})()` or `(function m(ctx) {…})`: a module.
    const inner = fn?.type === "function_expression" && value?.type === "parenthesized_expression"
      ? bodyChildren(fn.childForFieldName("body"))
      : wrappedStatements(value);
    if (inner.length) {
      out.push({
        kind: fn ? "function" : "module",
        name: name.text,
        node: declarators.length === 1 ? node : decl,
        body: fn?.childForFieldName("body") ?? null,
        children: inner,
        childContainer: "module",
      });
      continue;
    }
    if (!fn && (!isConst || _isRequire(value))) continue;
    out.push({
      kind: fn ? (scope.container === "class" ? "method" : "function") : "constant",
      name: name.text,
      node: declarators.length === 1 ? node : decl,
      body: fn?.childForFieldName("body") ?? null,
    });
  }
  return out;
}

function _member(node: SyntaxNode): Definition | null {
  const name = _name(node) ?? "?";
  const fn = _valueFunction(node.childForFieldName("value"));
  if (fn) return { kind: "method", name, node, body: fn.childForFieldName("body") };
  const text = node.text;
  const isStaticReadonly = /^(?:[\w@]+\s+)*static\s+(?:\w+\s+)*readonly\b/.test(text) ||
    /^(?:[\w@]+\s+)*readonly\s+static\b/.test(text);
  return isStaticReadonly ? { kind: "constant", name, node } : null;
}

function _describe(node: SyntaxNode, scope: Scope): Described {
  switch (node.type) {
    case "export_statement":
    case "ambient_declaration": {
      // `declaration` and `value` never come together: the common case is looked up first.
      const declaration = node.childForFieldName("declaration");
      const value = declaration ? null : node.childForFieldName("value");
      if (value) {
        // `export default function () {}`, `export default class {}`, `export default x(…)`
        if (value.type === "function_expression" || value.type === "class") {
          return _describeDefault(value, node);
        }
        return {
          kind: "constant",
          name: "default",
          node: value,
          outer: node,
          sigStart: node.startIndex,
        };
      }
      const inner = declaration ??
        bodyChildren(node).find((c) => c.type !== "decorator" && c.type !== "comment");
      if (!inner) return null;
      const found = _describe(inner, scope);
      if (!found || "descend" in found) return found;
      const defs = Array.isArray(found) ? found : [found];
      return defs.map((d) =>
        defs.length === 1 ? { ...d, outer: node, sigStart: node.startIndex } : d
      );
    }
    case "expression_statement": {
      const expression = node.namedChild(0);
      const wrapped = wrappedStatements(expression);
      if (wrapped.length) return { descend: wrapped };
      const assigned = expression && assignedDefinitions(node, expression);
      if (assigned) return assigned;
      return { descend: bodyChildren(node).filter((c) => c.type === "internal_module") };
    }
    case "function_declaration":
    case "generator_function_declaration": {
      const name = _name(node);
      if (!name) return null;
      return { kind: "function", name, node, body: node.childForFieldName("body") };
    }
    case "function_signature": { // has no body
      const name = _name(node);
      return name ? { kind: "function", name, node } : null;
    }
    case "class_declaration":
    case "abstract_class_declaration": {
      const name = _name(node);
      if (!name) return null;
      const body = node.childForFieldName("body");
      return { kind: "class", name, node, body, children: bodyChildren(body) };
    }
    case "method_definition":
      return {
        kind: "method",
        name: _name(node) ?? "?",
        node,
        body: node.childForFieldName("body"),
      };
    case "method_signature": // no body
    case "abstract_method_signature":
      return { kind: "method", name: _name(node) ?? "?", node };
    case "public_field_definition":
    case "field_definition":
      return _member(node);
    case "interface_declaration":
      return {
        kind: "interface",
        name: _name(node) ?? "?",
        node,
        body: node.childForFieldName("body"),
      };
    case "type_alias_declaration":
      return { kind: "type", name: _name(node) ?? "?", node };
    case "enum_declaration":
      return { kind: "enum", name: _name(node) ?? "?", node, body: node.childForFieldName("body") };
    case "internal_module":
    case "module": {
      const body = node.childForFieldName("body");
      return {
        kind: "module",
        name: (_name(node) ?? "?").replace(/^["']|["']$/g, ""),
        node,
        body,
        children: bodyChildren(body),
        childContainer: "module",
      };
    }
    case "lexical_declaration":
    case "variable_declaration":
      return _variables(node, scope);
    default:
      return null;
  }
}

function _describeDefault(inner: SyntaxNode, outer: SyntaxNode): Definition {
  const body = inner.childForFieldName("body");
  const isClass = inner.type === "class";
  return {
    kind: isClass ? "class" : "function",
    name: _name(inner) ?? "default",
    node: inner,
    outer,
    sigStart: outer.startIndex,
    body,
    children: isClass ? bodyChildren(body) : undefined,
  };
}

/** The rules for JavaScript, JSX, TypeScript and TSX files. */
export const SCRIPT_RULES: Rules = { describe: _describe };
