/**
 * What one model reply amounts to: parse it, apply it in memory, and say in one line what was
 * decided and why, for the task log (docs/ARCHITECTURE.md, "Delegation"). The task's words decide
 * whether an edit may delete most of a file (`deletionAllowance`).
 */
import {
  applyEdits,
  type ApplyFailure,
  deletionAllowance,
  type Edit,
  formatOf,
  otherReadings,
  parseReply,
  type ReplyFormat,
} from "../edit/mod.ts";
import { type FileChange, validateChanges } from "../edit/validate/mod.ts";

/** The reply, judged. `decision` is the line the task log shows after the raw reply. */
export type ReplyOutcome =
  | { kind: "question"; question: string; decision: string }
  /**
   * The reply could not be used: `feedback` goes to the model next attempt, `problem` (the same
   * without the shape reminder) to the caller if no later attempt succeeds.
   */
  | {
    kind: "unusable";
    feedback: string;
    problem: string;
    reason?: ApplyFailure;
    path?: string;
    decision: string;
    /** Other readings of the reply to try (`otherReadings`). */
    readings?: Edit[][];
  }
  | {
    kind: "edits";
    files: Map<string, string>;
    changed: string[];
    /** The edits the reply made, by file (the validation stage reads them). */
    edits: Edit[];
    warnings: string[];
    decision: string;
    /** Other readings of the reply to try (`otherReadings`). */
    readings?: Edit[][];
  };

/** What judging a reply needs. */
export interface ReplyInput {
  /** The task's words: they decide whether a deletion was asked for. */
  spec: string;
  /** files_to_edit. */
  files: readonly string[];
  /** Files the model saw only in part. */
  symbolsOnly: readonly string[];
  /** Current content of each file to edit (null: does not exist). */
  current: ReadonlyMap<string, string | null>;
  /** The format asked for each file (for the shape refusals show); default whole. */
  formats?: ReadonlyMap<string, ReplyFormat>;
  /** The code fence the prompt asked for (`chooseFence`); default ```. */
  fence?: string;
}

const NO_CHANGE = "Your edits leave every file exactly as it was. Make the change the task asks " +
  "for; if nothing needs to change, reply with QUESTION: and say so.";

function _edits(edits: readonly Edit[]): string {
  const per = new Map<string, string[]>();
  for (const e of edits) {
    const what = e.type === "whole"
      ? "whole file"
      : e.type === "format"
      ? e.format
      : e.search
      ? "block"
      : "new content";
    per.set(e.path, [...(per.get(e.path) ?? []), what]);
  }
  return [...per].map(([path, what]) => `${path} (${what.join(", ")})`).join(", ");
}

function _warned(warnings: readonly string[]): string {
  return warnings.length ? `; notes: ${warnings.join("; ")}` : "";
}

/**
 * `feedback` followed by the shape the reply should take for the file it concerns (the file it
 * names, else the first file to edit), unless it shows that shape already.
 */
export function withShape(feedback: string, input: ReplyInput, path?: string): string {
  const file = path ?? input.files.find((f) => feedback.includes(f)) ?? input.files[0];
  if (!file || feedback.includes(`\n${file}\n`)) return feedback;
  const shape = formatOf(input.formats?.get(file) ?? "whole").shape(file, "```");
  return `${feedback}\nThe shape to use:\n${shape}`;
}

/** Parses and applies `reply` (in memory) and says what was decided. */
export function judgeReply(reply: string, input: ReplyInput): ReplyOutcome {
  const parsed = parseReply(reply, {
    knownPaths: input.files,
    fence: input.fence,
    current: input.current,
  });
  if (parsed.kind === "question") {
    return {
      kind: "question",
      question: parsed.question,
      decision: "parse: a question for the caller, no edits",
    };
  }
  if (parsed.kind === "invalid") {
    return {
      kind: "unusable",
      feedback: withShape(parsed.problem, input),
      problem: parsed.problem,
      decision: `parse: refused, nothing applied: ${parsed.problem}`,
    };
  }
  const outcome = _applyReading(parsed.edits, parsed.warnings, input);
  const readings = otherReadings(parsed.edits);
  return readings.length && outcome.kind !== "question" ? { ...outcome, readings } : outcome;
}

/** One reading of the reply applied in memory. */
function _applyReading(
  edits: Edit[],
  warnings: readonly string[],
  input: ReplyInput,
): ReplyOutcome {
  const read = `parse: ${_edits(edits)}${_warned(warnings)}`;
  const applied = applyEdits(input.current, edits, {
    allowed: input.files,
    symbolsOnly: input.symbolsOnly,
    deletion: deletionAllowance(input.spec),
  });
  if (!applied.ok) {
    return {
      kind: "unusable",
      feedback: withShape(applied.error, input, applied.path),
      problem: applied.error,
      reason: applied.reason,
      path: applied.path,
      decision: `${read}\napply: refused (${applied.reason}), nothing written: ${applied.error}`,
    };
  }
  if (!applied.changed.length) {
    return {
      kind: "unusable",
      feedback: NO_CHANGE,
      problem: NO_CHANGE,
      decision: `${read}\napply: no change`,
    };
  }
  return {
    kind: "edits",
    files: applied.files,
    changed: applied.changed,
    edits,
    warnings: [...warnings, ...applied.warnings],
    decision: `${read}\napply: changes ${applied.changed.join(", ")}${_warned(applied.warnings)}`,
  };
}

/**
 * The reply validated, reading by reading when the path resolver left other readings: the one
 * that survives the validators is taken; when several different ones survive, which file a block
 * is for is unclear and the reply is refused; when none does, the first reading's refusal stands.
 */
export async function validateOutcome(
  outcome: ReplyOutcome,
  input: ReplyInput,
): Promise<ReplyOutcome> {
  const first = await _validateOne(outcome, input);
  if (outcome.kind === "question" || !outcome.readings?.length) return first;
  const tried = [first];
  for (const edits of outcome.readings) {
    tried.push(await _validateOne(_applyReading(edits, [], input), input));
  }
  const survivors = tried.filter((o) => o.kind === "edits");
  const distinct = new Map(survivors.map((o) => [_key(o), o]));
  if (distinct.size === 1) {
    const [kept] = distinct.values();
    if (kept === first) return first;
    const note = `${tried.length} readings of which file a block is for; only this one passed ` +
      "the validators";
    return { ...kept, decision: `${kept.decision}\ncandidates: ${note}` };
  }
  if (distinct.size === 0) return first;
  const files = [...distinct.values()].map((o) => o.kind === "edits" ? o.changed.join("+") : "");
  const problem = `A code block could be for ${files.map((f) => JSON.stringify(f)).join(" or ")}:` +
    " the reply names each and every reading is a valid edit, so which file it changes is " +
    "unclear and nothing was applied; write the file's path alone on the line before each block";
  return {
    kind: "unusable",
    feedback: withShape(problem, input),
    problem,
    decision: `${first.decision}\ncandidates: ${distinct.size} readings passed: refused`,
  };
}

function _key(o: ReplyOutcome): string {
  return o.kind === "edits" ? JSON.stringify(o.changed.map((p) => [p, o.files.get(p)])) : "";
}

/**
 * One reading through the validation stage (`lib/edit/validate/`), applied in memory: each changed file,
 * whatever format produced it, is fitted (encoding, Makefile tabs) and must pass every validator
 * (no code left out, no unasked deletion of definitions, JSON/YAML/TOML and code that parsed
 * still parse); otherwise the reply is refused with the validator's words, before any check runs.
 */
async function _validateOne(outcome: ReplyOutcome, input: ReplyInput): Promise<ReplyOutcome> {
  if (outcome.kind !== "edits") return outcome;
  const changes: FileChange[] = outcome.changed.map((path) => ({
    path,
    before: input.current.get(path) ?? null,
    after: outcome.files.get(path)!,
    edits: outcome.edits.filter((e) => e.path === path),
  }));
  const task = { spec: input.spec, deletion: deletionAllowance(input.spec) };
  const checked = await validateChanges(changes, task);
  const found = checked.finding;
  if (found) {
    return {
      kind: "unusable",
      feedback: withShape(found.problem, input, found.path),
      problem: `${found.problem} (validator: ${found.validator})`,
      reason: found.reason,
      path: found.path,
      decision: `${outcome.decision}\nvalidate (${found.validator}): refused, nothing written: ` +
        found.problem,
    };
  }
  if (!checked.notes.length) return outcome;
  const files = new Map(outcome.files);
  for (const [p, text] of checked.files) files.set(p, text);
  return {
    ...outcome,
    files,
    warnings: [...outcome.warnings, ...checked.notes],
    decision: `${outcome.decision}\nvalidate: ${checked.notes.join("; ")}`,
  };
}
