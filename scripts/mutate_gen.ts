/**
 * Mutants made by machine (`deno task mutate --changed <rev>`): the TypeScript syntax tree of a
 * file (the tree-sitter grammar outline embeds) is walked, and every node on a changed line that
 * an operator applies to gives one or more mutants:
 *
 *   flip      a comparison flipped: `<` ↔ `<=`, `>` ↔ `>=`, `===` ↔ `!==`, `==` ↔ `!=`
 *   boundary  a number compared with moved by one, the way the flip does not already cover
 *   cond      a condition dropped: `a && b` → `a` and → `b` (also `||`, `??` → left);
 *             `if (c)` → `if (true)` and `if (false)`
 *   call      a call statement removed (`f(x);`, `await f(x);`)
 *   swap      two neighbouring arguments of the same look swapped (identifiers, members, numbers)
 *   return    a boolean returned negated (`return true` → `return false`, `return a < b` →
 *             `return !(a < b)`, `return !x` → `return x`)
 *   offbyone  `x + 1` / `x - 1` → `x`
 *
 * Skipped: comments, strings and template strings, imports and re-exports, type-only code (types,
 * interfaces, annotations), log and progress calls (their text and the call itself). A mutant
 * that is a syntax error (the mutated file parses with an error) is dropped; one that would not
 * type-check is kept (tests run with `--no-check`). Equal results are kept once.
 *
 * A mutant is returned in the form of scripts/mutants.json: the exact original text, widened to
 * whole lines and then line by line until it occurs once in the file, and its replacement.
 */
import type { Node, Parser } from "web-tree-sitter";

/** One generated mutant, before tests are chosen for it. */
export interface Generated {
  /** Relative to the repository. */
  file: string;
  /** 1-based line of the mutated token. */
  line: number;
  /** The operator (flip, boundary, cond, call, swap, return, offbyone). */
  kind: string;
  /** Text found exactly once in the file. */
  original: string;
  /** What replaces it. */
  replacement: string;
  /** The mutated node's text and its replacement, for a report. */
  from: string;
  to: string;
  /** In code only another OS than the one running this runs (`Deno.build.os`). */
  otherOs?: boolean;
}

/** One edit of the file's text, before it is widened to unique context. */
interface Edit {
  kind: string;
  start: number;
  end: number;
  text: string;
  /** 0-based row of the token the mutant attacks (must be a changed line). */
  row: number;
}

let _parser: Promise<Parser> | undefined;

/** A TypeScript parser (the runtime and grammar as outline loads them: embedded bytes). */
export function typescriptParser(): Promise<Parser> {
  _parser ??= (async () => {
    const [mod, core, grammar] = await Promise.all([
      import("web-tree-sitter"),
      import("web-tree-sitter/web-tree-sitter.wasm", { with: { type: "bytes" } }),
      import("tree-sitter-typescript/tree-sitter-typescript.wasm", { with: { type: "bytes" } }),
    ]);
    await mod.Parser.init({ wasmBinary: core.default });
    const parser = new mod.Parser();
    parser.setLanguage(await mod.Language.load(grammar.default));
    return parser;
  })();
  return _parser;
}

/** Nodes whose insides are never mutated. */
const SKIPPED = new Set([
  "comment",
  "string",
  "template_string",
  "regex",
  "import_statement",
  "type_annotation",
  "type_alias_declaration",
  "interface_declaration",
  "type_arguments",
  "type_parameters",
  "ambient_declaration",
  "abstract_method_signature",
]);

/** A call whose text is a log line or progress, not behaviour. */
const LOG_CALL =
  /^(console\.\w+|(\w+\.)*(log|logLine|debug|info|warn|trace|progress|note|say|show)\w*)$/;

const FLIP: Record<string, string> = {
  "<": "<=",
  "<=": "<",
  ">": ">=",
  ">=": ">",
  "===": "!==",
  "!==": "===",
  "==": "!=",
  "!=": "==",
};

/** Methods whose call is a boolean answer. */
const BOOLEAN_CALL = /\.(includes|has|startsWith|endsWith|test|some|every|isDirectory|isFile)$/;

const text = (n: Node) => n.text;

function isLogCall(n: Node): boolean {
  if (n.type !== "call_expression") return false;
  const fn = n.childForFieldName("function");
  return !!fn && LOG_CALL.test(fn.text.replace(/\?\./g, "."));
}

/** `n` shifted so `x op n` differs from both the original and its flip. */
function boundaryShift(op: string, numberOnRight: boolean): number {
  // x < n: the flip is x <= n (= x < n+1), so shift to n-1; mirror for the number on the left.
  const towardLess = op === "<" || op === ">=";
  if (op === "===" || op === "!==" || op === "==" || op === "!=") return 1;
  return towardLess === numberOnRight ? -1 : 1;
}

function binaryEdits(n: Node, out: Edit[]): void {
  const op = n.childForFieldName("operator");
  const left = n.childForFieldName("left");
  const right = n.childForFieldName("right");
  if (!op || !left || !right) return;
  const row = op.startPosition.row;
  const whole = (t: string, kind: string) =>
    out.push({ kind, start: n.startIndex, end: n.endIndex, text: t, row });
  if (FLIP[op.type]) {
    out.push({ kind: "flip", start: op.startIndex, end: op.endIndex, text: FLIP[op.type], row });
    for (const [side, onRight] of [[right, true], [left, false]] as const) {
      if (side.type !== "number" || !/^\d+$/.test(side.text)) continue;
      const shifted = Number(side.text) + boundaryShift(op.type, onRight);
      if (shifted < 0) continue;
      out.push({
        kind: "boundary",
        start: side.startIndex,
        end: side.endIndex,
        text: String(shifted),
        row,
      });
    }
  } else if (op.type === "&&" || op.type === "||") {
    whole(text(left), "cond");
    whole(text(right), "cond");
  } else if (op.type === "??") {
    whole(text(left), "cond");
  } else if (
    (op.type === "+" || op.type === "-") && right.type === "number" && right.text === "1"
  ) {
    whole(text(left), "offbyone");
  }
}

function ifEdits(n: Node, out: Edit[]): void {
  const cond = n.childForFieldName("condition");
  const inner = cond?.namedChildren[0];
  if (!cond || !inner || inner.type === "true" || inner.type === "false") return;
  for (const value of ["true", "false"]) {
    out.push({
      kind: "cond",
      start: inner.startIndex,
      end: inner.endIndex,
      text: value,
      row: inner.startPosition.row,
    });
  }
}

function callStatementEdits(n: Node, out: Edit[]): void {
  let e = n.namedChildren[0];
  if (e?.type === "await_expression") e = e.namedChildren[0];
  if (e?.type !== "call_expression" || isLogCall(e)) return;
  if (e.childForFieldName("function")?.type === "super") return;
  const inBlock = ["statement_block", "program", "switch_case", "switch_default"].includes(
    n.parent?.type ?? "",
  );
  out.push({
    kind: "call",
    start: n.startIndex,
    end: n.endIndex,
    text: inBlock ? "" : "{}",
    row: n.startPosition.row,
  });
}

const SWAPPABLE = new Set(["identifier", "member_expression", "number"]);

/** Calls whose arguments commute: a swap there changes nothing. */
const COMMUTATIVE = /(^|\.)(max|min|hypot|same\w*|equal\w*)$/;

function swapEdits(n: Node, out: Edit[]): void {
  if (isLogCall(n) || COMMUTATIVE.test(n.childForFieldName("function")?.text ?? "")) return;
  const args = n.childForFieldName("arguments")?.namedChildren.filter((a) => a.type !== "comment");
  for (let i = 0; args && i + 1 < args.length; i++) {
    const [a, b] = [args[i], args[i + 1]];
    if (a.type !== b.type || !SWAPPABLE.has(a.type) || a.text === b.text) continue;
    const between = n.tree.rootNode.text.slice(a.endIndex, b.startIndex);
    out.push({
      kind: "swap",
      start: a.startIndex,
      end: b.endIndex,
      text: b.text + between + a.text,
      row: a.startPosition.row,
    });
  }
}

function looksBoolean(e: Node): boolean {
  if (e.type === "unary_expression") return e.child(0)?.type === "!";
  if (e.type === "binary_expression") {
    const op = e.childForFieldName("operator")?.type ?? "";
    return op in FLIP || op === "&&" || op === "||" || op === "instanceof" || op === "in";
  }
  if (e.type === "call_expression") {
    return BOOLEAN_CALL.test(e.childForFieldName("function")?.text ?? "");
  }
  return false;
}

function returnEdits(n: Node, out: Edit[]): void {
  const e = n.namedChildren[0];
  if (!e) return;
  const at = { start: e.startIndex, end: e.endIndex, row: e.startPosition.row, kind: "return" };
  if (e.type === "true" || e.type === "false") {
    out.push({ ...at, text: e.type === "true" ? "false" : "true" });
  } else if (e.type === "unary_expression" && e.child(0)?.type === "!") {
    const operand = e.namedChildren[0];
    if (operand) out.push({ ...at, text: operand.text });
  } else if (looksBoolean(e) && !/^[!=]==?$/.test(e.childForFieldName("operator")?.type ?? "")) {
    // (`return !(a === b)` is the flip's `return a !== b`.)
    out.push({ ...at, text: `!(${e.text})` });
  }
}

/** Every edit the operators make in the tree under `n`. */
function collectEdits(n: Node, out: Edit[]): void {
  if (SKIPPED.has(n.type) || isLogCall(n)) return;
  if (n.type === "export_statement" && n.childForFieldName("source")) return;
  switch (n.type) {
    case "binary_expression":
      binaryEdits(n, out);
      break;
    case "if_statement":
      ifEdits(n, out);
      break;
    case "expression_statement":
      callStatementEdits(n, out);
      break;
    case "call_expression":
    case "new_expression":
      swapEdits(n, out);
      break;
    case "return_statement":
      returnEdits(n, out);
      break;
  }
  for (const c of n.namedChildren) collectEdits(c, out);
}

/** `(Deno.build.os === "x")` or `!==`: the operator and the OS, or undefined. */
function osTest(cond: Node | null): [string, string] | undefined {
  const m = cond?.text.match(/^\(\s*Deno\.build\.os\s*([!=]==)\s*"(\w+)"\s*\)$/);
  return m ? [m[1], m[2]] : undefined;
}

/**
 * The stretches of the tree under `n` that the OS running this never runs: the body of `if
 * (Deno.build.os === "other")` or `!== "this"`, and what follows `if (Deno.build.os === "this") {
 * …; return; }` in its block.
 */
function otherOsRanges(n: Node, os: string, out: [number, number][]): void {
  if (n.type === "if_statement") {
    const test = osTest(n.childForFieldName("condition"));
    const body = n.childForFieldName("consequence");
    if (test && body && (test[0] === "===") !== (test[1] === os)) {
      out.push([body.startIndex, body.endIndex]);
    }
    const stmts = body?.namedChildren ?? [];
    const returns = stmts[stmts.length - 1]?.type === "return_statement";
    const block = n.parent;
    if (
      test?.[0] === "===" && test[1] === os && returns && block &&
      !n.childForFieldName("alternative")
    ) {
      out.push([n.endIndex, block.type === "program" ? block.endIndex : block.endIndex - 1]);
    }
  }
  for (const c of n.namedChildren) otherOsRanges(c, os, out);
}

/** How often `needle` occurs in `hay` (overlaps not counted). */
function count(hay: string, needle: string): number {
  let n = 0;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** The start of the line holding `i`, and the end of the line holding `j` (newline excluded). */
function lineSpan(source: string, i: number, j: number): [number, number] {
  const start = source.lastIndexOf("\n", i - 1) + 1;
  const nl = source.indexOf("\n", j);
  return [start, nl < 0 ? source.length : nl];
}

/** The edit widened to whole lines, then a line up and a line down in turn, until unique. */
export function uniqueContext(source: string, e: { start: number; end: number }): [number, number] {
  let [start, end] = lineSpan(source, e.start, e.end);
  for (let up = true; count(source, source.slice(start, end)) !== 1; up = !up) {
    if (start === 0 && end === source.length) break;
    if ((up && start > 0) || end === source.length) {
      start = source.lastIndexOf("\n", start - 2) + 1;
    } else {
      const nl = source.indexOf("\n", end + 1);
      end = nl < 0 ? source.length : nl;
    }
  }
  return [start, end];
}

/**
 * The mutants of `source` (the file `file`) on the 1-based `lines` (all lines when undefined).
 */
export async function generate(
  file: string,
  source: string,
  lines?: Set<number>,
): Promise<Generated[]> {
  const parser = await typescriptParser();
  const tree = parser.parse(source);
  if (!tree) return [];
  const edits: Edit[] = [];
  const otherOs: [number, number][] = [];
  try {
    collectEdits(tree.rootNode, edits);
    otherOsRanges(tree.rootNode, Deno.build.os, otherOs);
  } finally {
    tree.delete();
  }
  const seen = new Set<string>();
  const out: Generated[] = [];
  for (const e of edits.sort((a, b) => a.start - b.start || a.end - b.end)) {
    if (lines && !lines.has(e.row + 1)) continue;
    const mutated = source.slice(0, e.start) + e.text + source.slice(e.end);
    if (mutated === source || seen.has(mutated)) continue;
    seen.add(mutated);
    const check = parser.parse(mutated);
    const broken = !check || check.rootNode.hasError;
    check?.delete();
    if (broken) continue;
    const [start, end] = uniqueContext(source, e);
    out.push({
      file,
      line: e.row + 1,
      kind: e.kind,
      original: source.slice(start, end),
      replacement: source.slice(start, e.start) + e.text + source.slice(e.end, end),
      from: source.slice(e.start, e.end),
      to: e.text,
      ...(otherOs.some(([a, b]) => a <= e.start && e.end <= b) ? { otherOs: true } : {}),
    });
  }
  return out;
}

/** The new-side line numbers of each file in a `git diff -U0` output. */
export function changedLines(diff: string): Map<string, Set<number>> {
  const files = new Map<string, Set<number>>();
  let current: Set<number> | undefined;
  for (const line of diff.split("\n")) {
    const file = line.match(/^\+\+\+ (?:b\/(.+)|\/dev\/null)$/);
    if (file) {
      current = file[1] ? new Set() : undefined;
      if (file[1] && current) files.set(file[1], current);
      continue;
    }
    const hunk = line.match(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/);
    if (hunk && current) {
      const from = Number(hunk[1]);
      const n = hunk[2] === undefined ? 1 : Number(hunk[2]);
      for (let i = 0; i < n; i++) current.add(from + i);
    }
  }
  return files;
}

/** A small seeded generator (mulberry32), so a sample can be drawn again. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(list: T[], random: () => number): T[] {
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * `n` mutants stratified by file: each file's mutants in a seeded order, the files in a seeded
 * order, one from each file in turn until `n` are taken.
 */
export function sample(all: Generated[], n: number, seed: number): Generated[] {
  const random = seeded(seed);
  const byFile = new Map<string, Generated[]>();
  for (const m of all) byFile.set(m.file, [...(byFile.get(m.file) ?? []), m]);
  const queues = shuffle([...byFile.keys()].sort(), random).map((f) =>
    shuffle(byFile.get(f)!, random)
  );
  const out: Generated[] = [];
  while (out.length < n && queues.some((q) => q.length)) {
    for (const q of queues) {
      const m = q.shift();
      if (m && out.length < n) out.push(m);
    }
  }
  return out;
}
