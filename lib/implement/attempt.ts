/**
 * One implement_task attempt: build the prompt, ask the model, parse and apply its reply.
 * Running the checks and deciding what comes next is the loop's job (`loop.ts`).
 */
import { checkTruncation, chooseNumCtx } from "./context_size.ts";
import { chooseFence, chooseReplyFormat, formatOf } from "../edit/mod.ts";
import type { ModelChatResult as ChatResult, ModelFacts, ModelPool, Rung } from "../model/mod.ts";
import type { Config } from "../config.ts";
import { buildPrompt, type PromptFile } from "./prompt.ts";
import type { TaskPlan } from "./plan.ts";
import { estimateTokens } from "./context_size.ts";
import { judgeReply, type ReplyOutcome, validateOutcome } from "./reply.ts";
import { primeSyntax } from "../outline/mod.ts";

/** Tokens the context files may take beyond the rest of the prompt, unless the model is smaller. */
const CONTEXT_SOFT_LIMIT = 24_000;
/** The smallest reply budget, in tokens. */
const MIN_REPLY = 1024;
/**
 * Tokens a first attempt's context window keeps free for a retry's feedback, when that still fits:
 * a changed `num_ctx` makes Ollama reload the model and throws its prompt cache away.
 */
const RETRY_HEADROOM = 1024;

export type { ModelFacts };

/** The outcome of one attempt before checks. */
export type AttemptOutcome =
  /** The task cannot fit the model's context: retrying cannot help. */
  | { kind: "too_large"; error: string }
  /** The reply, judged (`reply.ts`), with the chat it came from. */
  | ReplyOutcome & { chat: ChatResult };

/** Inputs of one attempt. */
export interface AttemptInput {
  plan: TaskPlan;
  config: Config;
  /** The ladder's rung asked now: its model settings. */
  rung: Rung;
  facts: ModelFacts;
  /** Current content of each file to edit (null: does not exist). */
  current: Map<string, string | null>;
  feedback?: string;
  /** What the previous rung tried and how it failed (for a rung after the first). */
  earlier?: string;
  /**
   * What stays the same across one rung's attempts, so the prompt's prefix does: the context
   * files' budget, set by the first attempt and kept while the prompt fits.
   */
  stable: { contextBudget?: number };
  /** Whether a retry may follow this attempt (room is kept for its feedback then). */
  retryMayFollow: boolean;
  /** Per file, how many earlier attempts failed to match a SEARCH part in it. */
  failedMatches: Map<string, number>;
  /** The model hosts; the chat goes to the current one, and moves once if it drops. */
  model: ModelPool;
  signal: AbortSignal;
  /** Receives a line for the log when the chat moves to another host. */
  notice(message: string): void;
  /** Receives the prompt before it is sent and streaming progress. */
  onPrompt(messages: { role: string; content: string }[], numCtx: number): void;
  /** Streaming progress: reply characters, and thinking characters of a reasoning model. */
  onChunk(chars: number, thinkingChars: number): void;
  /** Collects warnings (cut prompts, cut context files). */
  warn(message: string): void;
  truncated: Set<string>;
}

/** The fence each task asks for, chosen once from every file its first attempt shows. */
const _fences = new WeakMap<TaskPlan, string>();

function _fenceOf(plan: TaskPlan, current: Map<string, string | null>): string {
  let fence = _fences.get(plan);
  if (!fence) {
    const shown = [...current.values(), ...plan.context.map((c) => c.content)];
    fence = chooseFence(shown.filter((t): t is string => t !== null));
    _fences.set(plan, fence);
  }
  return fence;
}

function _replyBudget(files: PromptFile[]): number {
  let tokens = 0;
  for (const f of files) {
    const size = f.content === null ? 0 : estimateTokens(f.content);
    tokens += formatOf(f.format).replyTokens(size);
  }
  return Math.max(MIN_REPLY, tokens);
}

/** Runs one attempt. Throws ModelError (and AbortError) for the loop to report. */
export async function runAttempt(a: AttemptInput): Promise<AttemptOutcome> {
  const { plan, config } = a;
  const files: PromptFile[] = plan.files.map((rel) => {
    const content = a.current.get(rel) ?? null;
    const ranges = plan.ranges.get(rel);
    const format = chooseReplyFormat(config.edit_format, {
      content,
      hasSymbols: !!ranges,
      failedMatches: a.failedMatches.get(rel) ?? 0,
    });
    // A file the model is asked to rewrite whole must be shown whole.
    return { rel, content, format, ranges: formatOf(format).showsWhole ? undefined : ranges };
  });
  const fence = _fenceOf(plan, a.current);
  const replyTokens = _replyBudget(files);
  const window = a.rung.num_ctx ?? a.facts.contextLength ?? 32_768;
  const shape = {
    editFormat: config.edit_format,
    spec: plan.spec,
    fence,
    files,
    feedback: a.feedback,
    earlier: a.earlier,
  };
  const probe = buildPrompt({ ...shape, context: [], contextBudget: 0 });
  const room = Math.max(0, Math.min(CONTEXT_SOFT_LIMIT, window - probe.estimate - replyTokens));
  // The first attempt's budget stands while it fits, so the context files are cut the same way.
  const contextBudget = Math.min(a.stable.contextBudget ?? room, room);
  a.stable.contextBudget = contextBudget;
  const prompt = buildPrompt({ ...shape, context: plan.context, contextBudget });
  for (const t of prompt.truncated) a.truncated.add(t);
  const sizing = {
    modelMax: a.facts.contextLength,
    configured: a.rung.num_ctx,
    served: a.facts.fixedContext ? a.facts.contextLength : undefined,
    loaded: a.facts.loaded,
  };
  // Room for a retry's feedback when it fits, so a retry keeps the window (and the cache).
  const roomy = a.retryMayFollow && !a.facts.loaded
    ? chooseNumCtx(prompt.estimate + RETRY_HEADROOM, replyTokens, sizing)
    : undefined;
  const choice = roomy && !("error" in roomy)
    ? roomy
    : chooseNumCtx(prompt.estimate, replyTokens, sizing);
  if ("error" in choice) {
    return {
      kind: "too_large",
      error:
        `${choice.error}: split the task, pass symbols to show only the functions concerned, ` +
        `or use a model with a larger context`,
    };
  }
  a.facts.loaded = choice.numCtx;
  a.onPrompt(prompt.messages, choice.numCtx);
  // The syntax backstop needs each file as it is parsed; that is done while the model writes.
  for (const [rel, text] of a.current) if (text !== null) primeSyntax(rel, text).catch(() => {});
  let chat = await a.model.chat({
    model: a.facts.model,
    messages: prompt.messages,
    contextLength: choice.numCtx,
    maxTokens: Math.max(replyTokens, choice.numCtx - prompt.estimate),
    temperature: a.rung.temperature ?? 0.1,
    keepAlive: config.keep_alive ?? "30m",
    signal: a.signal,
    onChunk: (p) => a.onChunk(p.chars, p.thinkingChars),
  }, { notice: a.notice });
  if (chat.estimated) {
    // The server sent no counts: the estimates stand in, and the log says so.
    chat = {
      ...chat,
      promptEvalCount: prompt.estimate,
      evalCount: estimateTokens(chat.thinking + chat.content),
    };
  }
  if (a.facts.cutsLongPrompts) {
    const cut = checkTruncation(prompt.estimate, chat.promptEvalCount, choice.numCtx);
    if (cut) a.warn(cut);
  }
  if (chat.doneReason === "length") {
    return {
      kind: "unusable",
      chat,
      feedback: "Your reply was cut off before it ended (it hit the length limit). Reply again, " +
        "shorter: use small SEARCH/REPLACE blocks and no explanations.",
      problem: "Your reply was cut off before it ended (it hit the length limit).",
      decision: "not parsed: the reply hit the length limit",
    };
  }
  const input = {
    spec: plan.spec,
    files: plan.files,
    symbolsOnly: files.filter((f) => f.ranges).map((f) => f.rel),
    current: a.current,
    formats: new Map(files.map((f) => [f.rel, f.format])),
    fence,
  };
  const judged = await validateOutcome(judgeReply(chat.content, input), input);
  return { ...judged, chat };
}
