/**
 * The attempts of one implement_task run (docs/ARCHITECTURE.md, "Delegation"): ask the model, apply its reply, run
 * the checks, feed what went wrong back, and finish with the verdict, the patch and the record.
 */
import { runChecks } from "../checks.ts";
import type { Config } from "../config.ts";
import { removeChecked } from "../fs_atomic.ts";
import type { ModelPool } from "../model/mod.ts";
import { applyFiles, storeRel, taskPaths, updateTask, writePatch } from "../tasks/mod.ts";
import type { EngineContext } from "./context.ts";
import { type ModelFacts, runAttempt } from "./attempt.ts";
import { sameBytes } from "../text.ts";
import { type Snapshot, snapshot, texts } from "./files.ts";
import type { TaskPlan } from "./plan.ts";
import { fitVerdict, type Verdict } from "./verdict.ts";

/** How often streaming progress is reported while the model writes, in ms. */
const CHUNK_PROGRESS_MS = 2_000;

/** The state of one implement_task run: its attempts, and what goes into the verdict. */
export class Loop {
  attempt = 0;
  note?: string;
  warnings = new Set<string>();
  truncated = new Set<string>();
  failedMatches = new Map<string, number>();
  #feedback?: string;
  #lastProblem = "";
  #lastUnusable = 0;
  #failedCheck?: string;
  #failedCheckName = "";

  constructor(
    readonly plan: TaskPlan,
    readonly config: Config,
    readonly facts: ModelFacts,
    readonly model: ModelPool,
    readonly ctx: EngineContext,
    /** The task's files when this call began, and the folders then missing above new files. */
    readonly start: { files: Snapshot; dirs: string[] },
    readonly log: (text: string) => Promise<void>,
  ) {}

  #progress(message: string): void {
    this.ctx.progress(`attempt ${this.attempt}/${this.config.max_attempts}: ${message}`);
  }

  /** Puts the task's files back as they were when this call began, folders included. */
  async restoreStart(): Promise<void> {
    const { root } = this.ctx;
    const now = await snapshot(root, this.plan.files);
    const edits: Snapshot = new Map();
    for (const [rel, bytes] of this.start.files) {
      if (!sameBytes(now.get(rel) ?? null, bytes)) edits.set(rel, bytes);
    }
    if (edits.size) await applyFiles(root, this.plan.id, edits);
    // Folders made for new files go too, when nothing else was put in them.
    for (const dir of [...this.start.dirs].reverse()) {
      try {
        removeChecked(root, dir, true); // only when empty; never through a swapped link
      } catch {
        // not empty, or no longer a folder of ours
      }
    }
  }

  async run(): Promise<Verdict> {
    const { plan, config, ctx } = this;
    let applied = false;
    while (this.attempt < config.max_attempts) {
      this.attempt++;
      const current = texts(await snapshot(ctx.root, plan.files));
      this.#progress(`asking ${config.model}`);
      let lastChunk = 0;
      const outcome = await runAttempt({
        plan,
        config,
        facts: this.facts,
        current,
        feedback: this.#feedback,
        failedMatches: this.failedMatches,
        model: this.model,
        signal: ctx.signal,
        notice: (message) => {
          this.#progress(message);
          void this.log(`\n--- attempt ${this.attempt}: ${message}`).catch(() => {});
        },
        truncated: this.truncated,
        warn: (w) => this.warnings.add(w),
        onPrompt: (messages, numCtx) =>
          void this.log(
            `\n--- attempt ${this.attempt} prompt (num_ctx ${numCtx}) ---\n` +
              messages.map((m) => `[${m.role}]\n${m.content}`).join("\n"),
          ).catch(() => {}),
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
      if (outcome.kind === "too_large") {
        await this.log(`\n--- attempt ${this.attempt}: ${outcome.error}`);
        if (applied) await this.restoreStart();
        this.attempt--; // the model was not asked
        return await this.#finish("error", {
          error: outcome.error,
          escalate: true,
          why: "the task does not fit the model's context",
        });
      }
      const chat = outcome.chat;
      await this.log(
        `\n--- attempt ${this.attempt} reply (${chat.wallSecs.toFixed(1)} s, ${chat.host}, prompt ${
          chat.estimated ? "~" : ""
        }${chat.promptEvalCount} ` +
          `tokens, reply ${chat.estimated ? "~" : ""}${chat.evalCount} tokens${
            chat.estimated ? " (estimated: the server sent no usage)" : ""
          }, done_reason ${chat.doneReason || "-"}) ---\n${chat.content}`,
      );
      await this.log(`\n--- attempt ${this.attempt} decision ---\n${outcome.decision}`);
      await updateTask(ctx.root, plan.id, (r) => ({
        attempts: this.attempt,
        prompt_tokens: r.prompt_tokens + chat.promptEvalCount,
        reply_tokens: r.reply_tokens + chat.evalCount,
        model_secs: Math.round((r.model_secs + chat.wallSecs) * 100) / 100,
      }));
      if (outcome.kind === "question") {
        await this.restoreStart();
        return await this.#finish("blocked", {
          question: outcome.question,
          escalate: false,
          why:
            "the model asked a question instead of editing; the tree is as it was before this call",
        });
      }
      if (outcome.kind === "unusable") {
        this.#feedback = outcome.feedback;
        this.#lastProblem = outcome.problem;
        this.#lastUnusable = this.attempt;
        if (outcome.reason === "no-match" && outcome.path) {
          this.failedMatches.set(outcome.path, (this.failedMatches.get(outcome.path) ?? 0) + 1);
        }
        await this.log(`\n--- attempt ${this.attempt}: reply not applied: ${outcome.feedback}`);
        continue;
      }
      for (const w of outcome.warnings) this.warnings.add(w);
      const changed = new Map<string, string>();
      for (const rel of outcome.changed) changed.set(rel, outcome.files.get(rel)!);
      await applyFiles(ctx.root, plan.id, changed);
      applied = true;
      await this.log(
        `\n--- attempt ${this.attempt}: applied edits to ${outcome.changed.join(", ")}`,
      );
      const checks = await runChecks(ctx.root, plan.checks, {
        files: plan.files,
        signal: ctx.signal,
        logPath: taskPaths(ctx.root, plan.id).log,
        onProgress: (message) => this.#progress(message),
      });
      await updateTask(ctx.root, plan.id, (r) => ({
        check_secs: Math.round((r.check_secs + checks.secs) * 100) / 100,
      }));
      if (!checks.failed_check) {
        const ran = checks.results.filter((r) => !r.skipped).length;
        return await this.#finish("passed", {
          escalate: false,
          why: config.checks.length === 0
            ? "edits applied; no checks are configured"
            : plan.checks.length === 0
            ? "edits applied; no checks were selected"
            : ran === 0
            ? "edits applied; every selected check was skipped (no matching files)"
            : "all checks passed",
        });
      }
      this.#failedCheck = `${checks.failed_check}: ${checks.failed_output ?? ""}`.trim();
      this.#failedCheckName = checks.failed_check;
      this.#feedback =
        `After your edits were applied, the check "${checks.failed_check}" failed:\n` +
        `${checks.failed_output ?? "(no output)"}\nFix the code so that it passes.`;
    }
    const inTree = !(await this.#sameAsStart());
    const attempts = `${this.attempt} attempt${this.attempt > 1 ? "s" : ""}`;
    if (this.#failedCheck) {
      const lastUnusable = this.#lastUnusable === this.attempt;
      return await this.#finish("failed", {
        escalate: true,
        failed_check: this.#failedCheck,
        ...(lastUnusable ? { error: this.#lastProblem } : {}),
        why: `check ${this.#failedCheckName} still fails after ${attempts}` +
          (lastUnusable ? " (the last reply could not be applied)" : ""),
        treeNote: inTree,
      });
    }
    return await this.#finish("failed", {
      escalate: true,
      error: this.#lastProblem,
      why: `no usable edit came back in ${attempts}`,
      treeNote: inTree,
    });
  }

  async #sameAsStart(): Promise<boolean> {
    const now = await snapshot(this.ctx.root, this.plan.files);
    for (const [rel, bytes] of this.start.files) {
      if (!sameBytes(now.get(rel) ?? null, bytes)) return false;
    }
    return true;
  }

  async #finish(
    status: "passed" | "failed" | "blocked" | "error",
    extra: Record<string, unknown> & { why: string; escalate: boolean; treeNote?: boolean },
  ): Promise<Verdict> {
    const { root } = this.ctx;
    const { treeNote, ...fields } = extra;
    const summary = await writePatch(root, this.plan.id);
    const notes = [this.note];
    if (status === "failed") {
      notes.push(
        treeNote
          ? "the last attempt's edits are still in the tree: fix them, or call revert_task"
          : "no edit was applied; the tree is as it was",
      );
    }
    await updateTask(root, this.plan.id, {
      status,
      attempts: this.attempt,
      why: extra.why,
      ...(typeof fields.error === "string" ? { error: fields.error } : {}),
      finished: new Date().toISOString(),
    });
    const changed = summary.files.length > 0;
    const note = notes.filter(Boolean).join("; ");
    const { escalate, why, question, error, failed_check } = fields;
    // The order of the example in docs/reference/localexec-tool-reference.txt.
    return fitVerdict({
      status,
      attempts: this.attempt,
      ...(changed ? { files: summary.files, stat: summary.stat, patch: summary.patch } : {}),
      log: storeRel(`${this.plan.id}.log`),
      escalate,
      why,
      ...(typeof question === "string" ? { question } : {}),
      ...(typeof error === "string" ? { error } : {}),
      ...(typeof failed_check === "string" ? { failed_check } : {}),
      ...(this.warnings.size ? { warnings: [...this.warnings] } : {}),
      ...(this.truncated.size ? { truncated: [...this.truncated] } : {}),
      ...(note ? { note } : {}),
    });
  }
}
