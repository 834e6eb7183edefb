/**
 * Outline rules for Go and Rust.
 *
 * Go: functions, methods named `Receiver.Method`, struct / interface / other types, constants.
 * Rust: functions, structs, enums, traits (with their methods), `impl` blocks' methods named
 * `Type.method`, modules, constants and statics, type aliases.
 */
import {
  bodyChildren,
  type Definition,
  type Described,
  fieldText,
  type Kind,
  type Rules,
  type Scope,
  type SyntaxNode,
} from "./items.ts";

/** `*pkg.Rect[T]` → `Rect`. */
function _typeName(text: string): string {
  return text.replace(/^[*&\s]+|^mut\s+/g, "").replace(/[<[].*$/s, "").replace(/^.*[.:]/, "");
}

function _goReceiver(node: SyntaxNode): string {
  const param = node.childForFieldName("receiver")?.namedChildren.find((c) =>
    c?.type === "parameter_declaration"
  );
  return _typeName(param?.childForFieldName("type")?.text ?? "?");
}

function _goDescribe(node: SyntaxNode, _scope: Scope): Described {
  switch (node.type) {
    case "function_declaration": {
      const name = fieldText(node, "name");
      return name ? { kind: "function", name, node, body: node.childForFieldName("body") } : null;
    }
    case "method_declaration": {
      const name = fieldText(node, "name");
      if (!name) return null;
      return {
        kind: "method",
        name: `${_goReceiver(node)}.${name}`,
        node,
        body: node.childForFieldName("body"),
      };
    }
    case "type_declaration": {
      const specs = bodyChildren(node).filter((c) =>
        c.type === "type_spec" || c.type === "type_alias"
      );
      return specs.flatMap((spec) => {
        const name = fieldText(spec, "name");
        if (!name) return [];
        const type = spec.childForFieldName("type")?.type;
        const kind = type === "struct_type"
          ? "struct"
          : type === "interface_type"
          ? "interface"
          : "type";
        const def: Definition = { kind, name, node: spec };
        return specs.length === 1 ? [{ ...def, outer: node, sigStart: node.startIndex }] : [def];
      });
    }
    case "const_declaration": {
      const specs = bodyChildren(node).filter((c) => c.type === "const_spec");
      return specs.flatMap((spec) =>
        spec.childrenForFieldName("name").filter((n) => n !== null).map((n): Definition => ({
          kind: "constant",
          name: n!.text,
          node: spec,
          ...(specs.length === 1 ? { outer: node, sigStart: node.startIndex } : {}),
        }))
      );
    }
    default:
      return null;
  }
}

/** Rust's item node types and what they are (`impl_item` is walked through, not listed). */
const RUST_KINDS = new Map<string, Kind | "impl">([
  ["function_item", "function"],
  ["function_signature_item", "function"],
  ["struct_item", "struct"],
  ["union_item", "struct"],
  ["enum_item", "enum"],
  ["trait_item", "trait"],
  ["impl_item", "impl"],
  ["mod_item", "module"],
  ["const_item", "constant"],
  ["static_item", "constant"],
  ["type_item", "type"],
]);

function _rustDescribe(node: SyntaxNode, scope: Scope): Described {
  // Most nodes at this level (attributes, `use`, comments, macros) are no item: their type alone
  // says so, without looking up fields.
  const kind = RUST_KINDS.get(node.type);
  if (!kind) return null;
  const body = node.childForFieldName("body");
  if (kind === "impl") {
    const type = node.childForFieldName("type")?.text;
    if (!type || !body) return null;
    return { descend: bodyChildren(body), prefix: _typeName(type), container: "class" };
  }
  const name = fieldText(node, "name");
  if (!name) return null;
  switch (kind) {
    case "function":
      return { kind: scope.container === "class" ? "method" : "function", name, node, body };
    case "trait":
      return { kind, name, node, body, children: bodyChildren(body) };
    case "module":
      return {
        kind,
        name,
        node,
        body,
        children: bodyChildren(body),
        childContainer: "module",
      };
    case "constant":
    case "type":
      return { kind, name, node };
    default:
      return { kind, name, node, body };
  }
}

/** The rules for `.go` files. */
export const GO_RULES: Rules = { describe: _goDescribe };

/** The rules for `.rs` files. */
export const RUST_RULES: Rules = { describe: _rustDescribe };
