/**
 * The attempts of one rung of the ladder (docs/ARCHITECTURE.md, "Delegation"): ask the rung's
 * model, apply its reply, run the checks, feed what went wrong back, and say how the rung ended.
 * What one implement_task call shares across its rungs is a {@linkcode TaskRun}; the verdict, the
 * patch and the record's end are `run.ts`'s.
 */
import { type ChecksRun, runChecks } from "../checks.ts";
import type { Config } from "../config.ts";
import { clip } from "../errors.ts";
import type { ModelPool, Rung } from "../model/mod.ts";
import { type Conflict, taskPaths, type TaskRecord, updateTask } from "../tasks/mod.ts";
import type { EngineContext } from "./context.ts";
import { type AttemptOutcome, type ModelFacts, runAttempt } from "./attempt.ts";
import { type Snapshot, texts } from "./files.ts";
import type { Place } from "./place.ts";
import type { Joined } from "./rounds.ts";
import type { TaskPlan } from "./plan.ts";

/** How often streaming progress is reported while the model writes, in ms. */
const CHUNK_PROGRESS_MS = 2_000;

/** What one implement_task call shares across its rungs; one per call, never shared by calls. */
export interface TaskRun {
  readonly plan: TaskPlan;
  readonly config: Config;
  readonly ctx: EngineContext;
  /** Where the task edits and checks: the tree, or a workspace (`place.ts`). */
  readonly place: Place;
  /** Takes in what other tasks landed, before checks run. */
  readonly sync: () => Promise<void>;
  /** The last landing (`lib/tasks/landed.ts`) the task's checks saw. */
  seen: number;
  /** Tasks that landed while this one ran and were taken in. */
  landedWith: Set<string>;
  /** Tasks whose landing this one's checks were run with in a landing round (`rounds.ts`). */
  covered: Set<string>;
  /** How long the task's last checks took, in ms (a landing round waits about that long). */
  checkMs: number;
  /** The landing round its checks last ran in with other tasks, when they passed there. */
  round?: Joined;
  /** Files where the task's edits were merged onto someone else's, or checked again after one. */
  theirs: Set<string>;
  /** Appends to the task's log, in order. */
  readonly log: (text: string) => Promise<void>;
  /** Which run of the task this call is (the record's `runs`). */
  readonly run: number;
  /** How many rungs the ladder has. */
  readonly rungs: number;
  /** Attempts made in this call, every rung's. */
  attempts: number;
  warnings: Set<string>;
  truncated: Set<string>;
  note?: string;
}

/** One attempt as the task record keeps it (`history`): the delegation record's raw facts. */
export interface AttemptFacts {
  run: number;
  /** The rung's index on the ladder (0: the cheapest). */
  rung: number;
  model: string;
  host: string;
  provider: string;
  num_ctx: number;
  prompt_tokens: number;
  reply_tokens: number;
  /** Whether the server counted the tokens or localexec estimated them. */
  tokens: "counted" | "estimated";
  /** Seconds to the first text of the reply, when any came. */
  first_token_secs?: number;
  /** Seconds of the whole model call. */
  secs: number;
  /** What the reply parser decided: `applied`, `question`, or `refused (why): …`. */
  decision: string;
  /** What the checks said: `passed`, `failed: <check>`, or `not run`. */
  checks: string;
}

/** How one rung ended. */
export interface RungEnd {
  status: "passed" | "failed" | "blocked" | "conflict" | "error";
  why: string;
  escalate: boolean;
  question?: string;
  error?: string;
  failed_check?: string;
  /** For `failed`: whether the last attempt's edits are still in the tree. */
  inTree?: boolean;
  /** For `failed` and a too-large `error`: the failure, in a few lines, for the next rung. */
  failure?: string;
  /** For `conflict`: the files whose edits do not merge with someone else's. */
  conflicts?: Conflict[];
  /** For `failed` in a workspace: its last attempt did not land, these files do not merge. */
  notLanded?: Conflict[];
  /** The task's version when nothing of it could land (`conflict`): for its patch. */
  ours?: Snapshot;
}

/** How many times checks that passed run again because a file changed while they ran. */
const MAX_RECHECKS = 3;

/** The conflict end of a rung: nothing of this attempt was written. */
export function conflictEnd(conflicts: Conflict[], ours?: Snapshot): RungEnd {
  const names = conflicts.map((c) => c.path).join(", ");
  return {
    status: "conflict",
    escalate: false,
    conflicts,
    ours,
    why: `${names} ${
      conflicts.length === 1 ? "was" : "were"
    } edited while the task ran, and the task's change does not merge with that edit (${
      conflicts[0].reason
    }); your version is kept`,
  };
}

/** Appends `entry` to the record's `history`. */
function _withFacts(r: TaskRecord, entry: AttemptFacts): Partial<TaskRecord> {
  const history = Array.isArray(r.history) ? r.history : [];
  return { history: [...history, { ...entry }] };
}

/** An attempt's outcome when the model was asked: its reply, judged. */
type Replied = Exclude<AttemptOutcome, { kind: "too_large" }>;

/** The parser's decision in a few words, for the record. */
function _decision(outcome: Replied): string {
  if (outcome.kind === "edits") return "applied";
  if (outcome.kind === "question") return "question";
  const why = outcome.chat.doneReason === "length" ? "cut off" : outcome.reason ?? "unparsed";
  return `refused (${why}): ${clip(outcome.problem, 160)}`;
}

/** The attempts of one rung. */
export class Loop {
  /** Attempts of this rung so far. */
  attempt = 0;
  failedMatches = new Map<string, number>();
  #feedback?: string;
  #lastProblem = "";
  #lastUnusable = 0;
  #failedCheck?: string;
  #failedCheckName = "";
  #applied = false;
  /** What stays the same across this rung's attempts (the context files' budget). */
  #stable: { contextBudget?: number } = {};

  constructor(
    readonly task: TaskRun,
    readonly rung: Rung,
    /** The rung's index on the ladder. */
    readonly index: number,
    readonly facts: ModelFacts,
    readonly model: ModelPool,
    /** What the previous rung tried and how it failed, for this rung's prompts. */
    readonly earlier?: string,
  ) {}

  #progress(message: string): void {
    const rung = this.task.rungs > 1 ? `rung ${this.index + 1}/${this.task.rungs} ` : "";
    this.task.ctx.progress(`${rung}attempt ${this.attempt}/${this.rung.max_attempts}: ${message}`, {
      attempt: this.task.attempts,
      model: this.rung.model,
    });
  }

  /**
   * Runs the checks where the task works. In the tree, checks that passed run again when one of
   * the task's files changed while they ran (someone else's edit: the verdict is about what the
   * tree holds now), a few times at most.
   */
  async #check(n: number): Promise<ChecksRun> {
    const { task } = this;
    const { plan, ctx } = task;
    // Busy from its checks to its landing: a landing round waits for it (`rounds.ts`).
    ctx.rounds?.busy(plan.id);
    for (let round = 0;; round++) {
      const began = performance.now();
      const checks = await runChecks(task.place.work, plan.checks, {
        files: plan.files,
        signal: ctx.signal,
        logPath: taskPaths(ctx.root, plan.id).log,
        onProgress: (message) => this.#progress(message),
      });
      task.checkMs = performance.now() - began;
      if (checks.failed_check) ctx.rounds?.idle(plan.id); // back to the model, not landing soon
      const moved = await task.place.changedMeanwhile();
      if (checks.failed_check || !moved.length) return checks;
      if (round >= MAX_RECHECKS) {
        // Someone keeps saving while the checks run: say so rather than pass what was not checked.
        task.warnings.add(
          `${moved.join(", ")} changed again while the checks ran their last time: that version ` +
            "was not checked; run_checks checks it",
        );
        return checks;
      }
      for (const f of moved) task.theirs.add(f);
      this.#progress(`${moved.join(", ")} changed while the checks ran: checking again`);
      await task.log(
        `\n--- attempt ${n}: ${moved.join(", ")} changed while the checks ran (someone else's ` +
          "edit); checking again",
      );
    }
  }

  /** Runs the rung's attempts until one passes, one ends the rung, or none is left. */
  async run(): Promise<RungEnd> {
    const { task, rung } = this;
    while (this.attempt < rung.max_attempts) {
      this.attempt++;
      task.attempts++;
      const n = task.attempts;
      const from = await task.place.read();
      const { outcome, numCtx } = await this.#ask(n, texts(from));
      if (outcome.kind === "too_large") return await this.#tooLarge(n, outcome.error);
      const facts = await this.#recordReply(n, outcome, numCtx);
      if (outcome.kind === "question") return await this.#asked(outcome.question);
      if (outcome.kind === "unusable") {
        await this.#unusable(n, outcome);
        continue;
      }
      const end = await this.#writeAndCheck(n, outcome, from, facts);
      if (end) return end;
    }
    return await this.#exhausted();
  }

  /** Asks the rung's model once, with the files as they are now; the outcome and the window. */
  async #ask(
    n: number,
    current: Map<string, string | null>,
  ): Promise<{ outcome: AttemptOutcome; numCtx: number }> {
    const { task, rung } = this;
    this.#progress(`asking ${rung.model}`);
    let lastChunk = 0;
    let numCtx = 0;
    const outcome = await runAttempt({
      plan: task.plan,
      config: task.config,
      rung,
      facts: this.facts,
      current,
      feedback: this.#feedback,
      earlier: this.earlier,
      stable: this.#stable,
      retryMayFollow: this.attempt < rung.max_attempts,
      failedMatches: this.failedMatches,
      model: this.model,
      signal: task.ctx.signal,
      notice: (message) => {
        this.#progress(message);
        void task.log(`\n--- attempt ${n}: ${message}`).catch(() => {});
      },
      truncated: task.truncated,
      warn: (w) => task.warnings.add(w),
      onPrompt: (messages, size) => {
        numCtx = size;
        void task.log(
          `\n--- attempt ${n} prompt (num_ctx ${size}) to model ${rung.model} at ${this.model.current.url} ---\n` +
            messages.map((m) => `[${m.role}]\n${m.content}`).join("\n"),
        ).catch(() => {});
      },
      onChunk: (chars, thinkingChars) => {
        const now = Date.now();
        if (now - lastChunk < CHUNK_PROGRESS_MS) return;
        lastChunk = now;
        this.#progress(
          chars || !thinkingChars
            ? `model writing (${chars} characters so far)`
            : `model thinking (${thinkingChars} characters so far)`,
        );
      },
    });
    return { outcome, numCtx };
  }

  /** The end of a rung whose task does not fit its model: the model was not asked. */
  async #tooLarge(n: number, error: string): Promise<RungEnd> {
    await this.task.log(`\n--- attempt ${n}: ${error}`);
    if (this.#applied) await this.task.place.undo();
    this.attempt--; // the model was not asked
    this.task.attempts--;
    return {
      status: "error",
      error,
      escalate: true,
      why: "the task does not fit the model's context",
      failure: `the task did not fit ${this.rung.model}'s context: ${error}`,
    };
  }

  /**
   * Logs the reply and the parser's decision, and adds the chat to the record (with the attempt's
   * facts, unless edits came back: those are recorded once their checks ran); the facts.
   */
  async #recordReply(n: number, outcome: Replied, numCtx: number): Promise<AttemptFacts> {
    const { task, rung } = this;
    const chat = outcome.chat;
    const est = chat.estimated ? "~" : "";
    await task.log(
      `\n--- attempt ${n} reply (${
        chat.wallSecs.toFixed(1)
      } s, model ${rung.model} at ${chat.host}, prompt ${est}${chat.promptEvalCount} tokens, reply ${est}${chat.evalCount} tokens${
        chat.estimated ? " (estimated: the server sent no usage)" : ""
      }, done_reason ${chat.doneReason || "-"}) ---\n${chat.content}`,
    );
    await task.log(`\n--- attempt ${n} decision ---\n${outcome.decision}`);
    const facts: AttemptFacts = {
      run: task.run,
      rung: this.index,
      model: rung.model,
      host: chat.host,
      provider: rung.provider,
      num_ctx: numCtx,
      prompt_tokens: chat.promptEvalCount,
      reply_tokens: chat.evalCount,
      tokens: chat.estimated ? "estimated" : "counted",
      ...(chat.firstTokenSecs !== undefined ? { first_token_secs: chat.firstTokenSecs } : {}),
      secs: Math.round(chat.wallSecs * 100) / 100,
      decision: _decision(outcome),
      checks: "not run",
    };
    await updateTask(task.ctx.root, task.plan.id, (r) => ({
      attempts: task.attempts,
      prompt_tokens: r.prompt_tokens + chat.promptEvalCount,
      reply_tokens: r.reply_tokens + chat.evalCount,
      model_secs: Math.round((r.model_secs + chat.wallSecs) * 100) / 100,
      ...(outcome.kind === "edits" ? {} : _withFacts(r, facts)),
    }));
    return facts;
  }

  /** The end of a rung whose model asked a question: its edits are taken back. */
  async #asked(question: string): Promise<RungEnd> {
    const undo = await this.task.place.undo();
    const left = undo.left.map((l) => l.path);
    return {
      status: "blocked",
      question,
      escalate: false,
      why: left.length
        ? `the model asked a question instead of editing; ${left.join(", ")} ${
          left.length === 1 ? "was" : "were"
        } edited meanwhile and keep the task's earlier edits (revert_task takes them out)`
        : "the model asked a question instead of editing; the tree is as it was before this call",
    };
  }

  /** A reply that could not be applied: its problem becomes the next attempt's feedback. */
  async #unusable(n: number, outcome: Extract<Replied, { kind: "unusable" }>): Promise<void> {
    this.#feedback = outcome.feedback;
    this.#lastProblem = outcome.problem;
    this.#lastUnusable = this.attempt;
    if (outcome.reason === "no-match" && outcome.path) {
      this.failedMatches.set(outcome.path, (this.failedMatches.get(outcome.path) ?? 0) + 1);
    }
    await this.task.log(`\n--- attempt ${n}: reply not applied: ${outcome.feedback}`);
    if (this.attempt < this.rung.max_attempts) {
      this.#progress("the reply could not be applied, asking again");
    }
  }

  /**
   * Writes the reply's edits over `from` and runs the checks; the rung's end when they pass or
   * the edits do not merge, undefined when a failed check becomes the next attempt's feedback.
   */
  async #writeAndCheck(
    n: number,
    outcome: Extract<Replied, { kind: "edits" }>,
    from: Snapshot,
    facts: AttemptFacts,
  ): Promise<RungEnd | undefined> {
    const { task, rung } = this;
    const { plan, config, ctx } = task;
    for (const w of outcome.warnings) task.warnings.add(w);
    const enc = new TextEncoder();
    const changed = new Map<string, Uint8Array>();
    for (const rel of outcome.changed) changed.set(rel, enc.encode(outcome.files.get(rel)!));
    const wrote = await task.place.write(changed, from);
    if ("conflicts" in wrote) {
      const names = wrote.conflicts.map((c) => `${c.path} (${c.reason})`).join(", ");
      await task.log(
        `\n--- attempt ${n}: not written: edited meanwhile, does not merge: ${names}`,
      );
      facts.checks = "not run";
      await updateTask(ctx.root, plan.id, (r) => _withFacts(r, facts));
      return conflictEnd(wrote.conflicts, new Map([...from, ...changed]));
    }
    this.#applied = true;
    await task.log(`\n--- attempt ${n}: applied edits to ${outcome.changed.join(", ")}`);
    if (wrote.merged.length) {
      for (const f of wrote.merged) task.theirs.add(f);
      await task.log(
        `\n--- attempt ${n}: ${wrote.merged.join(", ")} changed while the model wrote; its ` +
          "edits were merged onto that version",
      );
    }
    await task.sync();
    const checks = await this.#check(n);
    facts.checks = checks.failed_check ? `failed: ${checks.failed_check}` : "passed";
    await updateTask(ctx.root, plan.id, (r) => ({
      check_secs: Math.round((r.check_secs + checks.secs) * 100) / 100,
      ..._withFacts(r, facts),
    }));
    if (!checks.failed_check) {
      const ran = checks.results.filter((r) => !r.skipped).length;
      return {
        status: "passed",
        escalate: false,
        why: config.checks.length === 0
          ? "edits applied; no checks are configured"
          : plan.checks.length === 0
          ? "edits applied; no checks were selected"
          : ran === 0
          ? "edits applied; every selected check was skipped (no matching files)"
          : "all checks passed",
      };
    }
    this.#failedCheck = `${checks.failed_check}: ${checks.failed_output ?? ""}`.trim();
    this.#failedCheckName = checks.failed_check;
    this.#feedback = `After your edits were applied, the check "${checks.failed_check}" failed:\n` +
      `${checks.failed_output ?? "(no output)"}\nFix the code so that it passes.`;
    if (this.attempt < rung.max_attempts) {
      this.#progress(`check ${checks.failed_check} failed, asking again`);
    }
    return undefined;
  }

  /** The end of a rung whose attempts are all spent. */
  async #exhausted(): Promise<RungEnd> {
    const inTree = !(await this.task.place.unchanged());
    const attempts = `${this.attempt} attempt${this.attempt > 1 ? "s" : ""}`;
    if (this.#failedCheck) {
      const lastUnusable = this.#lastUnusable === this.attempt;
      return {
        status: "failed",
        escalate: true,
        failed_check: this.#failedCheck,
        ...(lastUnusable ? { error: this.#lastProblem } : {}),
        why: `check ${this.#failedCheckName} still fails after ${attempts}` +
          (lastUnusable ? " (the last reply could not be applied)" : ""),
        inTree,
        failure: lastUnusable
          ? `its last reply could not be applied: ${this.#lastProblem}\nbefore that, the check ` +
            `${this.#failedCheck}`
          : `the check ${this.#failedCheck}`,
      };
    }
    return {
      status: "failed",
      escalate: true,
      error: this.#lastProblem,
      why: `no usable edit came back in ${attempts}`,
      inTree,
      failure: `no reply could be applied: ${this.#lastProblem}`,
    };
  }
}
