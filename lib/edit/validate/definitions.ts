/**
 * Definitions kept: an edit that removes a definition the file had (a function, a class, a method,
 * a constant), or moves it out of its parent, is refused unless the task's words ask for it; an
 * edit that writes the same definition twice over is refused too (a reply that repeated itself).
 *
 * Definitions come from the outline of the file before and after (the grammars outline embeds);
 * for a language without one, from the lines that define something by the usual keywords
 * (`function`, `local function`, `def`, `fun`, `sub`, `CREATE TABLE` …), by name only.
 *
 * The task's words allow a removal when they name the definition (`remove old_footer`, `rename
 * load to read`, `move parse to utils.py`), or, when they name none of the file's definitions,
 * when they ask for a deletion or a rewrite at all.
 */
import { definitionsOf, languageOf } from "../../outline/mod.ts";
import { quoteValue } from "../refusal.ts";
import { changedLines, linesOf } from "./lines.ts";
import type { FileChange, TaskWords, Validator } from "./types.ts";

/** One definition: its qualified name (`Cart.total`) and its text (for repeats). */
interface Def {
  name: string;
  /** Its lines (computed only for a definition that may be repeated). */
  text: () => string;
  /** A constant or variable: it counts as removed only when its name is gone from the file. */
  value?: boolean;
  /** A class, module, struct, interface, trait or enum: written twice is a repeat. */
  container?: boolean;
  /** A function or method: its body may not be emptied unasked. */
  callable?: boolean;
  /** Its first and last line (1-based). */
  start?: number;
  end?: number;
}

const CONTAINERS = new Set(["class", "module", "struct", "interface", "trait", "enum"]);

const PROSE =
  /\.(md|markdown|mdx|txt|rst|adoc|org|csv|tsv|log|json|ya?ml|toml|ini|cfg|conf|env|lock|xml|html?|svg)$/i;
const KEYWORD_DEFS = [
  /^\s*(?:local\s+)?function\s+([A-Za-z_$][\w.:$]*)/,
  /^\s*(?:(?:public|private|protected|internal|static|final|abstract|async|export|override|suspend|inline|open|data|sealed|pub)\s+)*(?:def|fun|fn|func|sub|proc|function|class|module|struct|interface|enum|trait|object|record)\s+([A-Za-z_$][\w.$?!]*)/,
  /^\s*create\s+(?:or\s+replace\s+)?(?:temporary\s+)?(?:function|procedure|table|view|trigger|index|type|schema)\s+(?:if\s+not\s+exists\s+)?([\w."`]+)/i,
  /^([A-Za-z_][\w-]*)\s*\(\)\s*\{/,
];

function _byKeyword(text: string): Def[] {
  const out: Def[] = [];
  for (const line of text.split("\n")) {
    if (line.length > 300) continue;
    for (const re of KEYWORD_DEFS) {
      const m = line.match(re);
      if (m) {
        const text = line.trim();
        out.push({ name: m[1], text: () => text });
        break;
      }
    }
  }
  return out;
}

const _known = new Map<string, Def[] | null>();

/** The definitions of `text` as `path`, kept for the next reply (the file as it was repeats). */
async function _defs(path: string, text: string): Promise<Def[] | null> {
  const key = `${path}\0${text}`;
  if (_known.has(key)) return _known.get(key)!;
  const defs = await _read(path, text);
  _known.set(key, defs);
  if (_known.size > 4) _known.delete(_known.keys().next().value!);
  return defs;
}

async function _read(path: string, text: string): Promise<Def[] | null> {
  if (!languageOf(path, text)) return PROSE.test(path) ? null : _byKeyword(text);
  let items;
  try {
    items = await definitionsOf(path, text);
  } catch {
    return null; // no parser to ask: the checks decide
  }
  // A text the grammar does not read cleanly gives no trustworthy list.
  if (!items) return null;
  let lines: string[] | null = null;
  return items.map((i) => ({
    name: i.name,
    text: () => (lines ??= text.split("\n")).slice(i.start - 1, i.end).join("\n").trim(),
    value: i.kind === "constant",
    container: CONTAINERS.has(i.kind),
    callable: i.kind === "function" || i.kind === "method",
    start: i.start,
    end: i.end,
  }));
}

function _count(defs: readonly Def[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const d of defs) n.set(d.name, (n.get(d.name) ?? 0) + 1);
  return n;
}

function _last(name: string): string {
  return name.slice(Math.max(name.lastIndexOf("."), name.lastIndexOf(":")) + 1);
}

function _named(spec: string, name: string): boolean {
  const word = _last(name).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return word.length > 0 && new RegExp(`(^|[^\\w$])${word}($|[^\\w$])`).test(spec);
}

/** Words that ask for something to go (or to go elsewhere, or under another name). */
const VERBS =
  "remove|removes|removing|delete|deletes|deleting|drop|drops|dropping|rename|renames|renaming|" +
  "move|moves|moving|merge|merges|merging|inline|inlines|inlining|replace|replaces|replacing|" +
  "get rid of|eliminate|eliminates|consolidate|combine|rewrite|rewrites|rewriting|deprecate|" +
  "convert|converts|extract|extracts|split|splits|turn|turns|fold|folds|collapse|collapses";
/** A verb that asks for definitions to go, with definitions as its object but no name. */
const GENERIC = new RegExp(
  `\\b(${VERBS})\\b\\s+(\\S+\\s+){0,4}?(functions?|methods?|class(es)?|helpers?|definitions?|` +
    "constants?|code|wrappers?|handlers?|aliases|duplicates?|stubs?|everything)\\b",
  "i",
);

/** Words too common to tie a definition to a removal by a part of its name. */
const COMMON = new Set([
  "the",
  "that",
  "this",
  "with",
  "from",
  "into",
  "column",
  "columns",
  "function",
  "functions",
  "method",
  "methods",
  "class",
  "field",
  "fields",
  "table",
  "file",
  "code",
  "anything",
  "every",
  "unused",
  "old",
  "legacy",
  "all",
  "its",
  "and",
  "references",
  "including",
]);

/**
 * True when the task's words ask for a thing whose name this definition carries as a part ("remove
 * the legacy_code column, including anything that references it" allows the index
 * `customers_legacy_code_idx`): a removal verb, then within a few words an identifier (snake_case
 * or camelCase) that the definition's name holds whole between `_`, `.` or its ends.
 */
function _askedByPart(spec: string, name: string): boolean {
  const lower = name.toLowerCase();
  const verbs = new RegExp(`\\b(${VERBS})\\b((\\s+[\\w.$-]+){1,5})`, "gi");
  for (const m of spec.matchAll(verbs)) {
    for (const word of m[2].match(/[\w$]+/g) ?? []) {
      // An identifier: snake_case or camelCase, not a plain word ("customers").
      if (!/_|[a-z][A-Z]/.test(word)) continue;
      const w = word.toLowerCase();
      if (COMMON.has(w)) continue;
      const at = lower.indexOf(w);
      if (at < 0) continue;
      const before = at === 0 || /[_.:]/.test(lower[at - 1]);
      const after = at + w.length === lower.length || /[_.:]/.test(lower[at + w.length]);
      if (before && after) return true;
    }
  }
  return false;
}

/** True when the task's words ask for `name` to go: a removal verb a few words before it. */
function _asked(spec: string, name: string): boolean {
  if (_askedByPart(spec, name)) return true;
  const word = _last(name).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (!word) return false;
  return new RegExp(`\\b(${VERBS})\\b[^.;:\\n]{0,60}?(^|[^\\w$])${word}($|[^\\w$])`, "i")
    .test(spec);
}

/**
 * The removed definitions the task's words do not allow: a removal verb before a definition's
 * name (or its parent's) allows it; a removal verb whose object is definitions by kind (`remove
 * the unused helpers`) allows any, when no definition of the file is named.
 */
function _unasked(removed: string[], before: readonly Def[], task: TaskWords): string[] {
  const words = new Set(task.spec.match(/[\w$]+/g) ?? []);
  const namesAny = before.some((d) => words.has(_last(d.name)));
  const generic = !namesAny && (GENERIC.test(task.spec) || task.deletion.all);
  const allowed = (name: string): boolean => {
    const parts = name.split(".");
    for (let k = 1; k <= parts.length; k++) {
      if (_asked(task.spec, parts.slice(0, k).join("."))) return true;
    }
    return generic;
  };
  return removed.filter((name) => !allowed(name));
}

/**
 * A definition the edit writes twice: the same lines again (a reply that repeated itself), or a
 * class or module the file had once written twice (the old version and the new one, one after
 * the other). Overloads and property setters differ, and are functions: they pass.
 */
function _repeated(before: readonly Def[], after: readonly Def[]): string | null {
  const was = _count(before);
  const seen = new Map<string, Def[]>();
  for (const d of after) seen.set(d.name, [...(seen.get(d.name) ?? []), d]);
  for (const [name, defs] of seen) {
    if (defs.length <= (was.get(name) ?? 0) || defs.length < 2) continue;
    if (defs.some((d) => d.container)) return name;
    const texts = defs.map((d) => d.text());
    if (new Set(texts).size < texts.length && texts[0].includes("\n")) return name;
  }
  return null;
}

/** The lines that differ, 1-based and inclusive, in `before` and in `after` (past a common start and end). */
function _changedSpans(before: string, after: string) {
  const b = linesOf(before);
  const a = linesOf(after);
  const m = changedLines(b, a);
  const changed = a.slice(m.head, m.afterTo);
  return { bFrom: m.head + 1, bTo: m.beforeTo, aFrom: m.head + 1, aTo: m.afterTo, changed };
}

/** A line that may define something, in any language. */
const DEFINING =
  /\b(def|class|function|fn|func|fun|sub|interface|struct|enum|trait|type|impl|module|namespace|const|let|var|static|export|local|macro_rules)\b|=>|^\s*[\w$.]+\s*[:=]/;

/**
 * The function whose body an edit stays inside (past its first line and before its last, writing
 * no line that may define something), as it is after the edit; `null` for any other edit (then
 * the file's definitions are read again).
 */
function _inOneBody(
  before: readonly Def[],
  c: ReturnType<typeof _changedSpans>,
  after: string,
): Def | null {
  if (c.changed.some((l) => DEFINING.test(l))) return null;
  const inside = before.filter((d) =>
    d.callable && d.start !== undefined && d.end !== undefined && d.start < c.bFrom &&
    d.end > c.bTo
  );
  // The innermost one (a method inside a function's class is still one body).
  const d = inside.sort((x, y) => (x.end! - x.start!) - (y.end! - y.start!))[0];
  if (!d) return null;
  const end = d.end! + (c.aTo - c.aFrom) - (c.bTo - c.bFrom);
  const text = () => after.split("\n").slice(d.start! - 1, end).join("\n").trim();
  return { ...d, end, text };
}

function _guttedMessage(name: string, file: string): string {
  return `The edit empties the body of ${quoteValue(name)} in ${file} (a comment or a stub ` +
    "where its code was), which the task does not ask for, so nothing was written; send " +
    "the function with its code";
}

/** Lines that are not code: blank, comments, brackets, decorators, `pass`, `...`, a stub's raise. */
const NOT_CODE =
  /^\s*($|#|\/\/|\/\*|\*|--|;|@|[{}()[\];,]+$|pass\s*$|\.\.\.\s*$|…|raise NotImplementedError|throw new Error\(["'`](not implemented|todo)|todo!\(|unimplemented!\(|panic\("(not implemented|todo))/i;

function _code(text: string): number {
  return text.split("\n").filter((l) => !NOT_CODE.test(l)).length;
}

/** True when the definition's first code line opens its body (`:`, `{`): none of it is on it. */
function _opens(text: string): boolean {
  const first = text.split("\n").find((l) => !NOT_CODE.test(l)) ?? "";
  return /[:{]$/.test(first.replace(/\s*(#|\/\/).*$/, "").trimEnd());
}

/**
 * A function or method whose body the edit emptied: it had code past its first line, and has
 * none now (`// TODO: implement`, `pass`, a stub's raise), unless the task asks for it by name.
 */
function _gutted(
  before: readonly Def[],
  after: readonly Def[],
  task: TaskWords,
  changed: { from: number; to: number },
): string | null {
  const was = new Map<string, Def[]>();
  for (const d of before) was.set(d.name, [...(was.get(d.name) ?? []), d]);
  for (const d of after) {
    const old = was.get(d.name);
    if (!d.callable || old?.length !== 1 || d.start === undefined || d.end === undefined) continue;
    if (d.end < changed.from || d.start > changed.to) continue;
    if (_code(old[0].text()) < 2 || _code(d.text()) > 1 || !_opens(d.text())) continue;
    if (!_unasked([d.name], before, task).length) continue;
    return d.name;
  }
  return null;
}

/** No definition lost, moved out of its parent, or written twice, unless the task asks. */
export const DEFINITIONS: Validator = {
  name: "definitions",
  reason: "destructive",
  async check(change: FileChange, task: TaskWords) {
    // Without the task's words (a replayed reply) there is nothing to judge a removal by.
    if (change.before === null || !task.spec.trim()) return null;
    const before = await _defs(change.path, change.before);
    if (!before?.length) return null;
    const changed = _changedSpans(change.before, change.after);
    const file = quoteValue(change.path);
    const body = _inOneBody(before, changed, change.after);
    if (body) {
      // An edit inside one body keeps every definition: only that body may have been emptied.
      const gutted = _gutted(before, [body], task, { from: changed.aFrom, to: changed.aTo });
      return gutted ? _guttedMessage(gutted, file) : null;
    }
    const after = await _defs(change.path, change.after);
    if (after === null) return null;
    const twice = _repeated(before, after);
    if (twice) {
      return `The edit writes ${quoteValue(twice)} twice into ${file} (the same lines again), ` +
        "so nothing was written; send each definition once";
    }
    const has = _count(after);
    const had = _count(before);
    const values = new Set(before.filter((d) => d.value).map((d) => d.name));
    const removed = [...had].filter(([n, k]) => (has.get(n) ?? 0) < k).map(([n]) => n)
      .filter((n) => !values.has(n) || !_named(change.after, n));
    const gutted = _gutted(before, after, task, { from: changed.aFrom, to: changed.aTo });
    if (gutted) return _guttedMessage(gutted, file);
    if (!removed.length) return null;
    const unasked = _unasked(removed, before, task);
    if (!unasked.length) return null;
    const shown = unasked.slice(0, 4).map((n) => {
      const moved = n.includes(".") && has.has(_last(n));
      return moved ? `${n} (now outside its parent)` : n;
    }).join(", ");
    return `The edit removes ${shown}${unasked.length > 4 ? ", …" : ""} from ${file}, which ` +
      "the task does not ask for, so nothing was written. Keep every definition the task does " +
      "not mention, at its place and indentation: send SEARCH/REPLACE blocks that quote only " +
      "the lines you change, or the complete file with every definition";
  },
};
