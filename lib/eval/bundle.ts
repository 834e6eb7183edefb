/**
 * A task as one text file (docs/EVAL.md, "Task bundles"): a txtar archive (Go's text archive, each
 * file introduced by a `-- path --` line) holding `task.json`, `files/<path>` and the solution,
 * either whole (`solution/<path>`) or as one unified diff against `files/` (`solution.diff`). The
 * bundled suite is stored this way, as data: a 3,000-line file is held once, its fix as a diff.
 */
import { applyPatch, formatPatch, parsePatch, structuredPatch } from "diff";

/** The texts of a bundled task, path (relative to `files/` or `solution/`) → content. */
export interface BundleTexts {
  /** `task.json`, as written. */
  taskJson: string;
  files: Record<string, string>;
  /** The files a right answer leaves (only those that change), over `files`. */
  solution: Record<string, string>;
}

/** The line that starts a file in a txtar archive. */
const MARKER = /^-- (.+) --$/;

/** The sections of a txtar archive, in order; the comment before the first is left out. */
export function parseTxtar(text: string): [string, string][] {
  const out: [string, string][] = [];
  let current: { name: string; lines: string[] } | undefined;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    const m = MARKER.exec(line);
    if (m) {
      if (current) out.push([current.name, _joined(current.lines)]);
      current = { name: m[1].trim(), lines: [] };
    } else current?.lines.push(line);
  }
  if (current) out.push([current.name, _joined(current.lines)]);
  return out;
}

function _joined(lines: string[]): string {
  return lines.length ? lines.join("\n") + "\n" : "";
}

/** The texts of a bundle; throws an Error naming what is wrong. */
export function readBundle(text: string): BundleTexts {
  let taskJson: string | undefined;
  let diff: string | undefined;
  const files: Record<string, string> = {};
  const solution: Record<string, string> = {};
  for (const [name, content] of parseTxtar(text)) {
    if (name === "task.json") taskJson = content;
    else if (name === "solution.diff") diff = content;
    else if (name.startsWith("files/")) files[name.slice(6)] = content;
    else if (name.startsWith("solution/")) solution[name.slice(9)] = content;
    else {throw new Error(
        `unknown section "${name}" (task.json, files/…, solution/…, solution.diff)`,
      );}
  }
  if (taskJson === undefined) throw new Error("no task.json section");
  for (const patch of diff === undefined ? [] : parsePatch(diff)) {
    const rel = patch.oldFileName?.replace(/^files\//, "") ?? "";
    const after = rel in files ? applyPatch(files[rel], patch) : false;
    if (after === false) throw new Error(`solution.diff does not apply to files/${rel}`);
    solution[rel] = after;
  }
  return { taskJson, files, solution };
}

/** Throws unless `text` can be a section: ends with a newline, holds no `-- x --` line. */
function _section(name: string, text: string): string {
  if (text && !text.endsWith("\n")) throw new Error(`${name} does not end with a newline`);
  if (text.split("\n").some((line) => MARKER.test(line))) {
    throw new Error(`${name} holds a line of the form "-- x --", which starts a section`);
  }
  return `-- ${name} --\n${text}`;
}

/**
 * The bundle of `texts`: a solution file that exists in `files` is written as part of one diff,
 * a new one whole. Throws when a text does not end with a newline or holds a `-- x --` line.
 */
export function writeBundle(texts: BundleTexts, comment = ""): string {
  const parts = [comment && !comment.endsWith("\n") ? comment + "\n" : comment];
  parts.push(_section("task.json", texts.taskJson));
  for (const [rel, text] of Object.entries(texts.files)) parts.push(_section(`files/${rel}`, text));
  const diffs: string[] = [];
  for (const [rel, after] of Object.entries(texts.solution)) {
    if (!(rel in texts.files)) parts.push(_section(`solution/${rel}`, after));
    else {
      const patch = structuredPatch(
        `files/${rel}`,
        `solution/${rel}`,
        texts.files[rel],
        after,
        undefined,
        undefined,
        { context: 3 },
      );
      // jsdiff starts each file with a line of "="; the diff reads the same without it
      diffs.push(formatPatch(patch).replace(/^=+\n/, ""));
    }
  }
  if (diffs.length) parts.push(_section("solution.diff", diffs.join("")));
  return parts.join("");
}
