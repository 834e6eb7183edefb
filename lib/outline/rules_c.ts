/**
 * Outline rules for C and C++: function definitions (prototypes are left out), structs, unions,
 * classes with their inline methods, enums, typedefs, `#define` constants and `const` /
 * `constexpr` globals, namespaces. `Class::method` defined outside its class is named
 * `Class.method`. Preprocessor conditionals (include guards) and `extern "C"` are looked through.
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

const LOOK_THROUGH = new Set([
  "preproc_if",
  "preproc_ifdef",
  "preproc_else",
  "preproc_elif",
  "preproc_elifdef",
]);

/** Follows a declarator chain (`*name(args)`, `Ns::name`) to the declared name. */
function _declaredName(node: SyntaxNode | null): string | undefined {
  for (let current = node, hops = 0; current && hops < 12; hops++) {
    switch (current.type) {
      case "identifier":
      case "field_identifier":
      case "type_identifier":
      case "destructor_name":
      case "operator_name":
        return current.text;
      case "qualified_identifier":
        return current.text.replace(/<[^<>]*>/g, "").replace(/\s+/g, "").replace(/::/g, ".");
      default:
        current = current.childForFieldName("declarator") ??
          current.namedChildren.find((c) => c !== null && c.type !== "attribute_declaration") ??
          null;
    }
  }
  return undefined;
}

function _function(node: SyntaxNode, scope: Scope): Definition | null {
  const name = _declaredName(node.childForFieldName("declarator"));
  if (!name) return null;
  const kind = scope.container === "class" || name.includes(".") ? "method" : "function";
  return { kind, name, node, body: node.childForFieldName("body") };
}

function _record(node: SyntaxNode, kind: "struct" | "class"): Definition | null {
  const name = fieldText(node, "name");
  const body = node.childForFieldName("body");
  if (!name || !body) return null;
  return { kind, name: name.replace(/<.*$/s, ""), node, body, children: bodyChildren(body) };
}

function _constants(node: SyntaxNode): Definition[] {
  const isConst = bodyChildren(node).some((c) =>
    c.type === "type_qualifier" && /^(const|constexpr)$/.test(c.text)
  );
  if (!isConst) return [];
  return node.childrenForFieldName("declarator").flatMap((d) => {
    if (!d || d.type !== "init_declarator") return [];
    const name = _declaredName(d.childForFieldName("declarator"));
    return name ? [{ kind: "constant" as const, name, node }] : [];
  });
}

function _describe(node: SyntaxNode, scope: Scope): Described {
  if (LOOK_THROUGH.has(node.type)) {
    return { descend: bodyChildren(node).filter((c) => c.type !== "identifier") };
  }
  switch (node.type) {
    case "function_definition":
      return _function(node, scope);
    case "template_declaration": {
      const inner = bodyChildren(node).find((c) => c.type !== "template_parameter_list");
      const found = inner ? _describe(inner, scope) : null;
      if (!found || Array.isArray(found) || "descend" in found) return found;
      return { ...found, outer: node };
    }
    case "struct_specifier":
    case "union_specifier":
      return _record(node, "struct");
    case "class_specifier":
      return _record(node, "class");
    case "enum_specifier": {
      const name = fieldText(node, "name");
      const body = node.childForFieldName("body");
      return name && body ? { kind: "enum", name, node, body } : null;
    }
    case "type_definition":
    case "alias_declaration": {
      const name = node.type === "alias_declaration"
        ? fieldText(node, "name")
        : _declaredName(node.childForFieldName("declarator"));
      return name ? { kind: "type", name, node } : null;
    }
    case "preproc_def":
      return node.childForFieldName("value")
        ? { kind: "constant", name: fieldText(node, "name") ?? "?", node }
        : null;
    case "declaration": {
      const type = node.childForFieldName("type");
      if (type && /^(struct|class|union|enum)_specifier$/.test(type.type)) {
        return _describe(type, scope);
      }
      return _constants(node);
    }
    case "namespace_definition": {
      const name = fieldText(node, "name");
      const body = node.childForFieldName("body");
      if (!name) return { descend: bodyChildren(body) };
      return {
        kind: "module",
        name: name.replace(/::/g, "."),
        node,
        body,
        children: bodyChildren(body),
        childContainer: "module",
      };
    }
    case "linkage_specification": {
      const body = node.childForFieldName("body");
      return {
        descend: body?.type === "declaration_list" ? bodyChildren(body) : body ? [body] : [],
      };
    }
    case "declaration_list":
      return { descend: bodyChildren(node) };
    default:
      return null;
  }
}

/** The rules for C and C++ files. */
export const C_RULES: Rules = { describe: _describe };
