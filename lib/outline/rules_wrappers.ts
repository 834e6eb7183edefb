/**
 * JavaScript's module wrappers, which hide a whole module inside one statement, for the script
 * rules to look through: an IIFE (`(function () {…})()`, `!function () {…}()`,
 * `(function () {…}.call(this))`), UMD (`(function (root, factory) {…})(this, function () {…})`),
 * AMD (`define([…], function (…) {…})`), the module pattern (`var m = (function () {…})()`), and
 * CommonJS assignments (`module.exports = {…}`, `exports.f = function () {…}`,
 * `Foo.prototype.bar = function () {…}`).
 */
import { bodyChildren, type Definition, fieldText, type SyntaxNode } from "./items.ts";

/** SyntaxNode types of a function used as a value. */
export const FUNCTION_VALUES = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
]);

/** `node` without the parentheses or unary operator (`!`, `void`, `+`) around it. */
export function unwrap(node: SyntaxNode | null | undefined): SyntaxNode | null {
  let n = node ?? null;
  while (n && (n.type === "parenthesized_expression" || n.type === "unary_expression")) {
    n = n.childForFieldName("argument") ?? n.namedChild(0);
  }
  return n;
}

/** True for a function used as a value. */
export function isFunctionValue(node: SyntaxNode | null): node is SyntaxNode {
  return node !== null && FUNCTION_VALUES.has(node.type);
}

/** The function a call runs at once: `f` in `(f)()`, `f.call(this)`, `f.apply(…)`. */
function _called(call: SyntaxNode): SyntaxNode | null {
  let callee = unwrap(call.childForFieldName("function"));
  if (callee?.type === "member_expression") {
    const method = callee.childForFieldName("property")?.text;
    if (method !== "call" && method !== "apply") return null;
    callee = unwrap(callee.childForFieldName("object"));
  }
  return isFunctionValue(callee) ? callee : null;
}

/**
 * The statements of the module that `expression` wraps (an IIFE's body, a UMD factory's, an AMD
 * callback's), or none when it is no wrapper.
 */
export function wrappedStatements(expression: SyntaxNode | null): SyntaxNode[] {
  const call = unwrap(expression);
  if (call?.type !== "call_expression") return [];
  const fn = _called(call);
  if (!fn && call.childForFieldName("function")?.text !== "define") return [];
  const args = bodyChildren(call.childForFieldName("arguments")).map(unwrap).filter(
    isFunctionValue,
  );
  return [fn, ...args].flatMap((f) => {
    const body = f?.childForFieldName("body");
    return body?.type === "statement_block" ? bodyChildren(body) : [];
  });
}

function _objectMember(member: SyntaxNode): Definition[] {
  if (member.type === "method_definition") {
    const name = fieldText(member, "name");
    return name
      ? [{ kind: "function", name, node: member, body: member.childForFieldName("body") }]
      : [];
  }
  if (member.type !== "pair") return [];
  const value = unwrap(member.childForFieldName("value"));
  const key = member.childForFieldName("key")?.text.replace(/^["']|["']$/g, "");
  if (!key || !isFunctionValue(value)) return [];
  return [{ kind: "function", name: key, node: member, body: value.childForFieldName("body") }];
}

/**
 * What an assignment statement defines: `module.exports = {…}` its functions, an assignment of a
 * function to `exports.f`, `module.exports`, `Foo.prototype.bar` or `Foo.bar` one function or
 * method (named without `module.exports.` / `exports.` / `prototype.`). Null for anything else.
 */
export function assignedDefinitions(
  statement: SyntaxNode,
  expression: SyntaxNode,
): Definition[] | null {
  if (expression.type !== "assignment_expression") return null;
  const left = expression.childForFieldName("left");
  const right = unwrap(expression.childForFieldName("right"));
  if (left?.type !== "member_expression" || !right) return null;
  const target = left.text;
  if ((target === "module.exports" || target === "exports") && right.type === "object") {
    return bodyChildren(right).flatMap(_objectMember);
  }
  if (!isFunctionValue(right) || !/^[\w$]+(?:\.[\w$]+)+$/.test(target)) return null;
  const isMethod = target.includes(".prototype.");
  const name = target === "module.exports"
    ? fieldText(right, "name") ?? "module.exports"
    : target.replace(/^(?:module\.)?exports\./, "").replace(".prototype.", ".");
  return [{
    kind: isMethod ? "method" : "function",
    name,
    node: statement,
    body: right.childForFieldName("body"),
  }];
}
