/**
 * Outline rules for Java, Ruby and Bash.
 *
 * Java: classes, records, interfaces, enums (nested ones too), methods and constructors,
 * `static final` fields as constants. Ruby: classes, modules, methods (`def self.x` too),
 * constants. Bash: functions.
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

function _javaConstants(node: SyntaxNode, scope: Scope): Definition[] {
  const modifiers = bodyChildren(node).find((c) => c.type === "modifiers")?.text ?? "";
  const implicit = scope.container === "module"; // interface fields are static final
  if (!implicit && !(/\bstatic\b/.test(modifiers) && /\bfinal\b/.test(modifiers))) return [];
  const declarators = node.childrenForFieldName("declarator");
  return declarators.flatMap((d) => {
    const name = d ? fieldText(d, "name") : undefined;
    return name ? [{ kind: "constant" as const, name, node }] : [];
  });
}

function _javaDescribe(node: SyntaxNode, scope: Scope): Described {
  const name = fieldText(node, "name");
  const body = node.childForFieldName("body");
  switch (node.type) {
    case "class_declaration":
    case "record_declaration":
      return name ? { kind: "class", name, node, body, children: bodyChildren(body) } : null;
    case "interface_declaration":
    case "annotation_type_declaration":
      if (!name) return null;
      // Interface members: methods, and fields that are constants by definition.
      return {
        kind: "interface",
        name,
        node,
        body,
        children: bodyChildren(body),
        childContainer: "module",
      };
    case "enum_declaration": {
      if (!name) return null;
      const members = bodyChildren(body).find((c) => c.type === "enum_body_declarations");
      return { kind: "enum", name, node, body, children: bodyChildren(members) };
    }
    case "method_declaration":
    case "constructor_declaration":
    case "compact_constructor_declaration":
      return name ? { kind: "method", name, node, body } : null;
    case "field_declaration":
    case "constant_declaration":
      return _javaConstants(node, scope);
    default:
      return null;
  }
}

function _rubyDescribe(node: SyntaxNode, scope: Scope): Described {
  switch (node.type) {
    case "class":
    case "module": {
      const name = fieldText(node, "name");
      if (!name) return null;
      const body = node.childForFieldName("body");
      return {
        kind: node.type === "class" ? "class" : "module",
        name: name.replace(/::/g, "."),
        node,
        body,
        children: bodyChildren(body),
        childContainer: node.type === "class" ? "class" : "module",
      };
    }
    case "singleton_class":
      return { descend: bodyChildren(node.childForFieldName("body")) };
    case "method":
    case "singleton_method": {
      const name = fieldText(node, "name");
      if (!name) return null;
      const kind = scope.container === "top" ? "function" : "method";
      return { kind, name, node, body: node.childForFieldName("body") };
    }
    case "assignment": {
      const left = node.childForFieldName("left");
      return left?.type === "constant" ? { kind: "constant", name: left.text, node } : null;
    }
    default:
      return null;
  }
}

function _bashDescribe(node: SyntaxNode): Described {
  // A script that defines a function only on some systems: `if …; then f() { …; }; else …; fi`.
  if (node.type === "if_statement" || node.type === "elif_clause" || node.type === "else_clause") {
    return { descend: bodyChildren(node) };
  }
  if (node.type !== "function_definition") return null;
  const name = fieldText(node, "name");
  return name ? { kind: "function", name, node, body: node.childForFieldName("body") } : null;
}

/** The rules for `.java` files. */
export const JAVA_RULES: Rules = { describe: _javaDescribe };

/** The rules for `.rb` files. */
export const RUBY_RULES: Rules = { describe: _rubyDescribe };

/** The rules for shell scripts. */
export const BASH_RULES: Rules = { describe: _bashDescribe };
