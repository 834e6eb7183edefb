/**
 * Outline rules for Python: classes, functions and methods (with their decorators), module and
 * class constants (UPPER_CASE names), and type aliases, also where a module or class defines them
 * under a condition (`if sys.version_info >= …:`, `if TYPE_CHECKING:`, `try: … except
 * ImportError:`), as ctags and editors list them.
 */
import {
  bodyChildren,
  type Described,
  fieldText,
  type Rules,
  type Scope,
  type SyntaxNode,
} from "./items.ts";

/** A name that reads as a constant: `MAX_SIZE`, `_DEFAULT`. */
const CONSTANT_NAME = /^_*[A-Z][A-Z0-9_]*$/;

/** The statements of every branch of an `if`, `try` or `with` statement, in source order. */
function _branches(node: SyntaxNode, out: SyntaxNode[] = []): SyntaxNode[] {
  for (const child of bodyChildren(node)) {
    if (child.type === "block") out.push(...bodyChildren(child));
    else if (child.type.endsWith("_clause") && child.type !== "with_clause") _branches(child, out);
  }
  return out;
}

function _describe(node: SyntaxNode, scope: Scope): Described {
  switch (node.type) {
    case "if_statement":
    case "try_statement":
    case "with_statement":
      return { descend: _branches(node) };
    case "decorated_definition": {
      const inner = node.childForFieldName("definition");
      const def = inner ? _describe(inner, scope) : null;
      return def && !Array.isArray(def) && !("descend" in def) ? { ...def, outer: node } : null;
    }
    case "function_definition": {
      const name = fieldText(node, "name");
      if (!name) return null;
      return {
        kind: scope.container === "class" ? "method" : "function",
        name,
        node,
        body: node.childForFieldName("body"),
      };
    }
    case "class_definition": {
      const name = fieldText(node, "name");
      if (!name) return null;
      const body = node.childForFieldName("body");
      return { kind: "class", name, node, body, children: bodyChildren(body) };
    }
    case "type_alias_statement": {
      const name = node.childForFieldName("left")?.text;
      return name ? { kind: "type", name, node } : null;
    }
    case "expression_statement": {
      const assign = node.namedChild(0);
      if (assign?.type !== "assignment") return null;
      const left = assign.childForFieldName("left");
      if (left?.type !== "identifier") return null;
      const annotation = assign.childForFieldName("type")?.text ?? "";
      if (/\bTypeAlias$/.test(annotation)) return { kind: "type", name: left.text, node };
      if (CONSTANT_NAME.test(left.text)) return { kind: "constant", name: left.text, node };
      return null;
    }
    default:
      return null;
  }
}

/** The rules for `.py` and `.pyi` files. */
export const PYTHON_RULES: Rules = { describe: _describe };
