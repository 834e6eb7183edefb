/**
 * Outline rules for Python: classes, functions and methods (with their decorators), module and
 * class constants (UPPER_CASE names), and type aliases.
 */
import {
  bodyChildren,
  type Definition,
  fieldText,
  type Rules,
  type Scope,
  type SyntaxNode,
} from "./items.ts";

/** A name that reads as a constant: `MAX_SIZE`, `_DEFAULT`. */
const CONSTANT_NAME = /^_*[A-Z][A-Z0-9_]*$/;

function _describe(node: SyntaxNode, scope: Scope): Definition | null {
  switch (node.type) {
    case "decorated_definition": {
      const inner = node.childForFieldName("definition");
      const def = inner ? _describe(inner, scope) : null;
      return def ? { ...def, outer: node } : null;
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
