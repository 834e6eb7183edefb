/**
 * The short JSON verdict implement_task answers with (docs/ARCHITECTURE.md, "Results").
 */
import { z } from "zod";
import { clip } from "../errors.ts";

/** One rung of the ladder a run asked: its model, its attempts, how it ended. */
export interface Tried {
  model: string;
  attempts: number;
  status: "passed" | "failed" | "blocked" | "conflict" | "error";
}

/** implement_task's result. Always: status, attempts, escalate, why; the rest when relevant. */
export interface Verdict {
  [key: string]: unknown;
  status: "passed" | "failed" | "blocked" | "conflict" | "error";
  attempts: number;
  /** The model whose attempt produced the result (every verdict once a model was chosen). */
  model?: string;
  /** The rungs asked, when more than one ran. */
  tried?: Tried[];
  escalate: boolean;
  why: string;
  files?: string[];
  stat?: string;
  patch?: string;
  log?: string;
  question?: string;
  error?: string;
  /** The failing check's name and trimmed output: `"tests: …"`. */
  failed_check?: string;
  warnings?: string[];
  truncated?: string[];
  note?: string;
}

/**
 * The verdict's fields as implement_task's output schema and wait_tasks' `finished` entries
 * declare them (one source for both, and for docs/reference/results.md).
 */
export const VERDICT_SHAPE = {
  status: z.string().describe("passed, failed, blocked, conflict or error (running with wait_s)"),
  attempts: z.number().describe("Model attempts made in this call, every rung's"),
  model: z.string().optional().describe("The model whose attempt produced the result"),
  tried: z.array(z.object({
    model: z.string(),
    attempts: z.number(),
    status: z.string(),
  })).optional().describe("Each rung asked, with its attempts and end, when more than one ran"),
  escalate: z.boolean().describe("True when the caller should do the step itself"),
  why: z.string().describe("One sentence on how the task ended"),
  files: z.array(z.string()).optional().describe(
    "Files the task changed (conflict: the files whose edits did not merge)",
  ),
  stat: z.string().optional().describe('The diff in short, e.g. "+1 -1 in 1 file"'),
  patch: z.string().optional().describe("The task's patch, .localexec/<id>.patch"),
  log: z.string().optional().describe("The task's log, .localexec/<id>.log"),
  question: z.string().optional().describe("blocked: the model's question"),
  error: z.string().optional().describe("error: what went wrong, and the fix"),
  candidates: z.array(z.string()).optional().describe(
    "error on a symbol: the names the file defines that come closest",
  ),
  failed_check: z.string().optional().describe("The failing check's name and trimmed output"),
  warnings: z.array(z.string()).optional().describe("Problems that did not stop the task"),
  truncated: z.array(z.string()).optional().describe("Context files cut to fit the model"),
  note: z.string().optional().describe(
    "What is in the tree: an earlier attempt's edits, edits merged, where a conflict's change is",
  ),
};

/** Marks text cut from a verdict: the whole of it is in the task log. */
const LOG_NOTE = "(the log has the rest)";

/** The most characters a verdict takes, `failed_check` aside (about 1,000: docs/ARCHITECTURE.md, "Results"). */
const MAX_VERDICT_CHARS = 1000;

/** An `error` verdict: bad input, config, Ollama, lock; the tree is as it was. */
export function errorVerdict(
  error: string,
  options: { escalate?: boolean; why?: string } = {},
): Verdict {
  return {
    status: "error",
    attempts: 0,
    escalate: options.escalate ?? false,
    why: options.why ?? _why(error),
    error,
  };
}

function _size(v: Verdict): number {
  const { failed_check: _, ...rest } = v;
  return JSON.stringify(rest).length;
}

/**
 * Keeps a verdict within {@linkcode MAX_VERDICT_CHARS} (`failed_check` aside): clips the model's
 * question, the error and the warnings, which are in full in the task's log; then, if it is still
 * too long, keeps fewer warnings and context-file names.
 */
export function fitVerdict(v: Verdict): Verdict {
  const out: Verdict = { ...v };
  if (out.question !== undefined) out.question = clip(out.question, 500, LOG_NOTE);
  if (out.error !== undefined) out.error = clip(out.error, 400, LOG_NOTE);
  if (out.note !== undefined) out.note = clip(out.note, 250, LOG_NOTE);
  if (out.warnings) out.warnings = out.warnings.slice(0, 3).map((w) => clip(w, 200, LOG_NOTE));
  for (let keep = 2; _size(out) > MAX_VERDICT_CHARS && keep >= 0; keep--) {
    if (out.warnings) out.warnings = out.warnings.slice(0, keep);
    if (out.truncated && out.truncated.length > keep + 1) {
      out.truncated = out.truncated.slice(0, keep + 1);
    }
  }
  if (out.warnings?.length === 0) delete out.warnings;
  if (_size(out) > MAX_VERDICT_CHARS && out.question) {
    out.question = clip(out.question, 200, LOG_NOTE);
  }
  if (_size(out) > MAX_VERDICT_CHARS && out.error) out.error = clip(out.error, 200, LOG_NOTE);
  return out;
}

const WHY: [RegExp, string][] = [
  [/^invalid arguments/, "the arguments are invalid"],
  [/^check \S+ cannot start: /, "a check cannot start: fix its command or its toolchain"],
  [/^cancelled$|was cancelled/, "the call was cancelled"],
  // An OpenAI-compatible server (llama-server, LM Studio, vLLM): its messages say "model server".
  [
    /model server.*(not reachable|may not connect|broke during)/,
    "the model server could not be reached",
  ],
  [/ is not served at /, "the configured model is not served"],
  [/API key|api_key_env/, "the model server needs a valid API key"],
  [/too long for the context of/, "the task does not fit the model's context"],
  [
    /model server.*(did not answer within|stopped sending|did not finish)|model server's log/,
    "the model server did not answer in time",
  ],
  [
    /not an OpenAI-compatible API|model server.*before it was complete|check base_url/,
    "the model server's answer was not usable",
  ],
  [/^the model server .*(failed|still loading)/, "the model server answered with an error"],
  [
    /not reachable|may not connect|--allow-net|broke during the answer/,
    "Ollama could not be reached",
  ],
  [/not installed|ollama pull/, "the configured model is not installed"],
  [
    /did not answer within|sent nothing for|stopped sending for|did not finish within/,
    "Ollama did not answer in time",
  ],
  [
    /not Ollama's API|before it was complete|without a final chunk/,
    "Ollama's answer was not usable",
  ],
  [/^Ollama failed/, "Ollama answered with an error"],
  [/locked by/, "another task holds the project lock"],
  [/^unknown checks? /, "a named check is not in .localexec.json"],
  [/^symbols?:? |^symbol /, "a symbol could not be found"],
  [/configuration|\.localexec\.json/, "the configuration needs fixing"],
  [/^path /, "a path was refused"],
  [/^(file to edit|context file|files_to_edit) /, "a file given cannot be used"],
];

function _why(error: string): string {
  for (const [re, why] of WHY) if (re.test(error)) return why;
  return "the task could not start";
}
