/**
 * Unified diffs of a task's files, their `+N -M in K files` summary, and the reduced view
 * `show_patch` returns (changed lines plus one line of context, with recomputed hunk headers, so
 * the reduced text is still a valid patch).
 *
 * Patches use git's layout: `diff --git a/p b/p`, `--- a/p` / `+++ b/p`, new files against
 * `/dev/null`; binary files are reported as `Binary files … differ`. They apply with `git apply`
 * or `patch -p1`.
 */
import { isBinary, sameBytes, splitLines } from "../text.ts";

/** One file's part of a patch. */
export interface FileDiff {
  path: string;
  /** The unified diff text of this file, ending with a newline. */
  text: string;
  added: number;
  removed: number;
  binary: boolean;
}

const CONTEXT = 3;
const DIFF_TIMEOUT_MS = 3000;

/** A diff line longer than this (a minified file, say) is cut in the reduced view. */
export const MAX_LINE_CHARS = 300;

/** A single hunk replacing all of `old` by all of `next`, for diffs too large to compute. */
function _wholeHunk(old: string, next: string): string[] {
  const a = splitLines(old);
  const b = splitLines(next);
  const out = [`@@ -${a.length ? 1 : 0},${a.length} +${b.length ? 1 : 0},${b.length} @@`];
  out.push(...a.map((l) => `-${l}`));
  if (old && !old.endsWith("\n")) out.push("\\ No newline at end of file");
  out.push(...b.map((l) => `+${l}`));
  if (next && !next.endsWith("\n")) out.push("\\ No newline at end of file");
  return out;
}

/**
 * The diff of one file from `before` to `after` (null: the file does not exist on that side);
 * undefined when both sides are identical. The diff library loads with the first patch, not when
 * the server starts.
 */
export async function diffFile(
  path: string,
  before: Uint8Array | null,
  after: Uint8Array | null,
): Promise<FileDiff | undefined> {
  if (sameBytes(before, after)) return undefined;
  const head = [`diff --git a/${path} b/${path}`];
  if (before === null) head.push("new file mode 100644");
  if (after === null) head.push("deleted file mode 100644");
  const oldName = before === null ? "/dev/null" : `a/${path}`;
  const newName = after === null ? "/dev/null" : `b/${path}`;
  const binary = (before !== null && isBinary(before)) || (after !== null && isBinary(after));
  if (binary) {
    head.push(`Binary files ${oldName} and ${newName} differ`);
    return { path, text: head.join("\n") + "\n", added: 0, removed: 0, binary: true };
  }
  const dec = new TextDecoder();
  const old = before === null ? "" : dec.decode(before);
  const next = after === null ? "" : dec.decode(after);
  head.push(`--- ${oldName}`, `+++ ${newName}`);
  const { structuredPatch } = await import("diff");
  const patch = structuredPatch(oldName, newName, old, next, undefined, undefined, {
    context: CONTEXT,
    timeout: DIFF_TIMEOUT_MS,
  });
  const body: string[] = [];
  if (!patch) body.push(..._wholeHunk(old, next));
  else {
    for (const h of patch.hunks) {
      const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
      const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
      body.push(`@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@`, ...h.lines);
    }
  }
  const added = body.filter((l) => l.startsWith("+")).length;
  const removed = body.filter((l) => l.startsWith("-")).length;
  return { path, text: [...head, ...body].join("\n") + "\n", added, removed, binary: false };
}

/** `+3 -1 in 2 files` for `diffs`. */
export function formatStat(diffs: readonly FileDiff[]): string {
  const added = diffs.reduce((n, d) => n + d.added, 0);
  const removed = diffs.reduce((n, d) => n + d.removed, 0);
  return `+${added} -${removed} in ${diffs.length} file${diffs.length === 1 ? "" : "s"}`;
}

/** One file's section of a patch text. */
interface _Section {
  path: string;
  lines: string[];
}

function _pathOf(header: string): string {
  const name = header.slice(4).split("\t", 1)[0];
  return name === "/dev/null" ? "" : name.replace(/^[ab]\//, "");
}

/** The path in `diff --git a/P b/P` (both sides are the same path in localexec's patches). */
function _gitPath(line: string): string {
  const rest = line.slice("diff --git ".length);
  const len = (rest.length - 5) / 2;
  if (Number.isInteger(len) && rest.startsWith("a/") && rest.slice(len + 2, len + 5) === " b/") {
    return rest.slice(2, len + 2);
  }
  return rest.replace(/^a\//, "").split(" b/", 1)[0];
}

/** Splits a unified patch into per-file sections. */
function _sections(text: string): _Section[] {
  const out: _Section[] = [];
  const lines = splitLines(text);
  const git = lines.some((l) => l.startsWith("diff --git "));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (git && line.startsWith("diff --git ")) {
      out.push({ path: _gitPath(line), lines: [] });
      continue;
    }
    if (line.startsWith("+++ ") && lines[i - 1]?.startsWith("--- ")) {
      const path = _pathOf(line) || _pathOf(lines[i - 1]);
      const last = out[out.length - 1];
      if (git && last) {
        if (!last.lines.some((l) => l.startsWith("@@"))) last.path = path;
      } else {
        out.push({ path, lines: [lines[i - 1]] });
        if (last?.lines[last.lines.length - 1] === lines[i - 1]) last.lines.pop();
      }
    }
    out[out.length - 1]?.lines.push(line);
  }
  return out;
}

/** Reduces one hunk (header + lines) to its changes plus one line of context either side. */
function _reduceHunk(header: string, lines: string[]): string[] {
  const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(header);
  if (!m) return [header, ...lines];
  let oldNo = Number(m[1]) || 1;
  let newNo = Number(m[2]) || 1;
  if (m[1] === "0") oldNo = 1;
  if (m[2] === "0") newNo = 1;
  const pos = lines.map((l) => {
    const here = { old: oldNo, new: newNo };
    if (l.startsWith(" ")) {
      oldNo++;
      newNo++;
    } else if (l.startsWith("-")) oldNo++;
    else if (l.startsWith("+")) newNo++;
    return here;
  });
  const changed = (l: string | undefined) => !!l && (l.startsWith("+") || l.startsWith("-"));
  const keep = lines.map((l, i) =>
    changed(l) || (l.startsWith(" ") && (changed(lines[i - 1]) || changed(lines[i + 1])))
  );
  lines.forEach((l, i) => {
    if (l.startsWith("\\") && keep[i - 1]) keep[i] = true;
  });
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    if (!keep[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && keep[j]) j++;
    const run = lines.slice(i, j);
    const oldCount = run.filter((l) => l.startsWith(" ") || l.startsWith("-")).length;
    const newCount = run.filter((l) => l.startsWith(" ") || l.startsWith("+")).length;
    const os = oldCount ? pos[i].old : pos[i].old - 1;
    const ns = newCount ? pos[i].new : pos[i].new - 1;
    out.push(`@@ -${os},${oldCount} +${ns},${newCount} @@`, ...run);
    i = j;
  }
  return out;
}

/** The reduced view of a patch, as `show_patch` returns it. */
export interface ReducedPatch {
  /** The reduced diff text (at most `maxLines` lines). */
  diff: string;
  /** Files in the patch (all of them, even when `file` narrowed the view). */
  files: string[];
  /** Lines of the reduced diff before `maxLines` cut it. */
  total: number;
  /** Lines cut by `maxLines`. */
  dropped: number;
  /** Lines shown shortened because they were longer than {@linkcode MAX_LINE_CHARS}. */
  cutLines: number;
}

/**
 * Reduces `text` to file headers, changed lines and one line of context around them, optionally
 * only for `file`, cut at `maxLines` lines; lines over {@linkcode MAX_LINE_CHARS} characters are
 * shortened with a marker. Throws a `RangeError` listing the patch's files when
 * `file` is not one of them.
 */
export function reducePatch(
  text: string,
  options: { file?: string; maxLines: number },
): ReducedPatch {
  const sections = _sections(text);
  const files = sections.map((s) => s.path);
  let chosen = sections;
  if (options.file !== undefined) {
    const want = options.file.replace(/^\.\//, "");
    chosen = sections.filter((s) => s.path === want);
    if (!chosen.length) {
      throw new RangeError(
        `the patch does not touch ${JSON.stringify(options.file.slice(0, 120))}; its files: ${
          files.join(", ") || "(none)"
        }`,
      );
    }
  }
  const out: string[] = [];
  for (const s of chosen) {
    let hunk: string[] | undefined;
    let header = "";
    const flush = () => {
      if (hunk) out.push(..._reduceHunk(header, hunk));
      hunk = undefined;
    };
    for (const line of s.lines) {
      if (line.startsWith("@@")) {
        flush();
        header = line;
        hunk = [];
      } else if (hunk) hunk.push(line);
      else if (line.startsWith("--- ") || line.startsWith("+++ ") || line.startsWith("Binary ")) {
        out.push(line);
      }
    }
    flush();
  }
  const shown = _endCleanly(out.slice(0, Math.max(1, options.maxLines)));
  const cut = shown.filter((l) => l.length > MAX_LINE_CHARS).length;
  return {
    diff: shown.map(_cutLine).join("\n"),
    files,
    total: out.length,
    dropped: out.length - shown.length,
    cutLines: cut,
  };
}

/**
 * Makes a diff cut at some line still a valid patch: drops a trailing file or hunk header with
 * nothing under it, and recounts the last hunk's header for the lines that are left of it.
 */
function _endCleanly(lines: string[]): string[] {
  const out = [...lines];
  for (;;) {
    const last = out[out.length - 1];
    const headerOnly = last !== undefined &&
      (last.startsWith("@@") || last.startsWith("--- ") || last.startsWith("+++ "));
    if (!headerOnly || out.length === 1) break;
    out.pop();
  }
  const at = out.findLastIndex((l) => l.startsWith("@@"));
  const m = at >= 0 ? /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@/.exec(out[at]) : null;
  if (m) {
    const body = out.slice(at + 1);
    const oldCount = body.filter((l) => l.startsWith(" ") || l.startsWith("-")).length;
    const newCount = body.filter((l) => l.startsWith(" ") || l.startsWith("+")).length;
    // An empty side starts at the line before it, as diff writes it.
    const start = (s: string, was: string, count: number) =>
      count === 0 && Number(was) > 0 ? Number(s) - 1 : Number(s);
    out[at] = `@@ -${start(m[1], m[2], oldCount)},${oldCount} +${
      start(m[3], m[4], newCount)
    },${newCount} @@`;
  }
  return out;
}

function _cutLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  return `${line.slice(0, MAX_LINE_CHARS - 40)}… [${line.length - MAX_LINE_CHARS + 40} chars cut]`;
}
