/**
 * The guards every format's result goes through, over the whole file before and after: no code
 * left out (`...`, "rest unchanged"), no file emptied or mostly deleted unless the task asks, and
 * a file that parsed cleanly with an embedded grammar still parses.
 */
import { syntaxErrorLines } from "../../outline/mod.ts";
import { findElision } from "../elision.ts";
import { destructiveMessage } from "../guard.ts";
import { quoteValue } from "../refusal.ts";
import { changedLines, linesOf } from "./lines.ts";
import type { FileChange, Validator } from "./types.ts";

/** Files larger than this are left to the checks by the syntax validator. */
const MAX_PARSED_CHARS = 1_000_000;
/** Broken lines quoted in the syntax validator's message. */
const MAX_QUOTED = 5;

/** No line that stands in for code (the same rules whole files and REPLACE parts had). */
export const ELISION: Validator = {
  name: "elision",
  reason: "elided",
  check(change) {
    const before = linesOf(change.before);
    const after = linesOf(change.after);
    const m = changedLines(before, after);
    const found = findElision(after, change.path, before, [], { from: m.head, to: m.afterTo });
    if (!found) return null;
    return `The edit leaves code out of ${quoteValue(change.path)} at its line ${found.line} ` +
      `(${quoteValue(found.text)}), so nothing was written; write out every line`;
  },
};

/**
 * Not emptied, not mostly deleted (`guard.ts`), unless the task asks; edits that quote every line
 * they remove and put something back (SEARCH/REPLACE with a REPLACE part) are the narrow edit
 * the refusal asks for, and pass. An edit whose changed lines are under half the file cannot be.
 */
export const DESTRUCTIVE: Validator = {
  name: "destructive",
  reason: "destructive",
  check(change, task) {
    const narrow = change.edits.length > 0 &&
      change.edits.every((e) => e.type === "replace" && e.search && e.replace.trim());
    if (narrow) return null;
    const before = linesOf(change.before);
    const after = linesOf(change.after);
    const m = changedLines(before, after);
    const emptied = m.head === 0 && m.afterTo === after.length && !after.some((l) => l.trim());
    const nonBlank = (lines: readonly string[]) => lines.filter((l) => l.trim()).length;
    if (!emptied && nonBlank(before.slice(m.head, m.beforeTo)) * 2 <= nonBlank(before)) {
      return null;
    }
    return destructiveMessage(change.path, before, after, "The edit", task.deletion);
  },
};

/** A file with a grammar that parsed cleanly still parses; new files are left to the checks. */
export const SYNTAX: Validator = {
  name: "syntax",
  reason: "syntax",
  async check(change: FileChange) {
    const { before, after, path } = change;
    if (before === null || before.length > MAX_PARSED_CHARS) return null;
    let broken: number[] | null;
    try {
      const was = await syntaxErrorLines(path, before);
      if (was === null || was.length) return null;
      broken = await syntaxErrorLines(path, after, before);
    } catch {
      return null; // no parser to ask: the checks decide
    }
    if (!broken?.length) return null;
    const lines = after.split("\n");
    const quoted = broken.slice(0, MAX_QUOTED).map((n) =>
      `${n}| ${(lines[n - 1] ?? "").slice(0, 120)}`
    ).join("\n");
    return `The edit leaves ${quoteValue(path)} with a syntax error at line${
      broken.length > 1 ? "s" : ""
    } ${broken.join(", ")} (it parsed cleanly before), so nothing was written:\n${quoted}\n` +
      "Check the brackets, quotes and indentation of the lines you changed";
  },
};
