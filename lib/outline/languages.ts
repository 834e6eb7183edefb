/**
 * The languages `outline` reads: file extensions, and where each grammar's `.wasm` comes from.
 *
 * Every grammar is a bytes import of a string literal, so `deno compile` embeds it and loading it
 * needs no read permission; each import is dynamic, so a grammar is only loaded when a file of its
 * language is first outlined.
 */

/** A language's id, as shown in results. */
export type LanguageId =
  | "python"
  | "javascript"
  | "typescript"
  | "tsx"
  | "go"
  | "rust"
  | "java"
  | "c"
  | "cpp"
  | "ruby"
  | "bash";

type BytesModule = { default: Uint8Array };

/** The grammar loaders, each one literal dynamic import (so the compiler can see it). */
const GRAMMARS: Record<LanguageId, () => Promise<BytesModule>> = {
  python: () => import("tree-sitter-python/tree-sitter-python.wasm", { with: { type: "bytes" } }),
  javascript: () =>
    import("tree-sitter-javascript/tree-sitter-javascript.wasm", { with: { type: "bytes" } }),
  typescript: () =>
    import("tree-sitter-typescript/tree-sitter-typescript.wasm", { with: { type: "bytes" } }),
  tsx: () => import("tree-sitter-typescript/tree-sitter-tsx.wasm", { with: { type: "bytes" } }),
  go: () => import("tree-sitter-go/tree-sitter-go.wasm", { with: { type: "bytes" } }),
  rust: () => import("tree-sitter-rust/tree-sitter-rust.wasm", { with: { type: "bytes" } }),
  java: () => import("tree-sitter-java/tree-sitter-java.wasm", { with: { type: "bytes" } }),
  c: () => import("tree-sitter-c/tree-sitter-c.wasm", { with: { type: "bytes" } }),
  cpp: () => import("tree-sitter-cpp/tree-sitter-cpp.wasm", { with: { type: "bytes" } }),
  ruby: () => import("tree-sitter-ruby/tree-sitter-ruby.wasm", { with: { type: "bytes" } }),
  bash: () => import("tree-sitter-bash/tree-sitter-bash.wasm", { with: { type: "bytes" } }),
};

/** The runtime's own `.wasm`, loaded with the first grammar. */
export function loadCoreWasm(): Promise<Uint8Array> {
  return import("web-tree-sitter/web-tree-sitter.wasm", { with: { type: "bytes" } }).then((m) =>
    (m as BytesModule).default
  );
}

/** The bytes of one grammar. */
export async function loadGrammarWasm(id: LanguageId): Promise<Uint8Array> {
  return (await GRAMMARS[id]()).default;
}

/** File extension (lower case, with the dot) → language. */
const EXTENSIONS: Record<string, LanguageId> = {
  ".py": "python",
  ".pyi": "python",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".go": "go",
  ".rs": "rust",
  ".java": "java",
  ".c": "c",
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hh": "cpp",
  ".hpp": "cpp",
  ".hxx": "cpp",
  ".rb": "ruby",
  ".sh": "bash",
  ".bash": "bash",
};

/** The extensions outline understands, in the order shown in error messages. */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.keys(EXTENSIONS);

/**
 * A line of C++ that C never has: `template<`, `namespace n {`, `class X {` (or `: base`, or a
 * forward `class X;`), `public:`/`private:`/`protected:`, `using namespace`. Not `extern "C"` nor
 * `__cplusplus`, which C headers hold for C++ readers.
 */
const CPP_LINE = new RegExp(
  String.raw`^[ \t]*(?:template\s*<|namespace(?:\s+[\w:]+)?\s*\{|class(?:\s+\w+){1,4}\s*[:{;]|` +
    String.raw`(?:public|private|protected)\s*:(?!:)|using\s+namespace\s)`,
  "m",
);

/** How much of a header's text is read for signs of C++. */
const SNIFF_CHARS = 64 * 1024;

/**
 * The language of a `.h` file's text: C++ when a line shows C++ (as ctags and editors choose),
 * otherwise C. Reads the first 64 KiB.
 */
export function headerLanguage(text: string | Uint8Array): "c" | "cpp" {
  const head = typeof text === "string"
    ? text.slice(0, SNIFF_CHARS)
    : new TextDecoder().decode(text.subarray(0, SNIFF_CHARS));
  return CPP_LINE.test(head) ? "cpp" : "c";
}

/**
 * The language of `path` by its extension, or undefined when outline does not read it. With the
 * file's `text` (or bytes), a `.h` file that shows C++ is C++ ({@linkcode headerLanguage}).
 */
export function languageOf(path: string, text?: string | Uint8Array): LanguageId | undefined {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  if (dot <= slash + 1) return undefined;
  const extension = path.slice(dot).toLowerCase();
  return extension === ".h" && text !== undefined ? headerLanguage(text) : EXTENSIONS[extension];
}
