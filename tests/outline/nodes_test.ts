/**
 * outline's light nodes answer what web-tree-sitter's own `Node` answers, for every node of a file
 * in every language outline reads, and outline falls back to `Node` where it cannot make them.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Node, Tree } from "web-tree-sitter";
import { parserFor } from "../../lib/outline/parser.ts";
import { rootOf, type SyntaxNode } from "../../lib/outline/nodes.ts";
import { type LanguageId, languageOf } from "../../lib/outline/languages.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/outline/", import.meta.url));

/** Everything outline reads of a node, and of its children and fields, as plain values. */
function facts(node: SyntaxNode | null, fields: readonly (string | null)[]): unknown {
  if (!node) return null;
  const brief = (n: SyntaxNode | null) =>
    n && [n.type, n.startIndex, n.endIndex, n.startPosition, n.endPosition];
  return {
    node: brief(node),
    text: node.text,
    hasError: node.hasError,
    first: brief(node.firstChild),
    second: brief(node.namedChild(1)),
    named: node.namedChildren.map(brief),
    fields: fields.map((f) =>
      f === null
        ? null
        : [brief(node.childForFieldName(f)), node.childrenForFieldName(f).map(brief)]
    ),
    missing: node.childForFieldName("no such field"),
  };
}

function compare(light: SyntaxNode, real: Node, fields: readonly (string | null)[], at: string) {
  assert.deepEqual(facts(light, fields), facts(real, fields), at);
  const a = light.namedChildren;
  const b = real.namedChildren;
  assert.equal(a.length, b.length, at);
  for (let i = 0; i < a.length; i++) compare(a[i]!, b[i]!, fields, `${at}/${i}`);
}

async function parse(name: string): Promise<{ tree: Tree; text: string; id: LanguageId }> {
  const text = await Deno.readTextFile(`${FIXTURES}${name}`);
  const id = languageOf(name.replace(/\.txt$/, ""))!;
  const tree = (await parserFor(id)).parse(text)!;
  return { tree, text, id };
}

Deno.test("outline's light nodes answer as web-tree-sitter's nodes, in every language", async () => {
  const names = [...Deno.readDirSync(FIXTURES)].map((e) => e.name).filter((n) =>
    languageOf(n.replace(/\.txt$/, ""))
  );
  assert.ok(names.length >= 11, names.join(" "));
  for (const name of names.sort()) {
    const { tree, text } = await parse(name);
    try {
      const light = rootOf(tree, text);
      assert.notEqual(light.constructor, tree.rootNode.constructor, "a light node, not a Node");
      const fields = (tree.language as unknown as { fields: (string | null)[] }).fields;
      compare(light, tree.rootNode, fields, name);
    } finally {
      tree.delete();
    }
  }
});

Deno.test("outline's light nodes read non-ASCII text and broken files as Node does", async () => {
  const text = "def café(ünï: str) -> '☃':\n    return ünï +\nclass 🙂(:\n  pass\n";
  const tree = (await parserFor("python")).parse(text)!;
  try {
    const fields = (tree.language as unknown as { fields: (string | null)[] }).fields;
    compare(rootOf(tree, text), tree.rootNode, fields, "broken.py");
    assert.equal(rootOf(tree, text).hasError, true);
  } finally {
    tree.delete();
  }
});

Deno.test("where it cannot make light nodes, outline walks web-tree-sitter's own", () => {
  // A tree that is not the runtime's (another web-tree-sitter would keep its address elsewhere).
  const rootNode = { type: "module" };
  const tree = { rootNode, language: { types: ["module"], fields: [null] } };
  assert.equal(rootOf(tree as unknown as Tree, ""), rootNode);
});
