/**
 * Outlining one text: parse it with the language's grammar and walk the tree with the language's
 * rules. Runs in outline's worker (`worker.ts`), or in the server itself where no worker can start.
 */
import { mergeNeighbours, type OutlineItem, type Rules, walk } from "./items.ts";
import type { LanguageId } from "./languages.ts";
import { withTree } from "./parser.ts";
import { withKeptTree } from "./reparse.ts";
import type { Tree } from "web-tree-sitter";
import { rootOf, type SyntaxNode } from "./nodes.ts";
import { PYTHON_RULES } from "./rules_python.ts";
import { SCRIPT_RULES } from "./rules_script.ts";
import { GO_RULES, RUST_RULES } from "./rules_go_rust.ts";
import { C_RULES } from "./rules_c.ts";
import { BASH_RULES, JAVA_RULES, RUBY_RULES } from "./rules_other.ts";

const RULES: Record<LanguageId, Rules> = {
  python: PYTHON_RULES,
  javascript: SCRIPT_RULES,
  typescript: SCRIPT_RULES,
  tsx: SCRIPT_RULES,
  go: GO_RULES,
  rust: RUST_RULES,
  java: JAVA_RULES,
  c: C_RULES,
  cpp: C_RULES,
  ruby: RUBY_RULES,
  bash: BASH_RULES,
};

/** How far into a file a NUL byte marks it as binary (`lib/text.ts`'s `SNIFF_BYTES`). */
const SNIFF_BYTES = 8192;

/** Why a file's bytes are not text to outline. */
export type NotText = "binary" | "not UTF-8 text";

/**
 * How many bytes one step of {@linkcode decodeSource} decodes. A step's buffers (the decoder's
 * output takes up to three bytes for each one read) stay under glibc's mmap threshold
 * (`lib/process/malloc.ts`) and V8's large-object size, so they come from memory the process
 * already holds. Decoding a 591 KB file in one call took fresh pages for three copies of it, 290-
 * 440 page faults (13-14 µs each on the 2-core VMs: 4-7 ms) in outline's worker; in steps of 64
 * KB, 150-300; in steps of 32 KB, none once the worker has outlined a few files (0.4 ms).
 */
export const DECODE_STEP = 32 * 1024;

/**
 * A file's bytes as text to outline (a leading byte-order mark dropped), or why they are not text:
 * a NUL byte near the start (binary), or not valid UTF-8 throughout. As `lib/text.ts`'s
 * `decodeText`, here so that outline's worker (which loads outline's modules only) decodes the
 * bytes it is handed. Decoded in steps of {@linkcode DECODE_STEP} bytes (a character cut between
 * two steps is carried over by the decoder's stream mode).
 */
export function decodeSource(bytes: Uint8Array): { text: string } | { notText: NotText } {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return { notText: "binary" };
  try {
    const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    const parts: string[] = [];
    for (let at = 0; at < bytes.length; at += DECODE_STEP) {
      parts.push(decoder.decode(bytes.subarray(at, at + DECODE_STEP), { stream: true }));
    }
    parts.push(decoder.decode());
    const text = parts.join("");
    return { text: text.startsWith("\uFEFF") ? text.slice(1) : text };
  } catch {
    return { notText: "not UTF-8 text" };
  }
}

/** What {@linkcode outlineSource} found. */
export interface Outline {
  items: OutlineItem[];
  /** True when the parser had to recover from syntax errors (items may be missing). */
  hasErrors: boolean;
}

/** The outline of `source` from its parsed `tree`. */
export function outlineTree(tree: Tree, language: LanguageId, source: string): Outline {
  const items: OutlineItem[] = [];
  const root = rootOf(tree, source);
  const top = root.namedChildren.filter((c): c is SyntaxNode => c !== null);
  walk(top, { prefix: "", container: "top", depth: 0 }, RULES[language], source, items);
  return { items: mergeNeighbours(items), hasErrors: root.hasError };
}

/**
 * Outlines `source` as `language`. Loads the grammar on first use. With `key` (the file's path),
 * the tree is kept and the next call with that key re-parses only what changed.
 */
export function outlineSource(
  language: LanguageId,
  source: string,
  key?: string,
): Promise<Outline> {
  const use = (tree: Tree) => outlineTree(tree, language, source);
  return key === undefined
    ? withTree(language, source, use)
    : withKeptTree(key, language, source, use);
}
